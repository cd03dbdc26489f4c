/* Prints dpcov_dly_plan() receipts as JSON lines, for proofs/check/dong_liang_yi.py.
 *
 * Reads one request per line from stdin: <variant 0|1|2|3> <n> <d> <rho> <r> <beta> <delta>
 * and writes one JSON object per line ({"status": ...} when the plan fails). Doubles are printed
 * with 17 significant digits (exact round trip). For Adaptive with n d <= 200000 and d <= 200 the
 * line also has the release receipt's "settled" and "released_rho_covariance" from a release on n
 * rows (r, 0, ..., 0), all at the bound (seeded). */
#include <stdio.h>
#include <stdlib.h>

#include "dpcov.h"

/* Releases Adaptive on n rows (r, 0, ..., 0) into *out; returns the status. */
static dpcov_status release_at_bound(long long n, long long d, const dpcov_dly_params *p,
                                     dpcov_dly_receipt *out) {
  double *rows = calloc((size_t)(n * d), sizeof(double));
  double *cov = malloc((size_t)(d * d) * sizeof(double));
  dpcov_rng *rng = NULL;
  dpcov_status s = DPCOV_E_NOMEM;
  if (rows != NULL && cov != NULL && dpcov_rng_create_seeded(&rng, 20261124, 0) == DPCOV_OK) {
    for (long long i = 0; i < n; ++i) rows[i * d] = p->radius;
    out->struct_size = sizeof *out;
    s = dpcov_dly_release(DPCOV_ROW_MAJOR, n, d, rows, d, p, rng, cov, d, out);
  }
  dpcov_rng_destroy(&rng);
  free(cov);
  free(rows);
  return s;
}

int main(void) {
  int variant;
  long long n, d;
  dpcov_dly_params p;
  dpcov_dly_receipt r;
  dpcov_dly_params_default(&p);
  while (scanf("%d %lld %lld %lf %lf %lf %lf", &variant, &n, &d, &p.rho, &p.radius, &p.beta,
               &p.delta) == 7) {
    dpcov_status s;
    p.variant = variant;
    r.struct_size = sizeof r;
    s = dpcov_dly_plan(n, d, &p, &r);
    if (s != DPCOV_OK) {
      printf("{\"status\": \"%s\", \"message\": \"%s\"}\n", dpcov_status_string(s),
             dpcov_last_error_message());
      continue;
    }
    printf("{\"status\": \"DPCOV_OK\", \"first_look_sigma\": %.17g, \"first_look_settled\": %d, ",
           r.first_look_sigma, (int)r.first_look_settled);
    if (variant == DPCOV_DLY_ADAPTIVE && n * d <= 200000 && d <= 200) {
      dpcov_dly_receipt released;
      if (release_at_bound(n, d, &p, &released) == DPCOV_OK)
        printf("\"settled\": %d, \"released_rho_covariance\": %.17g, ",
               (int)released.first_look_settled, released.rho_covariance);
    }
    printf(
        "\"variant\": %d, \"n\": %lld, \"dim\": %lld, "
        "\"rho\": %.17g, \"radius\": %.17g, \"epsilon\": %.17g, \"rho_covariance\": %.17g, "
        "\"trace_sigma\": %.17g, \"svt_epsilon\": %.17g, \"svt_queries\": %lld, "
        "\"branch\": %d, \"histogram_sigma\": %.17g, \"clip_radius\": %.17g, "
        "\"sigma_matrix\": %.17g, \"sigma_eigenvalues\": %.17g}\n",
        (int)r.variant, (long long)r.n, (long long)r.dim, r.rho, r.bound, r.epsilon,
        r.rho_covariance, r.trace_sigma, r.svt_epsilon, (long long)r.svt_queries, (int)r.branch,
        r.histogram_sigma, r.clip_radius, r.sigma_matrix, r.sigma_eigenvalues);
  }
  return 0;
}
