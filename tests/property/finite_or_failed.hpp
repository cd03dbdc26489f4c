// The generators and checks of the finite-or-failed property tests: values anywhere in the
// doubles (often at an end or a boundary of the normal range), canary-filled outputs, and the
// contract of one call (DPCOV_OK with every output finite, or a documented status with a message
// and every output untouched).
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "dpcov.h"

namespace finite_or_failed {

constexpr double kCanary = -12345.0;
constexpr double kBelowOne = 0.99999999999999989;  // the largest double below 1

// Log-uniform in [lo, hi] (clamped: exp(log(DBL_MAX)) can round to infinity).
inline rc::Gen<double> log_uniform(double lo, double hi) {
  return rc::gen::map(rc::gen::inRange(0, 1 << 30), [lo, hi](int u) {
    const double t = u / double(1 << 30);
    return std::clamp(std::exp(std::log(lo) + t * (std::log(hi) - std::log(lo))), lo, hi);
  });
}

// A positive value anywhere in the doubles, often at an end or at a boundary of the normal range.
inline rc::Gen<double> extreme_positive() {
  return rc::gen::oneOf(rc::gen::element(DBL_TRUE_MIN, 1e-310, DBL_MIN, 1e-300, 1e-160, 1e-16, 1.0,
                                         1e154, 1.3e154, 1e300, DBL_MAX),
                        log_uniform(DBL_TRUE_MIN, DBL_MAX), log_uniform(1e-3, 1e3));
}

// A probability in (0, 1), often at an end.
inline rc::Gen<double> probability() {
  return rc::gen::oneOf(rc::gen::element(DBL_TRUE_MIN, 1e-300, 1e-16, 0.5, kBelowOne),
                        log_uniform(1e-300, kBelowOne));
}

template <class T>
bool bytes_equal(const T &a, const T &b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// A struct whose every byte is a canary, with its struct_size set.
template <class T>
T canary_struct() {
  T t;
  std::memset(&t, 0x5a, sizeof t);
  t.struct_size = sizeof t;
  return t;
}

inline bool all_finite(std::initializer_list<double> values) {
  return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
}

inline bool all_finite(const double *values, int64_t count) {
  return std::all_of(values, values + count, [](double v) { return std::isfinite(v); });
}

// The contract of one failed call: a documented status with a message.
inline void check_failure(dpcov_status status, const std::string &what) {
  RC_ASSERT(status < 0);
  if (status == DPCOV_E_INTERNAL || std::strlen(dpcov_last_error_message()) == 0)
    RC_FAIL(what + ": " + dpcov_status_string(status) + " (" + dpcov_last_error_message() + ")");
}

// The contract for canary-filled double outputs: every value finite on DPCOV_OK, every value the
// canary on failure.
inline void check_outputs(dpcov_status status, const std::string &what,
                          const std::vector<double> &out) {
  if (status == DPCOV_OK) {
    if (!all_finite(out.data(), static_cast<int64_t>(out.size())))
      RC_FAIL(what + ": OK with a non-finite value");
    return;
  }
  check_failure(status, what);
  if (!std::all_of(out.begin(), out.end(), [](double v) { return v == kCanary; }))
    RC_FAIL(what + ": output written on failure");
}

// The same for a log-density, which may be -infinity (outside the support) with DPCOV_OK.
inline void check_log_density(dpcov_status status, const std::string &what, double value) {
  if (status == DPCOV_OK) {
    if (std::isnan(value) || value == HUGE_VAL) RC_FAIL(what + ": OK with NaN or +infinity");
    return;
  }
  check_failure(status, what);
  if (value != kCanary) RC_FAIL(what + ": log-density written on failure");
}

// Every double of a receipt finite; clip_upper may be +infinity (documented: IEV and KT under
// add/remove neighbours, where n is private).
inline bool finite_receipt(const dpcov_receipt &r) {
  return all_finite({r.bound,
                     r.epsilon,
                     r.delta,
                     r.sensitivity,
                     r.sigma,
                     r.scale,
                     r.dof,
                     r.lambda_min_bound,
                     r.epsilon_eigenvalues,
                     r.epsilon_step,
                     r.beta,
                     r.tau,
                     r.exponent_factor,
                     r.threshold_w2,
                     r.appended_w,
                     r.test_epsilon,
                     r.test_delta,
                     r.test_scale,
                     r.test_shift,
                     r.test_value,
                     r.glasso_rho}) &&
         !std::isnan(r.clip_upper) && r.clip_upper != -HUGE_VAL;
}

// The contract for a receipt: finite on DPCOV_OK, byte for byte the canary on failure.
template <class Receipt>
void check_receipt(dpcov_status status, const std::string &what, const Receipt &receipt,
                   bool (*finite)(const Receipt &)) {
  if (status == DPCOV_OK) {
    if (!finite(receipt)) RC_FAIL(what + ": OK with a non-finite receipt field");
  } else if (!bytes_equal(receipt, canary_struct<Receipt>())) {
    RC_FAIL(what + ": receipt written on failure");
  }
}

inline std::vector<unsigned char> rng_state(const dpcov_rng *rng) {
  std::vector<unsigned char> state(dpcov_rng_state_size());
  RC_ASSERT(dpcov_rng_state_save(rng, state.data(), state.size()) == DPCOV_OK);
  return state;
}

// The statuses that only come after a release's first draw (the ledgers' second guard, beside the
// generator-state comparison that charges any failure after a draw: the CLI's failed_after_draw,
// Python's charged_if_drawn).
inline bool failed_after_draw(dpcov_status status) {
  return status == DPCOV_E_REFUSED || status == DPCOV_E_NUMERICAL ||
         status == DPCOV_E_NO_CONVERGENCE || status == DPCOV_E_NOT_POSITIVE_DEFINITE;
}

// Runs a release drawing from `rng` and fails the property where it fails after a draw (the
// generator advanced) with a status ledgers do not charge.
template <class Call>
dpcov_status release_status(const std::string &what, const dpcov_rng *rng, Call call) {
  const std::vector<unsigned char> before = rng_state(rng);
  const dpcov_status status = call();
  if (status != DPCOV_OK && rng_state(rng) != before && !failed_after_draw(status))
    RC_FAIL(what + ": failed after drawing noise with " + dpcov_status_string(status) +
            ", which a ledger does not charge (" + dpcov_last_error_message() + ")");
  return status;
}

}  // namespace finite_or_failed
