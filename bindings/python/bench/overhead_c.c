/* The C side of bench/overhead.py: median time of one Analyze Gauss release of a precomputed
 * d x d Gram matrix through dpcov_mechanism_release(), over many repeats. Times are the calling
 * thread's CPU time (CLOCK_THREAD_CPUTIME_ID), so that other processes on a shared machine do not
 * inflate them; the release runs on the calling thread.
 *
 * Usage: overhead_c D REPEATS. Prints "median_ns a b c" with a, b, c the entries (0, 0),
 * (0, min(1, D-1)) and (D-1, D-1) of the first release. The Gram matrix is that of 1000 rows of
 * standard normal draws from the generator (seed 1, stream 0) with the norm bound B = 2 sqrt(D)
 * (clipping the rare longer rows), and the releases use the generator (seed 2, stream 0):
 * overhead.py builds the same inputs through the Python binding and checks that its first
 * release is bit-identical. */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "dpcov.h"

static int compare(const void *a, const void *b) {
  const long long x = *(const long long *)a, y = *(const long long *)b;
  return (x > y) - (x < y);
}

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void check(dpcov_status status) {
  if (status != DPCOV_OK) {
    fprintf(stderr, "%s: %s\n", dpcov_status_string(status), dpcov_last_error_message());
    exit(1);
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: overhead_c D REPEATS\n");
    return 2;
  }
  const int64_t d = atoll(argv[1]);
  const int repeats = atoi(argv[2]);
  const int64_t rows = 1000;
  double *data = malloc(sizeof(double) * (size_t)(rows * d));
  double *gram = malloc(sizeof(double) * (size_t)(d * d));
  double *out = malloc(sizeof(double) * (size_t)(d * d));
  long long *times = malloc(sizeof(long long) * (size_t)repeats);
  if (!data || !gram || !out || !times) return 1;

  dpcov_rng *rng = NULL;
  check(dpcov_rng_create_seeded(&rng, 1, 0));
  check(dpcov_sample_standard_normal(rng, rows * d, data));
  dpcov_rng_destroy(&rng);
  const double bound = 2.0 * sqrt((double)d);
  dpcov_gram *acc = NULL;
  check(dpcov_gram_create(&acc, d));
  check(dpcov_gram_add_rows(acc, DPCOV_ROW_MAJOR, rows, d, data, d, bound, DPCOV_BOUND_CLIP));
  check(dpcov_gram_get_matrix(acc, DPCOV_ROW_MAJOR, gram, d));
  dpcov_gram_destroy(&acc);

  check(dpcov_rng_create_seeded(&rng, 2, 0));
  dpcov_receipt receipt;
  double first[3] = {0.0, 0.0, 0.0};
  for (int r = 0; r < repeats; ++r) {
    receipt.struct_size = sizeof receipt;
    const long long start = now_ns();
    check(dpcov_mechanism_release(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_ROW_MAJOR, d, gram, d,
                                  rows, bound, 1.0, 1e-6, NULL, rng, out, d, &receipt));
    times[r] = now_ns() - start;
    if (r == 0) {
      first[0] = out[0];
      first[1] = out[d > 1 ? 1 : 0];
      first[2] = out[d * d - 1];
    }
  }
  dpcov_rng_destroy(&rng);
  qsort(times, (size_t)repeats, sizeof times[0], compare);
  printf("%lld %.17g %.17g %.17g\n", times[repeats / 2], first[0], first[1], first[2]);
  free(data);
  free(gram);
  free(out);
  free(times);
  return 0;
}
