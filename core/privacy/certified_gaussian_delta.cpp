#include "certified_gaussian_delta.hpp"

#include <mpfr.h>

#include <limits>

namespace dpcov::privacy {

namespace {

// Working precision. Every operation is rounded in the safe direction whatever the precision, so
// this only sets how close to the exact boundary a sigma can be certified: the two terms of
// delta(sigma) cancel to a relative gap of about a/b = eps/(2 b^2) >= 2^-50 over the calibrated
// range, which leaves more than 100 correct bits.
constexpr mpfr_prec_t kBits = 160;

// RAII for a handful of MPFR numbers.
struct Number {
  mpfr_t v;
  Number() { mpfr_init2(v, kBits); }
  ~Number() { mpfr_clear(v); }
  Number(const Number &) = delete;
  Number &operator=(const Number &) = delete;
};

// MPFR keeps per-thread caches (constants, the erfc series) that outlive a thread unless it frees
// them: one of these per thread that certifies frees them when the thread ends.
struct ThreadCacheRelease {
  ~ThreadCacheRelease() { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); }
};

// Sets `bound` to an upper bound of delta(sigma), every operation rounded in the direction that
// can only make it larger.
void delta_upper_bound(double sigma, double eps, double sensitivity, Number &bound) {
  thread_local ThreadCacheRelease release_at_thread_exit;
  static_cast<void>(release_at_thread_exit);
  Number s, e, d, two_s, a_up, b_lo, b_up, x, t1_up, t2_lo;
  mpfr_set_d(s.v, sigma, MPFR_RNDN);  // doubles are exact at this precision
  mpfr_set_d(e.v, eps, MPFR_RNDN);
  mpfr_set_d(d.v, sensitivity, MPFR_RNDN);
  mpfr_mul_2ui(two_s.v, s.v, 1, MPFR_RNDN);  // exact
  // a = D / (2 sigma) rounded up; b = eps sigma / D rounded down and up.
  mpfr_div(a_up.v, d.v, two_s.v, MPFR_RNDU);
  mpfr_mul(b_lo.v, e.v, s.v, MPFR_RNDD);
  mpfr_div(b_lo.v, b_lo.v, d.v, MPFR_RNDD);
  mpfr_mul(b_up.v, e.v, s.v, MPFR_RNDU);
  mpfr_div(b_up.v, b_up.v, d.v, MPFR_RNDU);

  // Term 1, Phi(a - b) = erfc((b - a) / sqrt 2) / 2, is increasing in a and decreasing in b, and
  // erfc is decreasing: an upper bound needs a lower bound of (b - a) / sqrt 2.
  mpfr_sub(x.v, b_lo.v, a_up.v, MPFR_RNDD);
  {
    // Dividing by sqrt 2 rounded up lowers a positive x; rounded down lowers a negative x.
    Number root2;
    mpfr_sqrt_ui(root2.v, 2, mpfr_sgn(x.v) >= 0 ? MPFR_RNDU : MPFR_RNDD);
    mpfr_div(x.v, x.v, root2.v, MPFR_RNDD);
  }
  mpfr_erfc(t1_up.v, x.v, MPFR_RNDU);
  mpfr_div_2ui(t1_up.v, t1_up.v, 1, MPFR_RNDU);

  // Term 2, e^eps Phi(-a - b) = e^eps erfc((a + b) / sqrt 2) / 2, decreasing in a and b: a lower
  // bound needs an upper bound of (a + b) / sqrt 2 (> 0), and every factor rounded down.
  mpfr_add(x.v, a_up.v, b_up.v, MPFR_RNDU);
  {
    Number root2;
    mpfr_sqrt_ui(root2.v, 2, MPFR_RNDD);
    mpfr_div(x.v, x.v, root2.v, MPFR_RNDU);
  }
  mpfr_erfc(t2_lo.v, x.v, MPFR_RNDD);
  mpfr_div_2ui(t2_lo.v, t2_lo.v, 1, MPFR_RNDD);
  Number growth;
  mpfr_exp(growth.v, e.v, MPFR_RNDD);
  mpfr_mul(t2_lo.v, t2_lo.v, growth.v, MPFR_RNDD);

  mpfr_sub(bound.v, t1_up.v, t2_lo.v, MPFR_RNDU);
}

}  // namespace

bool gaussian_delta_certified_at_most(double sigma, double eps, double sensitivity, double delta) {
  Number bound;
  delta_upper_bound(sigma, eps, sensitivity, bound);
  // Flags: an overflow or NaN anywhere (impossible for finite positive inputs) refuses.
  if (mpfr_nan_p(bound.v) || mpfr_inf_p(bound.v)) return false;
  return mpfr_cmp_d(bound.v, delta) <= 0;
}

double gaussian_delta_upper(double sigma, double eps, double sensitivity) {
  Number bound;
  delta_upper_bound(sigma, eps, sensitivity, bound);
  if (mpfr_nan_p(bound.v) || mpfr_inf_p(bound.v) || mpfr_cmp_ui(bound.v, 1) >= 0) return 1.0;
  // Rounded up: a delta below the smallest double reads as the smallest positive one, never 0.
  const double up = mpfr_get_d(bound.v, MPFR_RNDU);
  return up > 0.0 ? up : std::numeric_limits<double>::denorm_min();
}

}  // namespace dpcov::privacy
