/*
 * Reference for the CLI tests: the Gram matrix of a whole raw float64 file (row-major, D columns)
 * computed by ONE dpcov_gram_add_rows call, written as raw row-major float64 with the counters.
 *   gram_one_call INPUT.f64 D BOUND clip|reject|drop OUTPUT.f64
 * OUTPUT holds the D x D matrix followed by rows, clipped and dropped (as doubles).
 */
#include <dpcov.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  FILE *in;
  FILE *out;
  long size;
  int64_t d;
  int64_t n;
  double *a;
  double *g;
  double counts[3];
  double bound;
  int32_t policy = DPCOV_BOUND_CLIP;
  dpcov_gram *gram = NULL;
  dpcov_gram_info info;
  dpcov_status status;

  if (argc != 6) {
    fprintf(stderr, "usage: gram_one_call INPUT.f64 D BOUND clip|reject|drop OUTPUT.f64\n");
    return 1;
  }
  d = atoll(argv[2]);
  bound = atof(argv[3]);
  if (strcmp(argv[4], "reject") == 0) policy = DPCOV_BOUND_REJECT;
  if (strcmp(argv[4], "drop") == 0) policy = DPCOV_BOUND_DROP;
  in = fopen(argv[1], "rb");
  if (in == NULL || d < 1) return 1;
  fseek(in, 0, SEEK_END);
  size = ftell(in);
  fseek(in, 0, SEEK_SET);
  n = (int64_t)size / (int64_t)(8 * d);
  a = malloc((size_t)(n * d + 1) * sizeof(double));
  g = malloc((size_t)(d * d) * sizeof(double));
  if (a == NULL || g == NULL || fread(a, sizeof(double), (size_t)(n * d), in) != (size_t)(n * d))
    return 1;
  fclose(in);

  status = dpcov_gram_create(&gram, d);
  if (status == DPCOV_OK)
    status = dpcov_gram_add_rows(gram, DPCOV_ROW_MAJOR, n, d, a, d, bound, policy);
  if (status == DPCOV_OK) status = dpcov_gram_get_matrix(gram, DPCOV_ROW_MAJOR, g, d);
  info.struct_size = sizeof info;
  if (status == DPCOV_OK) status = dpcov_gram_get_info(gram, &info);
  if (status != DPCOV_OK) {
    fprintf(stderr, "gram_one_call: %s: %s\n", dpcov_status_string(status),
            dpcov_last_error_message());
    return 2;
  }
  counts[0] = (double)info.rows;
  counts[1] = (double)info.clipped;
  counts[2] = (double)info.dropped;
  out = fopen(argv[5], "wb");
  if (out == NULL || fwrite(g, sizeof(double), (size_t)(d * d), out) != (size_t)(d * d) ||
      fwrite(counts, sizeof(double), 3, out) != 3 || fclose(out) != 0)
    return 1;
  dpcov_gram_destroy(&gram);
  free(a);
  free(g);
  return 0;
}
