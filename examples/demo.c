/* Demo: a differentially private second-moment matrix of the embedded Wine data (data/wine.csv),
 * through the public C ABI only.
 *
 * Each column is mapped to [-1, 1] with the ranges published with the dataset (public knowledge,
 * never computed from the data), and each row is divided by sqrt(13), so every row has norm <= 1
 * (B = 1; the accumulator clips and counts anything above). The Gram matrix G = A^T A is released
 * with Analyze Gauss at (epsilon, delta) = (1, 1e-6) under the replace-one neighbour relation,
 * through the library's row path: an accumulator made for that release (dpcov_row_bounding names
 * it) holds the rows on an integer grid, so the release has exact, floating-point-safe numerics
 * (discrete Gaussian noise on the exact integer Gram matrix). A second, floating-point
 * accumulator gives the exact G the release is compared with (not private: the curator's).
 *
 * Usage: demo [path/to/wine.csv] [seed]   (no seed: the generator is seeded from OS entropy)
 */
#include <dpcov.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { D = 13, MAX_ROWS = 1024 };

static const char *const names[D] = {"alcohol", "malic", "ash", "alcal", "magnes", "phenol",
                                     "flavan", "nonflav", "proanth", "color", "hue", "od280",
                                     "proline"};
/* Published column ranges (data/README.md). */
static const double lo[D] = {11.0, 0.74, 1.36, 10.6, 70.0, 0.98, 0.34, 0.13, 0.41, 1.3, 0.48, 1.27, 278};
static const double hi[D] = {14.8, 5.80, 3.23, 30.0, 162.0, 3.88, 5.08, 0.66, 3.58, 13.0, 1.71, 4.00, 1680};

static int check(dpcov_status s, const char *what) {
  if (s == DPCOV_OK) return 0;
  fprintf(stderr, "demo: %s failed: %s: %s\n", what, dpcov_status_string(s),
          dpcov_last_error_message());
  return 1;
}

/* Reads the CSV (header line, then D numeric columns) into rows scaled as described above. */
static long read_rows(const char *path, double *rows) {
  char line[4096];
  long n = 0;
  FILE *f = fopen(path, "r");
  if (!f) {
    perror(path);
    return -1;
  }
  if (!fgets(line, sizeof line, f)) n = -1; /* header */
  while (n >= 0 && n < MAX_ROWS && fgets(line, sizeof line, f)) {
    char *p = line;
    int j;
    for (j = 0; j < D; ++j) {
      char *end;
      const double x = strtod(p, &end);
      if (end == p) {
        fprintf(stderr, "%s:%ld: column %d is not a number\n", path, n + 2, j + 1);
        fclose(f);
        return -1;
      }
      rows[n * D + j] = (2.0 * (x - lo[j]) / (hi[j] - lo[j]) - 1.0) / sqrt((double)D);
      p = end + (*end == ',');
    }
    ++n;
  }
  fclose(f);
  return n;
}

int main(int argc, char **argv) {
  static double rows[MAX_ROWS * D];
  double gram[D * D], released[D * D], error = 0.0;
  const char *path = argc > 1 ? argv[1] : "data/wine.csv";
  const double epsilon = 1.0, delta = 1e-6;
  dpcov_gram *acc = NULL, *exact_g = NULL;
  dpcov_rng *rng = NULL;
  dpcov_gram_info info;
  dpcov_row_bounding spec;
  dpcov_receipt receipt;
  long n;
  int i, j, failed;

  n = read_rows(path, rows);
  if (n <= 0) return 1;

  memset(&info, 0, sizeof info);
  info.struct_size = sizeof info;
  memset(&receipt, 0, sizeof receipt);
  receipt.struct_size = sizeof receipt;
  failed = check(dpcov_row_bounding_default(&spec), "dpcov_row_bounding_default");
  spec.mechanism = DPCOV_MECHANISM_ANALYZE_GAUSS; /* bound 1, clip, exact numerics: defaults */
  spec.epsilon = epsilon;
  spec.delta = delta;
  failed = failed || check(dpcov_gram_create_bounded(&acc, D, &spec), "dpcov_gram_create_bounded") ||
           check(dpcov_gram_add_raw_rows(acc, DPCOV_ROW_MAJOR, n, D, rows, D, NULL),
                 "dpcov_gram_add_raw_rows") ||
           check(dpcov_gram_get_info(acc, &info), "dpcov_gram_get_info") ||
           check(dpcov_gram_create(&exact_g, D), "dpcov_gram_create") ||
           check(dpcov_gram_add_rows(exact_g, DPCOV_ROW_MAJOR, n, D, rows, D, 1.0,
                                     DPCOV_BOUND_CLIP),
                 "dpcov_gram_add_rows") ||
           check(dpcov_gram_get_matrix(exact_g, DPCOV_ROW_MAJOR, gram, D),
                 "dpcov_gram_get_matrix") ||
           check(argc > 2 ? dpcov_rng_create_seeded(&rng, strtoull(argv[2], NULL, 10), 0)
                          : dpcov_rng_create_from_entropy(&rng),
                 "creating the generator") ||
           check(dpcov_mechanism_release_gram(DPCOV_MECHANISM_ANALYZE_GAUSS, acc, epsilon, delta,
                                              NULL, rng, DPCOV_ROW_MAJOR, released, D, &receipt),
                 "dpcov_mechanism_release_gram") ||
           check(dpcov_metric_frobenius_error(DPCOV_ROW_MAJOR, D, D, released, D, gram, D, 1,
                                              &error),
                 "dpcov_metric_frobenius_error");
  if (!failed) {
    printf("dpcov %s: Wine data, %ld rows x %d columns, rows scaled to norm <= B = %g (%lld clipped)\n",
           dpcov_version_string(), n, D, info.bound, (long long)info.clipped);
    printf("mechanism %s, epsilon %g, delta %g, neighbour relation %s, numerics %s\n",
           dpcov_mechanism_name(receipt.mechanism), receipt.epsilon, receipt.delta,
           receipt.neighbour == DPCOV_NEIGHBOUR_REPLACE_ONE ? "replace-one" : "add/remove",
           receipt.numerics == DPCOV_NUMERICS_EXACT ? "exact" : "idealized");
    printf("sensitivity %.6g, sigma %.6g per entry, seed %s\n  (%s)\n\n", receipt.sensitivity,
           receipt.sigma, receipt.seed_fixed ? "FIXED (not private)" : "from OS entropy",
           receipt.theorem);
    printf("private second-moment matrix G/n (upper triangle; exact value below each entry)\n%8s",
           "");
    for (j = 0; j < D; ++j) printf("%8s", names[j]);
    printf("\n");
    for (i = 0; i < D; ++i) {
      printf("%8s", names[i]);
      for (j = 0; j < D; ++j)
        if (j >= i) printf("%8.4f", released[i * D + j] / (double)n);
        else printf("%8s", "");
      printf("\n%8s", "");
      for (j = 0; j < D; ++j)
        if (j >= i) printf("%8.4f", gram[i * D + j] / (double)n);
        else printf("%8s", "");
      printf("\n");
    }
    printf("\nnormalised Frobenius error ||release - G||_F / ||G||_F = %.4f\n", error);
  }
  dpcov_rng_destroy(&rng);
  dpcov_gram_destroy(&acc);
  dpcov_gram_destroy(&exact_g);
  return failed;
}
