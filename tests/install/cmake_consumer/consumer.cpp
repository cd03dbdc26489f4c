// A C++ user of the installed library: the Gram matrix of two rows, through <dpcov.h> only.
#include <dpcov.h>

#include <cstdio>

int main() {
  const double rows[] = {1.0, 2.0, 3.0, 4.0};  // rows (1, 2) and (3, 4), row-major
  double g[4] = {0.0, 0.0, 0.0, 0.0};
  dpcov_gram *gram = nullptr;
  if (dpcov_gram_create(&gram, 2) != DPCOV_OK ||
      dpcov_gram_add_rows(gram, DPCOV_ROW_MAJOR, 2, 2, rows, 2, 10.0, DPCOV_BOUND_CLIP) != DPCOV_OK ||
      dpcov_gram_get_matrix(gram, DPCOV_ROW_MAJOR, g, 2) != DPCOV_OK) {
    std::fprintf(stderr, "FAILED: %s\n", dpcov_last_error_message());
    return 1;
  }
  dpcov_gram_destroy(&gram);
  const bool ok = g[0] == 10.0 && g[1] == 14.0 && g[2] == 14.0 && g[3] == 20.0;
  std::printf("C++ (CMake dpcov::dpcov): dpcov %s, G = [%g %g; %g %g] %s\n", dpcov_version_string(),
              g[0], g[1], g[2], g[3], ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
