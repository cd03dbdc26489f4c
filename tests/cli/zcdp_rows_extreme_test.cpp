// The CLI's zCDP releases on the rows (zcdp_release_gram: Dong-Liang-Yi, CoinPress, CoinPress
// centred on its private mean, as `release` and `compare` run them) never fail because of what
// the rows hold: wherever plan_zcdp accepts the settings at the public n, a release on finite
// rows, however far out, either succeeds with a finite matrix or fails after its first draw with
// a status that only a draw leads to (charged by the ledger). A failure before the draw, or
// DPCOV_E_NON_FINITE after it, comes from the rows, and one row can switch it on and off:
// coinpress --center with rows near +-1e308 centred each row on the private mean by a plain
// subtraction, and a row on the far side of the mean became infinite (DPCOV_E_NON_FINITE naming
// the row) where its neighbour on the near side was released.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "cli_error.hpp"
#include "commands/zcdp_release.hpp"
#include "library_status.hpp"

namespace dpcov::cli {
namespace {

// Rows of an extreme dataset: every entry at one of a few magnitudes up to the largest double,
// on either side, so that many rows lie on opposite sides of a mean near +-DBL_MAX.
RowBuffer extreme_rows(int64_t n, int64_t d) {
  RowBuffer rows;
  rows.rows = n;
  rows.values.resize(static_cast<size_t>(n * d));
  for (double &v : rows.values)
    v = *rc::gen::element(-DBL_MAX, -0.9e308, -1e300, -1.0, 0.0, 1e-300, 1.0, 1e154, 0.9e308,
                          DBL_MAX);
  return rows;
}

std::vector<unsigned char> state_of(dpcov_rng *rng) {
  std::vector<unsigned char> state(dpcov_rng_state_size());
  RC_ASSERT(dpcov_rng_state_save(rng, state.data(), state.size()) == DPCOV_OK);
  return state;
}

RC_GTEST_PROP(ZcdpRowsExtreme, NoReleaseFailsBecauseOfTheRows, ()) {
  ZcdpReleaseOptions o;
  o.mechanism.mechanism = *rc::gen::element<std::string>(
      "dly_gauss", "dly_separate", "dly_adaptive", "dly_adaptive_paper", "coinpress");
  o.mechanism.delta = 1e-6;
  o.center = o.mechanism.mechanism == "coinpress" && *rc::gen::arbitrary<bool>();
  o.bound = *rc::gen::element(0x1p-960, 1e-100, 1.0, 1e100, 9e153);
  o.k_bound = *rc::gen::element(1.0, 4.0, 1e100, DBL_MAX);
  o.mean_radius = *rc::gen::element(0.0, 1.0, 1e300, DBL_MAX);
  o.steps = *rc::gen::inRange<int64_t>(1, 5);
  const double rho = *rc::gen::element(1e-3, 0.5, 1e3);
  const int64_t d = *rc::gen::inRange<int64_t>(1, 4);
  const int64_t n = *rc::gen::element<int64_t>(1, 2, 5, 40);
  ZcdpPlan plan;
  try {
    plan = plan_zcdp(o, rho, d, n);
  } catch (const CliError &) {
    RC_DISCARD("the plan refuses the settings, before any row is read");
  }
  const RowBuffer rows = extreme_rows(n, d);
  dpcov_rng *rng = nullptr;
  RC_ASSERT(dpcov_rng_create_seeded(&rng, *rc::gen::arbitrary<uint32_t>(), 0) == DPCOV_OK);
  const std::vector<unsigned char> before = state_of(rng);
  std::vector<double> gram(static_cast<size_t>(d * d), -1.0);
  const dpcov_status status = zcdp_release_gram(plan, rows, d, rng, gram.data());
  const bool drawn = state_of(rng) != before;
  dpcov_rng_destroy(&rng);
  RC_TAG(o.mechanism.mechanism + (o.center ? " --center" : "") + ": " +
         dpcov_status_string(status));
  // On success the library's estimate is finite (tests/property/zcdp_extreme); n times it may
  // overflow, which run_zcdp_release checks after the draw.
  if (status == DPCOV_OK) return;
  if (!drawn || !failed_after_draw(status))
    RC_FAIL(o.mechanism.mechanism + (o.center ? " --center" : "") + " failed " +
            (drawn ? "after" : "before") + " its first draw with " + dpcov_status_string(status) +
            " (" + dpcov_last_error_message() + ")");
  RC_ASSERT(std::all_of(gram.begin(), gram.end(), [](double v) { return v == -1.0; }));
}

}  // namespace
}  // namespace dpcov::cli
