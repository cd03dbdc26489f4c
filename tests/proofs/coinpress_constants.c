/* Prints dpcov_coinpress_plan() receipts and the zCDP conversions as JSON lines, for
 * proofs/check/coinpress.py, which recomputes them independently with mpmath.
 *
 * Reads one request per line from stdin:
 *   plan <n> <d> <rho> <K> <t> <beta> <delta>
 *   mean <n> <d> <rho> <r> <s> <t> <beta> <delta>   (dpcov_coinpress_mean_plan)
 *   split <rho>                  (dpcov_coinpress_centring_split)
 *   epsilon <rho> <delta>        (dpcov_zcdp_epsilon)
 *   rho <epsilon> <delta>        (dpcov_zcdp_rho)
 * and writes one JSON object per line ({"status": ...} when the call fails). Doubles are printed
 * with 17 significant digits (exact round trip). */
#include <stdio.h>
#include <string.h>

#include "dpcov.h"

static void print_array(const char *name, const double *v, long long count) {
  long long i;
  printf(", \"%s\": [", name);
  for (i = 0; i < count; ++i) printf("%s%.17g", i ? ", " : "", v[i]);
  printf("]");
}

static void print_status(dpcov_status s) {
  printf("{\"status\": \"%s\", \"message\": \"%s\"}\n", dpcov_status_string(s),
         dpcov_last_error_message());
}

int main(void) {
  char kind[16];
  while (scanf("%15s", kind) == 1) {
    if (strcmp(kind, "plan") == 0) {
      long long n, d, t;
      dpcov_coinpress_params p;
      dpcov_coinpress_receipt r;
      dpcov_status s;
      int i;
      dpcov_coinpress_params_default(&p);
      if (scanf("%lld %lld %lf %lf %lld %lf %lf", &n, &d, &p.rho, &p.k_bound, &t, &p.beta,
                &p.delta) != 7)
        return 2;
      p.steps = t;
      r.struct_size = sizeof r;
      s = dpcov_coinpress_plan(n, d, &p, &r);
      if (s != DPCOV_OK) {
        print_status(s);
        continue;
      }
      printf("{\"status\": \"DPCOV_OK\", \"n\": %lld, \"dim\": %lld, \"steps\": %lld, "
             "\"rho\": %.17g, \"k_bound\": %.17g, \"beta\": %.17g, \"clip_radius\": %.17g, "
             "\"eta\": %.17g, \"epsilon\": %.17g, \"delta\": %.17g, \"step_rho\": [",
             (long long)r.n, (long long)r.dim, (long long)r.steps, r.rho, r.k_bound, r.beta,
             r.clip_radius, r.eta, r.epsilon, r.delta);
      for (i = 0; i < r.steps; ++i) printf("%s%.17g", i ? ", " : "", r.step_rho[i]);
      printf("], \"step_sigma\": [");
      for (i = 0; i < r.steps; ++i) printf("%s%.17g", i ? ", " : "", r.step_sigma[i]);
      printf("]}\n");
    } else if (strcmp(kind, "mean") == 0) {
      long long n, d, t;
      dpcov_coinpress_mean_params p;
      dpcov_coinpress_mean_receipt r;
      dpcov_status s;
      dpcov_coinpress_mean_params_default(&p);
      if (scanf("%lld %lld %lf %lf %lf %lld %lf %lf", &n, &d, &p.rho, &p.radius, &p.scale, &t,
                &p.beta, &p.delta) != 8)
        return 2;
      p.steps = t;
      r.struct_size = sizeof r;
      s = dpcov_coinpress_mean_plan(n, d, &p, &r);
      if (s != DPCOV_OK) {
        print_status(s);
        continue;
      }
      printf("{\"status\": \"DPCOV_OK\", \"n\": %lld, \"dim\": %lld, \"steps\": %lld, "
             "\"rho\": %.17g, \"radius\": %.17g, \"scale\": %.17g, \"beta\": %.17g, "
             "\"tail_radius\": %.17g, \"epsilon\": %.17g, \"delta\": %.17g",
             (long long)r.n, (long long)r.dim, (long long)r.steps, r.rho, r.radius, r.scale,
             r.beta, r.tail_radius, r.epsilon, r.delta);
      print_array("step_rho", r.step_rho, (long long)r.steps);
      print_array("step_clip_radius", r.step_clip_radius, (long long)r.steps);
      print_array("step_sigma", r.step_sigma, (long long)r.steps);
      printf("}\n");
    } else if (strcmp(kind, "split") == 0) {
      double rho, mean_share = 0.0, covariance_share = 0.0;
      dpcov_status s;
      if (scanf("%lf", &rho) != 1) return 2;
      s = dpcov_coinpress_centring_split(rho, &mean_share, &covariance_share);
      if (s != DPCOV_OK) {
        print_status(s);
        continue;
      }
      printf("{\"status\": \"DPCOV_OK\", \"rho_mean\": %.17g, \"rho_covariance\": %.17g}\n",
             mean_share, covariance_share);
    } else {
      double a, delta, value = 0.0;
      dpcov_status s;
      if (scanf("%lf %lf", &a, &delta) != 2) return 2;
      s = strcmp(kind, "epsilon") == 0 ? dpcov_zcdp_epsilon(a, delta, &value)
                                       : dpcov_zcdp_rho(a, delta, &value);
      if (s != DPCOV_OK) {
        print_status(s);
        continue;
      }
      printf("{\"status\": \"DPCOV_OK\", \"value\": %.17g}\n", value);
    }
  }
  return 0;
}
