#include "exp_minus_one.hpp"

#include <mpfr.h>

#include "../error.hpp"

namespace dpcov::random {

uint64_t exp_minus_one_word(uint64_t i) {
  // 1/e lies in [2^-2, 2^-1): its leading digit is digit 2, so a precision of p significant bits
  // rounded down holds digits 2..p+1 exactly, i.e. floor(2^(p+1) / e) 2^-(p+1). With p + 1 =
  // 64 (i + 1), scaling by 2^(64 i) (exact) and dropping the integer part (exact) leaves the
  // word's digits as a fraction that 64 bits hold; the scaling by 2^64 and the conversion are
  // exact too.
  if (i > (uint64_t{1} << 20)) fail(Status::Internal, "exp_minus_one_word: digit beyond 2^26");
  const auto digits = static_cast<mpfr_prec_t>(64 * (i + 1));
  mpfr_t x;
  mpfr_init2(x, digits - 1);
  mpfr_set_si(x, -1, MPFR_RNDN);
  mpfr_exp(x, x, MPFR_RNDD);
  mpfr_mul_2ui(x, x, static_cast<unsigned long>(64 * i), MPFR_RNDN);
  mpfr_frac(x, x, MPFR_RNDN);
  mpfr_mul_2ui(x, x, 32, MPFR_RNDN);
  const uint64_t high = mpfr_get_ui(x, MPFR_RNDZ);
  mpfr_frac(x, x, MPFR_RNDN);
  mpfr_mul_2ui(x, x, 32, MPFR_RNDN);
  const uint64_t low = mpfr_get_ui(x, MPFR_RNDZ);
  mpfr_clear(x);
  return (high << 32) | low;
}

}  // namespace dpcov::random
