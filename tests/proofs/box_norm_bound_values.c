/* Prints dpcov_column_bounds_norm_bound(d) for proofs/check/column_bounds.py, which checks it
 * against mpmath. Reads one d per line; writes B as an exact hexadecimal double, and then the
 * floating-point product B * B, also in hexadecimal. */
#include <stdio.h>

#include <dpcov.h>

int main(void) {
  long long d = 0;
  while (scanf("%lld", &d) == 1) {
    double bound = 0.0;
    if (dpcov_column_bounds_norm_bound((int64_t)d, &bound) != DPCOV_OK) {
      printf("error %s\n", dpcov_last_error_message());
      continue;
    }
    volatile double squared = bound * bound;
    printf("%a %a\n", bound, squared);
  }
  return 0;
}
