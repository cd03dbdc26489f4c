/* A C99 user of the library: accumulates a Gram matrix through the public header only, checks it
 * against a direct computation, and checks that bad input gives a status and a message. */
#include <dpcov.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;

static void expect(int ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "FAILED: %s (last error: %s)\n", what, dpcov_last_error_message());
    ++failures;
  }
}

int main(void) {
  enum { N = 5, D = 3 };
  /* Column-major with leading dimension N + 1: one padding element per column. */
  double a[(N + 1) * D];
  double g[D * D];
  double want;
  dpcov_gram *gram = NULL;
  dpcov_gram_info info;
  int i, j, r;

  for (i = 0; i < (N + 1) * D; ++i) a[i] = 0.05 * (double)((i * 7) % 11) - 0.2;

  expect(dpcov_version_number() == DPCOV_VERSION_NUMBER, "version number matches header");
  expect(dpcov_gram_create(&gram, D) == DPCOV_OK, "create");
  expect(dpcov_gram_add_rows(gram, DPCOV_COL_MAJOR, N, D, a, N + 1, 10.0, DPCOV_BOUND_CLIP) ==
             DPCOV_OK,
         "add_rows");
  expect(dpcov_gram_get_matrix(gram, DPCOV_ROW_MAJOR, g, D) == DPCOV_OK, "get_matrix");
  for (i = 0; i < D; ++i)
    for (j = 0; j < D; ++j) {
      want = 0.0;
      for (r = 0; r < N; ++r) want += a[r + i * (N + 1)] * a[r + j * (N + 1)];
      expect(fabs(g[i * D + j] - want) <= 1e-14, "Gram entry equals direct sum");
    }

  memset(&info, 0, sizeof info);
  info.struct_size = sizeof info;
  expect(dpcov_gram_get_info(gram, &info) == DPCOV_OK && info.rows == N && info.dim == D,
         "info");

  expect(dpcov_gram_add_rows(gram, DPCOV_COL_MAJOR, N, D, a, N - 1, 10.0, DPCOV_BOUND_CLIP) ==
             DPCOV_E_LAYOUT,
         "short leading dimension refused");
  expect(strstr(dpcov_last_error_message(), "leading dimension") != NULL, "message says why");
  expect(strcmp(dpcov_status_string(DPCOV_E_LAYOUT), "DPCOV_E_LAYOUT") == 0, "status string");
  expect(dpcov_gram_create(NULL, D) == DPCOV_E_NULL_POINTER, "null out refused");

  dpcov_gram_destroy(&gram);
  expect(gram == NULL, "destroy nulls the handle");
  dpcov_gram_destroy(&gram);

  if (failures == 0) printf("c99 program: all checks passed (dpcov %s)\n", dpcov_version_string());
  return failures == 0 ? 0 : 1;
}
