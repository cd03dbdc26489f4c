// Finite or failed at extreme budgets and bounds, for the epsilon-delta releases of the C ABI:
// every mechanism from a Gram matrix and from an accumulator, the sketch releases, the exact
// releases (from rows and from an exact accumulator) and the grid value of a coordinate, the OLS releases and their intervals, the private graphical lasso, AdaSSP's plan and
// intervals and robust (sandwich) intervals, the private bound's grid and choices, a ledger's totals, and the audits of a claim
// on a pair and on generated data (few draws), with epsilon and the bound anywhere in
// [denorm_min, DBL_MAX] and delta 0 or at the ends of (0, 1). Each call either returns DPCOV_OK
// with every output and receipt double finite (a log-density finite or -infinity, an audit's
// largest loss possibly +infinity), or fails with a documented status, a message, and its outputs
// untouched.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "dpcov.h"
#include "finite_or_failed.hpp"

namespace {

using namespace finite_or_failed;

// Epsilon anywhere in the doubles, or at most 2 (where the OLS releases' preconditions hold), or
// in [1/4, 2] (where their private test passes on well-spread rows).
rc::Gen<double> epsilon_anywhere() {
  return rc::gen::oneOf(extreme_positive(), log_uniform(DBL_TRUE_MIN, 2.0), log_uniform(0.25, 2.0));
}

rc::Gen<double> delta_or_zero() {
  return rc::gen::oneOf(rc::gen::just(0.0), probability());
}

dpcov_rng *seeded_rng() {
  dpcov_rng *rng = nullptr;
  RC_ASSERT(dpcov_rng_create_seeded(&rng, *rc::gen::arbitrary<uint32_t>(), 0) == DPCOV_OK);
  return rng;
}

// n rows of d columns with norms at most `bound`: zeros, one direction for every row (the largest
// second moment for their norm), or row i along axis i mod d (well spread, as OLS's private test
// needs), at a fraction of the bound (1: on the bound).
std::vector<double> rows_within(int64_t n, int64_t d, double bound) {
  std::vector<double> rows(static_cast<size_t>(n * d), 0.0);
  const int kind = *rc::gen::inRange(0, 3);
  if (kind == 0) return rows;
  const double norm = bound * *rc::gen::element(1.0, 0.5, 1e-8);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < d; ++j)
      rows[static_cast<size_t>(i * d + j)] =
          kind == 1 ? norm / std::sqrt(static_cast<double>(d)) : (i % d == j ? norm : 0.0);
  return rows;
}

// The Gram matrix of `rows` through the library's accumulator (or NULL where it refuses them).
dpcov_gram *accumulate(const std::vector<double> &rows, int64_t n, int64_t d, double bound) {
  dpcov_gram *gram = nullptr;
  RC_ASSERT(dpcov_gram_create(&gram, d) == DPCOV_OK);
  if (dpcov_gram_add_rows(gram, DPCOV_ROW_MAJOR, n, d, rows.data(), d, bound, DPCOV_BOUND_CLIP) !=
      DPCOV_OK)
    dpcov_gram_destroy(&gram);
  return gram;
}

// A release from `rng` into canary outputs: `out` of `size` doubles and a canary receipt; checks
// the contract and returns the status.
template <class Call>
dpcov_status release_checked(const std::string &what, const dpcov_rng *rng, size_t size,
                             std::vector<double> &out, dpcov_receipt &receipt, Call call) {
  out.assign(size, kCanary);
  receipt = canary_struct<dpcov_receipt>();
  const dpcov_status status = release_status(what, rng, [&] { return call(out.data(), &receipt); });
  RC_TAG(what + ": " + dpcov_status_string(status));
  check_outputs(status, what, out);
  check_receipt(status, what, receipt, &finite_receipt);
  return status;
}

// A release fails with its plan's status wherever the plan fails (the plan's checks run first,
// before any draw).
void check_plan_status(const std::string &what, int32_t mechanism, int64_t d, int64_t n,
                       double bound, double epsilon, double delta,
                       const dpcov_mechanism_params &params, dpcov_status release) {
  dpcov_receipt planned{};
  planned.struct_size = sizeof planned;
  const dpcov_status plan =
      dpcov_mechanism_plan(mechanism, d, n, bound, epsilon, delta, &params, &planned);
  if (plan != DPCOV_OK && release != plan)
    RC_FAIL(what + ": plan " + dpcov_status_string(plan) + ", release " +
            dpcov_status_string(release));
}

RC_GTEST_PROP(ExtremeBudget, MechanismsAreFiniteOrFailUntouched, ()) {
  const int32_t mechanism = *rc::gen::inRange(1, 14);
  const double epsilon = *epsilon_anywhere();
  const double delta = *delta_or_zero();
  const double bound = *extreme_positive();
  const int64_t d = *rc::gen::inRange<int64_t>(1, 4);
  const int64_t n = *rc::gen::element<int64_t>(1, 2, 10);
  dpcov_mechanism_params params;
  RC_ASSERT(dpcov_mechanism_params_default(&params) == DPCOV_OK);
  params.neighbour = *rc::gen::element(DPCOV_NEIGHBOUR_REPLACE_ONE, DPCOV_NEIGHBOUR_ADD_REMOVE);
  params.projection_rows = *rc::gen::element<int64_t>(0, 1, 20);
  const std::string name = std::string(dpcov_mechanism_name(mechanism));

  dpcov_receipt planned = canary_struct<dpcov_receipt>();
  const dpcov_status plan_status =
      dpcov_mechanism_plan(mechanism, d, n, bound, epsilon, delta, &params, &planned);
  if (plan_status != DPCOV_OK) check_failure(plan_status, name + " plan");
  check_receipt(plan_status, name + " plan", planned, &finite_receipt);

  const std::vector<double> rows = rows_within(n, d, bound);
  dpcov_gram *gram = accumulate(rows, n, d, bound);
  if (gram == nullptr) return;
  std::vector<double> g(static_cast<size_t>(d * d), kCanary);
  check_outputs(dpcov_gram_get_matrix(gram, DPCOV_ROW_MAJOR, g.data(), d), "gram_get_matrix", g);
  dpcov_rng *rng = seeded_rng();
  std::vector<double> out;
  dpcov_receipt receipt;
  const dpcov_status status = release_checked(
      name + " release", rng, g.size(), out, receipt, [&](double *o, dpcov_receipt *r) {
        return dpcov_mechanism_release(mechanism, DPCOV_ROW_MAJOR, d, g.data(), d, n, bound,
                                       epsilon, delta, &params, rng, o, d, r);
      });
  const std::vector<double> released = out;
  const double test_value = receipt.test_value;
  release_checked(name + " release_gram", rng, g.size(), out, receipt,
                  [&](double *o, dpcov_receipt *r) {
                    return dpcov_mechanism_release_gram(mechanism, gram, epsilon, delta, &params,
                                                        rng, DPCOV_ROW_MAJOR, o, d, r);
                  });
  dpcov_gram_destroy(&gram);
  dpcov_rng_destroy(&rng);
  if (status != DPCOV_OK) return;
  // The log-density of the first release at its own parameters.
  double log_density = kCanary;
  check_log_density(
      dpcov_mechanism_log_density(mechanism, DPCOV_ROW_MAJOR, d, released.data(), d, g.data(), d, n,
                                  bound, epsilon, delta, &params, &log_density),
      name + " log_density", log_density);
  log_density = kCanary;
  check_log_density(dpcov_mechanism_log_density_tested(
                        mechanism, DPCOV_ROW_MAJOR, d, released.data(), d, test_value, g.data(), d,
                        n, bound, epsilon, delta, &params, &log_density),
                    name + " log_density_tested", log_density);
}

RC_GTEST_PROP(ExtremeBudget, SketchAndExactReleasesAreFiniteOrFailUntouched, ()) {
  const double epsilon = *epsilon_anywhere();
  const double delta = *delta_or_zero();
  const double bound = *extreme_positive();
  const int64_t d = *rc::gen::inRange<int64_t>(1, 4);
  const int64_t n = *rc::gen::element<int64_t>(1, 2, 10);
  const int64_t r = *rc::gen::element<int64_t>(1, 5, 20);
  const std::vector<double> rows = rows_within(n, d, bound);
  dpcov_mechanism_params params;
  RC_ASSERT(dpcov_mechanism_params_default(&params) == DPCOV_OK);
  params.projection_rows = r;
  dpcov_rng *rng = seeded_rng();
  std::vector<double> out;
  dpcov_receipt receipt;

  dpcov_sketch *sketch = nullptr;
  RC_ASSERT(dpcov_sketch_create(&sketch, d, r, rng) == DPCOV_OK);
  if (dpcov_sketch_add_rows(sketch, DPCOV_ROW_MAJOR, n, d, rows.data(), d, 0, bound,
                            DPCOV_BOUND_CLIP) == DPCOV_OK) {
    std::vector<double> s(static_cast<size_t>(r * d), kCanary);
    check_outputs(dpcov_sketch_get(sketch, *extreme_positive(), DPCOV_ROW_MAJOR, s.data(), d),
                  "sketch_get", s);
    std::vector<double> g(static_cast<size_t>(d * d), kCanary);
    check_outputs(dpcov_sketch_get_gram(sketch, DPCOV_ROW_MAJOR, g.data(), d), "sketch_get_gram",
                  g);
    const int32_t mechanism = *rc::gen::element(
        DPCOV_MECHANISM_JL_RIDGE, DPCOV_MECHANISM_JL_RIDGE_SIGMA_MIN, DPCOV_MECHANISM_OLS_JL);
    std::vector<double> both(static_cast<size_t>(r * d + d * d), kCanary);
    const dpcov_receipt canary = canary_struct<dpcov_receipt>();
    receipt = canary;
    const dpcov_status status = release_status("sketch_release", rng, [&] {
      return dpcov_sketch_release(mechanism, sketch, epsilon, delta, &params, rng, DPCOV_ROW_MAJOR,
                                  both.data(), d, both.data() + r * d, d, &receipt);
    });
    RC_TAG(std::string("sketch_release: ") + dpcov_status_string(status));
    check_plan_status("sketch_release", mechanism, d, n, bound, epsilon, delta, params, status);
    check_outputs(status, "sketch_release", both);
    check_receipt(status, "sketch_release", receipt, &finite_receipt);
  }
  dpcov_sketch_destroy(&sketch);

  const int32_t exact =
      *rc::gen::element(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_MECHANISM_LAPLACE_SYM);
  const dpcov_exact_grid grid_canary = canary_struct<dpcov_exact_grid>();
  dpcov_exact_grid grid = grid_canary;
  receipt = canary_struct<dpcov_receipt>();
  const dpcov_status plan_status =
      dpcov_exact_plan(exact, d, n, bound, epsilon, delta, nullptr, &receipt, &grid);
  if (plan_status != DPCOV_OK) check_failure(plan_status, "exact_plan");
  check_receipt(plan_status, "exact_plan", receipt, &finite_receipt);
  RC_ASSERT((plan_status == DPCOV_OK ? std::isfinite(grid.unit) : bytes_equal(grid, grid_canary)));
  grid = grid_canary;
  const dpcov_status status =
      release_checked("exact_release_rows", rng, static_cast<size_t>(d * d), out, receipt,
                      [&](double *o, dpcov_receipt *rc_) {
                        return dpcov_exact_release_rows(exact, DPCOV_ROW_MAJOR, n, d, rows.data(),
                                                        d, bound, DPCOV_BOUND_CLIP, epsilon, delta,
                                                        nullptr, rng, o, d, rc_, &grid);
                      });
  RC_ASSERT((status == DPCOV_OK ? std::isfinite(grid.unit) : bytes_equal(grid, grid_canary)));

  // The same rows through an exact accumulator: created where the plan succeeds, and its release
  // fails exactly where the release from the rows does.
  dpcov_exact_gram *acc = nullptr;
  const dpcov_status create_status =
      dpcov_exact_gram_create(&acc, exact, d, bound, DPCOV_BOUND_CLIP, epsilon, delta, nullptr);
  RC_ASSERT((create_status == DPCOV_OK) == (plan_status == DPCOV_OK));
  if (create_status == DPCOV_OK) {
    RC_ASSERT(dpcov_exact_gram_add_rows(acc, DPCOV_ROW_MAJOR, n, d, rows.data(), d) == DPCOV_OK);
    dpcov_gram_info info = canary_struct<dpcov_gram_info>();
    RC_ASSERT(dpcov_exact_gram_get_info(acc, &info) == DPCOV_OK);
    RC_ASSERT(info.bound == bound && info.rows == n && info.clipped <= n && info.dropped == 0);
    grid = grid_canary;
    const dpcov_status acc_status =
        release_checked("exact_gram_release", rng, static_cast<size_t>(d * d), out, receipt,
                        [&](double *o, dpcov_receipt *rc_) {
                          return dpcov_exact_gram_release(acc, rng, o, d, rc_, &grid);
                        });
    RC_ASSERT((acc_status == DPCOV_OK ? std::isfinite(grid.unit) : bytes_equal(grid, grid_canary)));
    RC_ASSERT(acc_status == status);
  } else {
    check_failure(create_status, "exact_gram_create");
    if (acc != nullptr) RC_FAIL("exact_gram_create: handle written on failure");
  }
  dpcov_exact_gram_destroy(&acc);
  dpcov_rng_destroy(&rng);
}

// A regression of the last of d columns on the others at an extreme budget and bound (delta often
// moderate, where OLS's private test can pass), on the Gram matrix of rows within the bound (none
// where the accumulator refuses them).
struct Regression {
  double epsilon, delta, bound;
  int64_t d, n;
  std::vector<int64_t> features;
  std::vector<double> g;
};

std::optional<Regression> regression_case() {
  Regression r{*epsilon_anywhere(),
               *rc::gen::oneOf(probability(), log_uniform(1e-9, 0.1)),
               *extreme_positive(),
               *rc::gen::inRange<int64_t>(2, 4),
               *rc::gen::element<int64_t>(3, 1000, 100000),
               {},
               {}};
  for (int64_t j = 0; j + 1 < r.d; ++j) r.features.push_back(j);
  dpcov_gram *gram = accumulate(rows_within(r.n, r.d, r.bound), r.n, r.d, r.bound);
  if (gram == nullptr) return std::nullopt;
  r.g.assign(static_cast<size_t>(r.d * r.d), kCanary);
  RC_ASSERT(dpcov_gram_get_matrix(gram, DPCOV_ROW_MAJOR, r.g.data(), r.d) == DPCOV_OK);
  dpcov_gram_destroy(&gram);
  return r;
}

// The regression outputs of an OLS release: coefficients, standard errors, t-values, p-values
// and the interval ends, p each. A t-value is +-infinity exactly where its standard error is 0
// (documented for dpcov_regression_fit(); the releases' outputs are its outputs on the release).
void check_regression_outputs(dpcov_status status, const std::string &what,
                              const std::vector<double> &out, size_t p) {
  if (status != DPCOV_OK) {
    check_outputs(status, what, out);
    return;
  }
  for (size_t i = 0; i < out.size(); ++i) {
    const bool t_of_exact_fit = i / p == 2 && std::isinf(out[i]) && out[i % p + p] == 0.0;
    if (!std::isfinite(out[i]) && !t_of_exact_fit) RC_FAIL(what + ": OK with a non-finite value");
  }
}

RC_GTEST_PROP(ExtremeBudget, OlsReleasesAndIntervalsAreFiniteOrFailUntouched, ()) {
  const std::optional<Regression> regression = regression_case();
  if (!regression) return;
  const auto &[epsilon, delta, bound, d, n, features, g] = *regression;
  const int64_t p = d - 1, label = d - 1;
  const auto ps = static_cast<size_t>(p);
  dpcov_mechanism_params params;
  RC_ASSERT(dpcov_mechanism_params_default(&params) == DPCOV_OK);
  params.projection_rows = *rc::gen::element<int64_t>(int64_t{d}, 20);
  dpcov_mechanism_params no_projection;
  RC_ASSERT(dpcov_mechanism_params_default(&no_projection) == DPCOV_OK);
  dpcov_rng *rng = seeded_rng();
  for (int jl = 0; jl < 2; ++jl) {
    std::vector<double> out(6 * ps, kCanary);
    dpcov_receipt receipt = canary_struct<dpcov_receipt>();
    dpcov_regression_summary summary = canary_struct<dpcov_regression_summary>();
    auto *o = out.data();
    const dpcov_status status = release_status(jl ? "ols_jl" : "ols_analyze_gauss", rng, [&] {
      return jl ? dpcov_ols_jl(DPCOV_ROW_MAJOR, d, g.data(), d, n, bound, epsilon, delta, &params,
                               label, features.data(), p, nullptr, rng, o, o + ps, o + 2 * ps,
                               o + 3 * ps, o + 4 * ps, o + 5 * ps, nullptr, &summary, &receipt)
                : dpcov_ols_analyze_gauss(DPCOV_ROW_MAJOR, d, g.data(), d, n, bound, epsilon, delta,
                                          &no_projection, label, features.data(), p, nullptr, rng,
                                          o, o + ps, o + 2 * ps, o + 3 * ps, o + 4 * ps, o + 5 * ps,
                                          nullptr, &summary, &receipt);
    });
    const std::string what = jl ? "ols_jl" : "ols_analyze_gauss";
    RC_TAG(what + ": " + dpcov_status_string(status));
    check_plan_status(what, jl ? DPCOV_MECHANISM_OLS_JL : DPCOV_MECHANISM_ANALYZE_GAUSS, d, n,
                      bound, epsilon, delta, jl ? params : no_projection, status);
    check_regression_outputs(status, what, out, ps);
    check_receipt(status, what, receipt, &finite_receipt);
    if (status == DPCOV_OK)
      RC_ASSERT(all_finite({summary.rss, summary.residual_variance, summary.t_critical}));
    else
      RC_ASSERT(bytes_equal(summary, canary_struct<dpcov_regression_summary>()));
  }
  // The intervals of an Analyze Gauss release of the Gram matrix.
  std::vector<double> released;
  dpcov_receipt receipt;
  if (release_checked(
          "analyze_gauss", rng, g.size(), released, receipt, [&](double *o, dpcov_receipt *r) {
            return dpcov_mechanism_release(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_ROW_MAJOR, d,
                                           g.data(), d, n, bound, epsilon, delta, &no_projection,
                                           rng, o, d, r);
          }) == DPCOV_OK) {
    std::vector<double> out(5 * ps + 2, kCanary);
    auto *o = out.data();
    check_outputs(dpcov_ols_analyze_gauss_intervals(
                      DPCOV_ROW_MAJOR, d, released.data(), d, receipt.sigma, n, label,
                      features.data(), p, nullptr, o, o + ps, o + 2 * ps, o + 3 * ps, o + 4 * ps,
                      nullptr, o + 5 * ps, o + 5 * ps + 1),
                  "ols_analyze_gauss_intervals", out);
    std::fill(out.begin(), out.end(), kCanary);
    check_outputs(
        dpcov_ols_bootstrap_intervals(DPCOV_ROW_MAJOR, d, released.data(), d, &receipt, label,
                                      features.data(), p, nullptr, 40, rng, o, o + ps, o + 2 * ps,
                                      o + 3 * ps, o + 4 * ps, o + 5 * ps, o + 5 * ps + 1),
        "ols_bootstrap_intervals", out);
    // The robust intervals with the release's feature block as the meat (symmetric, finite).
    std::vector<double> meat(ps * ps);
    for (size_t i = 0; i < ps; ++i)
      for (size_t j = 0; j < ps; ++j)
        meat[i * ps + j] = released[static_cast<size_t>(features[i] * d + features[j])];
    std::fill(out.begin(), out.end(), kCanary);
    check_outputs(dpcov_ols_sandwich_intervals(DPCOV_ROW_MAJOR, d, released.data(), d, &receipt,
                                               label, features.data(), p, nullptr, meat.data(), p,
                                               40, rng, o, o + ps, o + 2 * ps, o + 3 * ps,
                                               o + 4 * ps),
                  "ols_sandwich_intervals", out);
    // The same with the meat's noise redrawn: the fit's receipt stands for the meat's (its law
    // at the extremes), restricted to the meat's order.
    dpcov_receipt meat_receipt = receipt;
    meat_receipt.dim = p;
    std::fill(out.begin(), out.end(), kCanary);
    check_outputs(dpcov_ols_robust_intervals(DPCOV_ROW_MAJOR, d, released.data(), d, &receipt,
                                             label, features.data(), p, nullptr, meat.data(), p,
                                             &meat_receipt, 40, rng, o, o + ps, o + 2 * ps,
                                             o + 3 * ps, o + 4 * ps),
                  "ols_robust_intervals", out);
    // With an outcome per coefficient: OK means every output finite but the NaN interval ends,
    // standard errors and p-values of the coefficients flagged DPCOV_COEFFICIENT_UNBOUNDED.
    for (const bool robust : {false, true}) {
      std::fill(out.begin(), out.end(), kCanary);
      std::vector<int32_t> flags(ps, 7);
      const dpcov_status status = dpcov_ols_intervals(
          DPCOV_ROW_MAJOR, d, released.data(), d, &receipt, label, features.data(), p, nullptr,
          robust ? meat.data() : nullptr, p, robust ? &meat_receipt : nullptr, 40, rng, o,
          o + ps, o + 2 * ps, o + 3 * ps, o + 4 * ps, flags.data(), o + 5 * ps, o + 5 * ps + 1);
      if (status == DPCOV_OK) {
        for (size_t j = 0; j < ps; ++j) {
          RC_ASSERT(flags[j] == DPCOV_COEFFICIENT_BOUNDED || flags[j] == DPCOV_COEFFICIENT_UNBOUNDED);
          if (flags[j] != DPCOV_COEFFICIENT_UNBOUNDED) continue;
          for (size_t k = 1; k < 5; ++k) {
            RC_ASSERT(std::isnan(out[k * ps + j]));
            out[k * ps + j] = 0.0;  // its outcome: the rest must be finite
          }
        }
      } else {
        RC_ASSERT(std::all_of(flags.begin(), flags.end(), [](int32_t f) { return f == 7; }));
      }
      check_outputs(status, "ols_intervals", out);
    }
  }
  dpcov_rng_destroy(&rng);
}

bool finite_adassp_receipt(const dpcov_adassp_receipt &r) {
  return all_finite({r.bound,
                     r.bound_y,
                     r.epsilon,
                     r.delta,
                     r.delta_exact,
                     r.failure_probability,
                     r.sensitivity_lambda_min,
                     r.sensitivity_gram,
                     r.sensitivity_cross,
                     r.sigma_lambda_min,
                     r.sigma_gram,
                     r.sigma_gram_off_diagonal,
                     r.sigma_cross,
                     r.lambda_min_shift,
                     r.noise_norm_bound,
                     r.eigenvalue_floor,
                     r.released_lambda_min,
                     r.ridge,
                     r.sensitivity_label_square,
                     r.sigma_label_square,
                     r.released_label_square,
                     r.rho});
}

bool finite_sandwich_budget(const dpcov_sandwich_budget &b) {
  return all_finite({b.fit_epsilon, b.fit_delta, b.meat_epsilon, b.meat_delta, b.meat_share,
                     b.residual_bound, b.meat_row_bound});
}

// The robust intervals after an AdaSSP fit (`fit`: coefficients, X'X~, X'y~): the plan at the
// same extremes, the meat's rows of p rows [bound e_j, bound] at the fit's coefficients, and the
// intervals with X'X~ (symmetric, finite) as the meat.
void check_sandwich(double bound, double epsilon, double delta, int64_t p,
                    const std::vector<double> &fit, const dpcov_adassp_receipt &receipt,
                    dpcov_rng *rng) {
  const auto ps = static_cast<size_t>(p);
  dpcov_sandwich_budget budget = canary_struct<dpcov_sandwich_budget>();
  const dpcov_status plan = dpcov_adassp_sandwich_plan(bound, bound, epsilon, delta, &budget);
  if (plan != DPCOV_OK) check_failure(plan, "adassp_sandwich_plan");
  check_receipt(plan, "adassp_sandwich_plan", budget, &finite_sandwich_budget);
  std::vector<double> xy((ps + 1) * ps, 0.0), u(ps * ps, kCanary);
  for (size_t j = 0; j < ps; ++j) xy[j * (ps + 1) + j] = xy[j * (ps + 1) + ps] = bound;
  check_outputs(dpcov_adassp_sandwich_rows(DPCOV_ROW_MAJOR, p, p, xy.data(), p + 1, fit.data(),
                                           bound, plan == DPCOV_OK ? budget.residual_bound : 2.0,
                                           u.data(), p),
                "adassp_sandwich_rows", u);
  std::vector<double> out(5 * ps, kCanary);
  auto *o = out.data();
  check_outputs(dpcov_adassp_sandwich_intervals(DPCOV_ROW_MAJOR, p, fit.data() + ps, p,
                                                fit.data() + ps + ps * ps, &receipt,
                                                fit.data() + ps, p, 0.95, 40, rng, o, o + ps,
                                                o + 2 * ps, o + 3 * ps, o + 4 * ps),
                "adassp_sandwich_intervals", out);
  // The same with the meat's noise redrawn, by Analyze Gauss planned at the same extremes.
  dpcov_receipt meat_receipt{};
  meat_receipt.struct_size = sizeof meat_receipt;
  if (plan == DPCOV_OK &&
      dpcov_mechanism_plan(DPCOV_MECHANISM_ANALYZE_GAUSS, p, 1, budget.meat_row_bound,
                           budget.meat_epsilon, budget.meat_delta, nullptr,
                           &meat_receipt) == DPCOV_OK) {
    std::fill(out.begin(), out.end(), kCanary);
    check_outputs(dpcov_adassp_robust_intervals(DPCOV_ROW_MAJOR, p, fit.data() + ps, p,
                                                fit.data() + ps + ps * ps, &receipt,
                                                fit.data() + ps, p, &meat_receipt, 0.95, 40, rng,
                                                o, o + ps, o + 2 * ps, o + 3 * ps, o + 4 * ps),
                  "adassp_robust_intervals", out);
  }
}

RC_GTEST_PROP(ExtremeBudget, AdasspAndPrivateGlassoAreFiniteOrFailUntouched, ()) {
  const std::optional<Regression> regression = regression_case();
  if (!regression) return;
  const auto &[epsilon, delta, bound, d, n, features, g] = *regression;
  const int64_t p = d - 1, label = d - 1;
  const auto ps = static_cast<size_t>(p);
  dpcov_rng *rng = seeded_rng();

  dpcov_adassp_receipt planned = canary_struct<dpcov_adassp_receipt>();
  const dpcov_status plan_status =
      dpcov_adassp_plan(p, bound, bound, epsilon, delta, nullptr, &planned);
  if (plan_status != DPCOV_OK) check_failure(plan_status, "adassp_plan");
  check_receipt(plan_status, "adassp_plan", planned, &finite_adassp_receipt);
  std::vector<double> fit(ps + ps * ps + ps, kCanary);
  dpcov_adassp_receipt receipt = canary_struct<dpcov_adassp_receipt>();
  const dpcov_status fit_status = release_status("adassp_fit", rng, [&] {
    return dpcov_adassp_fit(DPCOV_ROW_MAJOR, d, g.data(), d, label, features.data(), p, bound,
                            bound, epsilon, delta, nullptr, rng, fit.data(), fit.data() + ps, p,
                            fit.data() + ps + ps * ps, &receipt);
  });
  check_outputs(fit_status, "adassp_fit", fit);
  if (fit_status == DPCOV_OK) {
    std::vector<double> out(5 * ps, kCanary);
    auto *o = out.data();
    check_outputs(dpcov_adassp_bootstrap_intervals(
                      DPCOV_ROW_MAJOR, p, fit.data() + ps, p, fit.data() + ps + ps * ps, n,
                      &receipt, 0.95, 40, rng, o, o + ps, o + 2 * ps, o + 3 * ps, o + 4 * ps),
                  "adassp_bootstrap_intervals", out);
    std::vector<double> answer(5 * ps, kCanary);
    auto *a = answer.data();
    std::vector<int32_t> conclusive(static_cast<size_t>(ps));
    int32_t method = 0;
    check_outputs(dpcov_adassp_intervals(DPCOV_ROW_MAJOR, p, fit.data() + ps, p,
                                         fit.data() + ps + ps * ps, n, &receipt, 0, 0.95, 100,
                                         rng, a, a + ps, a + 2 * ps, a + 3 * ps, a + 4 * ps,
                                         conclusive.data(), &method),
                  "adassp_intervals", answer);
    // The profile, homoscedastic (y'y where released) and with X'X~ as the meat.
    const double *meats[] = {nullptr, fit.data() + ps};
    for (const double *meat : meats) {
      std::vector<double> profile(4 * ps, kCanary);
      auto *q = profile.data();
      check_outputs(dpcov_adassp_profile_intervals(DPCOV_ROW_MAJOR, p, fit.data() + ps, p,
                                                   fit.data() + ps + ps * ps, n, &receipt, meat,
                                                   p, 0, 0.95, q, q + ps, q + 2 * ps, q + 3 * ps,
                                                   conclusive.data()),
                    "adassp_profile_intervals", profile);
    }
    check_sandwich(bound, epsilon, delta, p, fit, receipt, rng);
  }

  const int32_t mechanism =
      *rc::gen::element(DPCOV_MECHANISM_LAPLACE_SYM, DPCOV_MECHANISM_ANALYZE_GAUSS,
                        DPCOV_MECHANISM_GLASSO_OUTPUT_WISHART);
  const double rho = *extreme_positive();
  dpcov_receipt glasso_plan = canary_struct<dpcov_receipt>();
  const dpcov_status glasso_plan_status =
      dpcov_private_glasso_plan(mechanism, d, n, bound, epsilon, delta, nullptr, rho, &glasso_plan);
  if (glasso_plan_status != DPCOV_OK) check_failure(glasso_plan_status, "private_glasso_plan");
  check_receipt(glasso_plan_status, "private_glasso_plan", glasso_plan, &finite_receipt);
  std::vector<double> precision(static_cast<size_t>(d * d), kCanary);
  dpcov_receipt released = canary_struct<dpcov_receipt>();
  dpcov_glasso_info info = canary_struct<dpcov_glasso_info>();
  const dpcov_status status = release_status("private_glasso_release", rng, [&] {
    return dpcov_private_glasso_release(mechanism, DPCOV_ROW_MAJOR, d, g.data(), d, n, bound,
                                        epsilon, delta, nullptr, rho, nullptr, rng,
                                        precision.data(), d, &released, &info);
  });
  RC_TAG(std::string("private_glasso_release: ") + dpcov_status_string(status));
  check_outputs(status, "private_glasso_release", precision);
  check_receipt(status, "private_glasso_release", released, &finite_receipt);
  if (status == DPCOV_OK) {
    RC_ASSERT(all_finite({info.kkt_residual, info.duality_gap}));
    if (mechanism == DPCOV_MECHANISM_GLASSO_OUTPUT_WISHART) {
      double log_density = kCanary;
      check_log_density(dpcov_private_glasso_log_density(
                            mechanism, DPCOV_ROW_MAJOR, d, precision.data(), d, g.data(), d, n,
                            bound, epsilon, delta, nullptr, rho, &log_density),
                        "private_glasso_log_density", log_density);
    }
  } else {
    RC_ASSERT(bytes_equal(info, canary_struct<dpcov_glasso_info>()));
  }
  std::vector<double> covariance(static_cast<size_t>(d * d), kCanary);
  dpcov_receipt kept = canary_struct<dpcov_receipt>();
  const dpcov_status kept_status = release_status("private_glasso_covariance", rng, [&] {
    return dpcov_private_glasso_covariance(mechanism, DPCOV_ROW_MAJOR, d, g.data(), d, n, bound,
                                           epsilon, delta, nullptr, rng, covariance.data(), d,
                                           &kept);
  });
  check_outputs(kept_status, "private_glasso_covariance", covariance);
  check_receipt(kept_status, "private_glasso_covariance", kept, &finite_receipt);
  dpcov_rng_destroy(&rng);
}

RC_GTEST_PROP(ExtremeBudget, PrivateBoundAndLedgerAreFiniteOrFailUntouched, ()) {
  const double lo = *extreme_positive();
  const double hi = lo * *rc::gen::element(2.0, 1e3, 1e300);
  const double ratio = *rc::gen::element(1.0000000000000002, 1.5, 10.0, 1e300);
  std::vector<double> grid(64, kCanary);
  int64_t candidates = -1;
  const dpcov_status grid_status =
      dpcov_private_bound_grid(lo, hi, ratio, grid.data(), 64, &candidates);
  if (grid_status != DPCOV_OK) {
    check_outputs(grid_status, "private_bound_grid", grid);
  } else {
    RC_ASSERT(candidates >= 1 && candidates <= 64);
    for (int64_t k = 0; k < candidates; ++k)
      RC_ASSERT(std::isfinite(grid[static_cast<size_t>(k)]) && grid[static_cast<size_t>(k)] > 0);
    std::vector<int64_t> histogram(static_cast<size_t>(candidates + 1), 0);
    histogram.back() = *rc::gen::element<int64_t>(0, 1, 1000);
    dpcov_rng *rng = seeded_rng();
    const double epsilon = *extreme_positive();
    for (int scan = 0; scan < 2; ++scan) {
      std::vector<double> bound(1, kCanary);
      const char *what = scan ? "private_bound_scan" : "private_bound_select";
      const dpcov_status s = release_status(what, rng, [&] {
        return scan ? dpcov_private_bound_scan(grid.data(), candidates, histogram.data(), 1,
                                               epsilon, rng, nullptr, bound.data())
                    : dpcov_private_bound_select(grid.data(), candidates, histogram.data(), 1,
                                                 epsilon, rng, nullptr, bound.data());
      });
      check_outputs(s, what, bound);
    }
    dpcov_rng_destroy(&rng);
  }

  // Tightening at extreme public bounds and budgets: the candidates below the bound and one of
  // them chosen, or a status with the output untouched (and nothing drawn).
  const double public_bound = *extreme_positive();
  std::vector<double> below(DPCOV_TIGHTEN_STEPS + 1, kCanary);
  int64_t below_count = -1;
  const dpcov_status below_status = dpcov_private_bound_below_grid(
      public_bound, below.data(), static_cast<int64_t>(below.size()), &below_count);
  check_outputs(below_status, "private_bound_below_grid", below);
  if (below_status == DPCOV_OK) {
    RC_ASSERT(below_count == DPCOV_TIGHTEN_STEPS + 1 && below.back() == public_bound);
    std::vector<int64_t> cells(DPCOV_TIGHTEN_STEPS + 2, 0);
    cells[*rc::gen::inRange<size_t>(0, cells.size())] = 100;
    dpcov_rng *rng = seeded_rng();
    const double tighten_epsilon = *extreme_positive();
    std::vector<double> chosen(1, kCanary);
    const dpcov_status s = release_status("private_bound_tighten", rng, [&] {
      return dpcov_private_bound_tighten(public_bound, cells.data(), 100, 0.95, tighten_epsilon,
                                         rng, chosen.data());
    });
    check_outputs(s, "private_bound_tighten", chosen);
    if (s == DPCOV_OK) RC_ASSERT(std::find(below.begin(), below.end(), chosen[0]) != below.end());
    dpcov_rng_destroy(&rng);
  }

  // The release's rest after a bound step, at extreme budgets and shares: finite, positive and
  // below the budget, or a status with the output untouched.
  const double total = *extreme_positive();
  const double step = total * *rc::gen::element(1e-300, 0.1, 0.5, 1.0 - 0x1p-53, 1.0, 2.0);
  std::vector<double> rest(1, kCanary);
  const dpcov_status rest_status = dpcov_bound_step_rest(total, step, rest.data());
  check_outputs(rest_status, "bound_step_rest", rest);
  if (rest_status == DPCOV_OK) RC_ASSERT(rest[0] > 0.0 && rest[0] < total);
  // The two steps as one release: finite and above each, or a status and the output untouched.
  std::vector<double> both(1, kCanary);
  const dpcov_status both_status = dpcov_bound_step_total(step, total, both.data());
  check_outputs(both_status, "bound_step_total", both);
  if (both_status == DPCOV_OK) RC_ASSERT(both[0] >= total && both[0] >= step);

  // A ledger under every accounting, charged at extreme budgets: its totals stay finite.
  const int32_t accounting = *rc::gen::inRange(0, 3);
  dpcov_ledger *ledger = nullptr;
  if (dpcov_ledger_create(&ledger, accounting, *extreme_positive(), *probability()) != DPCOV_OK)
    return;
  for (int i = 0; i < 3; ++i) {
    if (*rc::gen::arbitrary<bool>()) {
      dpcov_ledger_charge_zcdp(ledger, *extreme_positive(), *extreme_positive(), *probability());
    } else {
      dpcov_receipt receipt{};
      receipt.struct_size = sizeof receipt;
      if (dpcov_mechanism_plan(DPCOV_MECHANISM_ANALYZE_GAUSS, 2, 10, 1.0, *extreme_positive(),
                               *probability(), nullptr, &receipt) == DPCOV_OK)
        dpcov_ledger_charge(ledger, &receipt);
    }
    dpcov_ledger_spent spent = canary_struct<dpcov_ledger_spent>();
    const dpcov_status s = dpcov_ledger_get_spent(ledger, &spent);
    if (s == DPCOV_OK)
      RC_ASSERT(
          all_finite({spent.epsilon, spent.delta, spent.rho, spent.epsilon_cap, spent.delta_cap}));
    else
      check_failure(s, "ledger_get_spent");
  }
  dpcov_ledger_destroy(&ledger);
}

bool finite_audit_result(const dpcov_audit_result &r) {
  // max_loss may be +infinity (documented: a draw whose loss is infinite), never NaN.
  return all_finite({r.epsilon, r.delta, r.exceed_estimate, r.exceed_lower, r.exceed_upper,
                     r.delta_estimate, r.delta_lower, r.delta_upper}) &&
         !std::isnan(r.max_loss) && r.max_loss != -HUGE_VAL;
}

// The audits of a mechanism at an extreme claim, on a pair of neighbouring datasets (two rows
// within the bound, the second replaced by zeros) and on generated data, with few draws.
RC_GTEST_PROP(ExtremeBudget, AuditsAreFiniteOrFailUntouched, ()) {
  const int32_t mechanism = *rc::gen::inRange(1, 14);
  const double epsilon = *epsilon_anywhere();
  const double delta = *delta_or_zero();
  const double bound = *extreme_positive();
  const int64_t d = *rc::gen::inRange<int64_t>(1, 3);
  const std::vector<double> rows = rows_within(2, d, bound);
  std::vector<double> neighbour = rows;
  std::fill(neighbour.begin() + d, neighbour.end(), 0.0);
  dpcov_audit_params params;
  RC_ASSERT(dpcov_audit_params_default(&params) == DPCOV_OK);
  params.trials = 20;
  params.first_checkpoint = 10;
  params.alpha = *probability();
  params.seed = *rc::gen::arbitrary<uint32_t>();
  for (int pair = 0; pair < 2; ++pair) {
    dpcov_audit_result result = canary_struct<dpcov_audit_result>();
    const dpcov_status status =
        pair ? dpcov_audit_run_pair(mechanism, DPCOV_ROW_MAJOR, d, rows.data(), 2, d,
                                    neighbour.data(), 2, d, bound, epsilon, delta, nullptr, &params,
                                    &result)
             : dpcov_audit_run(mechanism, d, 2, bound, epsilon, delta, nullptr, &params, &result);
    const std::string what = pair ? "audit_run_pair" : "audit_run";
    RC_TAG(what + ": " + dpcov_status_string(status));
    if (status != DPCOV_OK) check_failure(status, what);
    check_receipt(status, what, result, &finite_audit_result);
  }
  // The unit-level audit of the same claim, one unit of 1 to 3 rows, d + 1 columns.
  dpcov_audit_result units = canary_struct<dpcov_audit_result>();
  const dpcov_status status =
      dpcov_audit_units(mechanism, d + 1, *rc::gen::inRange<int64_t>(1, 4), bound, epsilon,
                        delta, *rc::gen::inRange(0, 2), nullptr, &params, &units);
  RC_TAG(std::string("audit_units: ") + dpcov_status_string(status));
  if (status != DPCOV_OK) check_failure(status, "audit_units");
  check_receipt(status, "audit_units", units, &finite_audit_result);
  // AdaSSP's unit audit (its own pair, d + 1 regressors) at the same claim.
  dpcov_audit_result adassp = canary_struct<dpcov_audit_result>();
  const dpcov_status adassp_status =
      dpcov_audit_units(DPCOV_MECHANISM_ADASSP, d + 1, *rc::gen::inRange<int64_t>(1, 4), bound,
                        epsilon, delta, *rc::gen::inRange(0, 2), nullptr, &params, &adassp);
  RC_TAG(std::string("audit_units adassp: ") + dpcov_status_string(adassp_status));
  if (adassp_status != DPCOV_OK) check_failure(adassp_status, "audit_units adassp");
  check_receipt(adassp_status, "audit_units adassp", adassp, &finite_audit_result);
}

// The grid value of a coordinate at any bound: the grid's bits in range or not, a value within
// the bound or anywhere. On success it is finite and within the bound (|round(v 2^k / B)| <= 2^k).
RC_GTEST_PROP(ExtremeBudget, ExactGridValueIsFiniteOrFailsUntouched, ()) {
  const double bound = *rc::gen::oneOf(extreme_positive(), rc::gen::element(0.0, -1.0));
  const auto bits = *rc::gen::oneOf(rc::gen::inRange<int32_t>(1, 31), rc::gen::inRange(-2, 40));
  const double value = *rc::gen::oneOf(
      rc::gen::map(probability(), [bound](double p) { return bound * (2.0 * p - 1.0); }),
      rc::gen::just(bound), extreme_positive());
  double out = 0.5;
  const dpcov_status status = dpcov_exact_grid_value(bound, bits, value, &out);
  RC_TAG(std::string("exact_grid_value: ") + dpcov_status_string(status));
  if (status != DPCOV_OK) {
    check_failure(status, "exact_grid_value");
    RC_ASSERT(out == 0.5);
  } else {
    RC_ASSERT(std::isfinite(out) && std::fabs(out) <= bound);
  }
}

}  // namespace
