// Plan and release agree (issue: "plan returns OK with a zero, NaN or infinite constant where
// release then fails with a different status"): over random (mechanism, epsilon, delta, bound, d,
// n), including the extremes of every range, dpcov_mechanism_plan and dpcov_mechanism_release on a
// valid Gram matrix return the same status, except where the release depends on the data or the
// draw (a propose-test-release refusal, a data-dependent precondition, a rejection sampler's cap);
// every successful receipt has finite constants and every successful release is finite and
// exactly symmetric (finite or failed: a failed release leaves its output untouched); a release
// that fails after drawing noise (its generator advanced) fails with a status that ledgers charge.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "dpcov.h"

namespace {

// Log-uniform in [lo, hi], or one of the ends (extremes are where the failures were).
rc::Gen<double> log_uniform(double lo, double hi) {
  return rc::gen::oneOf(
      rc::gen::element(lo, hi),
      rc::gen::map(rc::gen::inRange(0, 1 << 30), [lo, hi](int u) {
        const double t = u / double(1 << 30);
        // Clamped: exp(log(DBL_MAX)) can round to infinity.
        return std::clamp(std::exp(std::log(lo) + t * (std::log(hi) - std::log(lo))), lo, hi);
      }));
}

bool finite_receipt(const dpcov_receipt &r) {
  for (double v : {r.bound, r.epsilon, r.delta, r.sensitivity, r.sigma, r.scale, r.dof,
                   r.lambda_min_bound, r.epsilon_eigenvalues, r.epsilon_step, r.beta, r.tau,
                   r.exponent_factor, r.threshold_w2, r.appended_w, r.test_epsilon, r.test_delta,
                   r.test_scale, r.test_shift, r.test_value, r.glasso_rho})
    if (!std::isfinite(v)) return false;
  return !std::isnan(r.clip_upper);
}

// Statuses a release may return after an OK plan: they depend on the data or on the draw.
bool data_dependent(dpcov_status s) {
  return s == DPCOV_E_REFUSED || s == DPCOV_E_PRECONDITION || s == DPCOV_E_NO_CONVERGENCE ||
         s == DPCOV_E_NOT_POSITIVE_DEFINITE;
}

// The statuses that only come after a release's first draw (the CLI's failed_after_draw, Python's
// charged_if_drawn): the ledgers charge a failed release whose generator advanced whatever its
// status, and these even without an advance (a second guard, proofs/ledger.md); a failure after a
// draw with another status would mean the guard is incomplete.
bool failed_after_draw(dpcov_status s) {
  return s == DPCOV_E_REFUSED || s == DPCOV_E_NUMERICAL || s == DPCOV_E_NO_CONVERGENCE ||
         s == DPCOV_E_NOT_POSITIVE_DEFINITE;
}

// Plan and release of one mechanism at one point agree; the Gram matrix is B^2 e1 e1' (one row of
// norm B) where B^2 is finite, else zero (rows of norm 0 <= B).
void check_plan_release(double bound) {
  const int32_t mechanism = *rc::gen::inRange(1, 14);
  const double epsilon = *log_uniform(1e-6, 100.0);
  const double delta = *rc::gen::oneOf(log_uniform(1e-300, 0.5),
                                       rc::gen::element(0.0, 0.9999999999999999));
  const int64_t d = *rc::gen::inRange<int64_t>(1, 5);
  const int64_t n = *rc::gen::element<int64_t>(1, 2, 10, 1000, 1000000, int64_t{1} << 40);
  dpcov_mechanism_params params;
  RC_ASSERT(dpcov_mechanism_params_default(&params) == DPCOV_OK);
  params.neighbour = *rc::gen::element(DPCOV_NEIGHBOUR_REPLACE_ONE, DPCOV_NEIGHBOUR_ADD_REMOVE);
  params.projection_rows = *rc::gen::element<int64_t>(0, 1, 50);
  params.lambda_min_bound = *rc::gen::element(0.0, bound * bound);

  dpcov_receipt planned{};
  planned.struct_size = sizeof planned;
  const dpcov_status plan_status =
      dpcov_mechanism_plan(mechanism, d, n, bound, epsilon, delta, &params, &planned);
  if (plan_status == DPCOV_OK) RC_ASSERT(finite_receipt(planned));

  // A valid statistic: one row of norm B along the first axis (trace B^2 <= n B^2).
  std::vector<double> gram(static_cast<size_t>(d * d), 0.0);
  if (std::isfinite(bound * bound)) gram[0] = bound * bound;
  dpcov_rng *rng = nullptr;
  RC_ASSERT(dpcov_rng_create_seeded(&rng, 7, 0) == DPCOV_OK);
  std::vector<unsigned char> before(dpcov_rng_state_size()), after(before.size());
  RC_ASSERT(dpcov_rng_state_save(rng, before.data(), before.size()) == DPCOV_OK);
  std::vector<double> out(static_cast<size_t>(d * d), -1.0);
  dpcov_receipt released{};
  released.struct_size = sizeof released;
  const dpcov_status release_status =
      dpcov_mechanism_release(mechanism, DPCOV_ROW_MAJOR, d, gram.data(), d, n, bound, epsilon,
                              delta, &params, rng, out.data(), d, &released);
  RC_ASSERT(dpcov_rng_state_save(rng, after.data(), after.size()) == DPCOV_OK);
  dpcov_rng_destroy(&rng);
  // Ledgers (the CLI's, Python's accountant) charge a failed release by its status: a failure
  // after a draw must have a status that only comes after one.
  if (release_status != DPCOV_OK && after != before && !failed_after_draw(release_status)) {
    RC_LOG() << dpcov_last_error_message();
    RC_FAIL("mechanism " + std::to_string(mechanism) + " failed after drawing noise with status " +
            std::to_string(release_status) + ", which a ledger does not charge");
  }

  if (plan_status != DPCOV_OK) {
    RC_ASSERT(release_status == plan_status);
  } else if (release_status != DPCOV_OK) {
    RC_LOG() << dpcov_last_error_message();
    RC_ASSERT(data_dependent(release_status));
  }
  if (release_status == DPCOV_OK) {
    RC_ASSERT(finite_receipt(released));
    for (int64_t i = 0; i < d; ++i)
      for (int64_t j = 0; j < d; ++j) {
        RC_ASSERT(std::isfinite(out[static_cast<size_t>(i * d + j)]));
        RC_ASSERT(out[static_cast<size_t>(i * d + j)] == out[static_cast<size_t>(j * d + i)]);
      }
  } else {
    for (double v : out) RC_ASSERT(v == -1.0);  // untouched on failure
  }
}

RC_GTEST_PROP(PlanRelease, SameStatusAndFiniteResults, ()) {
  check_plan_release(*log_uniform(1e-150, 1e150));
}

// Bounds whose square is subnormal, zero or infinite in double (|B| below about 1.5e-154 or above
// about 1.3e154): both refuse with the same status or both succeed with finite constants.
RC_GTEST_PROP(PlanRelease, SameStatusWhereTheSquareOfTheBoundLeavesTheRange, ()) {
  check_plan_release(*rc::gen::oneOf(log_uniform(std::numeric_limits<double>::denorm_min(), 1.5e-154),
                                     log_uniform(1.3e154, std::numeric_limits<double>::max())));
}

}  // namespace
