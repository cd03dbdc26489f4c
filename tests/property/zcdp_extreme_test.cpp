// Finite or failed at the extremes of every parameter, for the zCDP mechanisms of the C ABI
// (Dong-Liang-Yi Gauss, Separate, Adaptive and AdaptivePaper; CoinPress covariance and mean; the
// centring split, the zCDP conversions and the privacy units' row budgets; Dong-Liang-Yi and
// CoinPress also as sessions of passes, CoinPress centred on a mean session's release too): rho
// and the radii anywhere in [denorm_min, DBL_MAX],
// K up to DBL_MAX, beta and delta at the ends of (0, 1), d = 1, n = 1, t up to 16, rows from 0 to
// far beyond the radius. Each call either returns DPCOV_OK with every output and receipt field
// finite, or fails with a documented status (never DPCOV_E_INTERNAL), a message, and its outputs
// and receipt untouched; a release fails with its plan's status wherever the plan fails, and one
// that fails after drawing noise (its generator advanced) with a status that ledgers charge. The
// zCDP audits (black-box, exact, exact over pairs, CoinPress mean) are held to the same contract.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "dpcov.h"
#include "finite_or_failed.hpp"

namespace {

using namespace finite_or_failed;

rc::Gen<int64_t> small_n() { return rc::gen::element<int64_t>(1, 2, 3, 10, 40); }

// Rows to release: zeros, Gaussian-like rows at a scale, or every row the same vector (the
// largest second moment and sum for their norm); the scale ranges over all the doubles.
std::vector<double> rows_for(int64_t n, int64_t d) {
  const int kind = *rc::gen::inRange(0, 3);
  const double scale = *extreme_positive();
  std::vector<double> rows(static_cast<size_t>(n * d), 0.0);
  if (kind == 0) return rows;
  uint64_t state = *rc::gen::arbitrary<uint32_t>();
  for (double &v : rows) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const double u = static_cast<double>(state >> 11) / 9007199254740992.0 - 0.5;
    v = kind == 1 ? u * scale : scale / std::sqrt(static_cast<double>(d));
  }
  return rows;
}

bool finite_receipt(const dpcov_dly_receipt &r) {
  return all_finite({r.rho, r.bound, r.beta, r.epsilon, r.delta, r.rho_covariance, r.trace_sigma,
                     r.svt_epsilon, r.clip_radius, r.sigma_matrix, r.sigma_eigenvalues,
                     r.histogram_sigma, r.first_look_sigma}) &&
         r.epsilon >= 0.0;
}

bool finite_receipt(const dpcov_coinpress_receipt &r) {
  return all_finite({r.rho, r.k_bound, r.beta, r.clip_radius, r.eta, r.epsilon, r.delta}) &&
         all_finite(r.step_rho, DPCOV_COINPRESS_MAX_STEPS) &&
         all_finite(r.step_sigma, DPCOV_COINPRESS_MAX_STEPS) && r.epsilon >= 0.0;
}

bool finite_receipt(const dpcov_coinpress_mean_receipt &r) {
  return all_finite({r.rho, r.radius, r.scale, r.beta, r.tail_radius, r.epsilon, r.delta}) &&
         all_finite(r.step_rho, DPCOV_COINPRESS_MAX_STEPS) &&
         all_finite(r.step_clip_radius, DPCOV_COINPRESS_MAX_STEPS) &&
         all_finite(r.step_sigma, DPCOV_COINPRESS_MAX_STEPS) && r.epsilon >= 0.0;
}

// Plan, then release on rows: the finite-or-failed contract for both, and the release failing
// with the plan's status where the plan fails.
template <class Receipt, class Plan, class Release>
void check_plan_and_release(const char *what, int64_t out_size, Plan plan, Release release) {
  const Receipt canary = canary_struct<Receipt>();
  Receipt planned = canary;
  const dpcov_status plan_status = plan(&planned);
  if (plan_status == DPCOV_OK) {
    if (!finite_receipt(planned)) RC_FAIL(std::string(what) + " plan: OK with a non-finite field");
  } else {
    check_failure(plan_status, what);
    RC_ASSERT(bytes_equal(planned, canary));
  }
  dpcov_rng *rng = nullptr;
  RC_ASSERT(dpcov_rng_create_seeded(&rng, *rc::gen::arbitrary<uint32_t>(), 0) == DPCOV_OK);
  const std::vector<unsigned char> before = rng_state(rng);
  std::vector<double> out(static_cast<size_t>(out_size), kCanary);
  Receipt released = canary;
  const dpcov_status status = release(rng, out.data(), &released);
  const bool drawn = rng_state(rng) != before;
  dpcov_rng_destroy(&rng);
  // Ledgers (the CLI's, Python's accountant) charge a failed release by its status: every
  // failure after a draw must have one of the statuses that only come after a draw.
  if (status != DPCOV_OK && drawn && !failed_after_draw(status))
    RC_FAIL(std::string(what) + ": failed after drawing noise with " +
            dpcov_status_string(status) + ", which a ledger does not charge (" +
            dpcov_last_error_message() + ")");
  // The plan has checked every public parameter and the rows are finite: a release that then
  // fails before its first draw fails because of what the rows hold, an answer about the data that
  // no ledger charges (Dong-Liang-Yi at r = 1e-100 refused a row holding 1e300 with
  // DPCOV_E_NON_FINITE, and released its neighbour).
  if (plan_status == DPCOV_OK && status != DPCOV_OK && !drawn)
    RC_FAIL(std::string(what) + ": plan OK, release failed before any draw with " +
            dpcov_status_string(status) + " (" + dpcov_last_error_message() + ")");
  RC_TAG(std::string(dpcov_status_string(plan_status)) + " / " + dpcov_status_string(status));
  if (status == DPCOV_OK) {
    RC_ASSERT(plan_status == DPCOV_OK);
    if (!finite_receipt(released) || !all_finite(out.data(), out_size))
      RC_FAIL(std::string(what) + " release: OK with a non-finite value");
    return;
  }
  check_failure(status, what);
  RC_ASSERT(bytes_equal(released, canary));
  for (double v : out) RC_ASSERT(v == kCanary);
  if (plan_status != DPCOV_OK && status != plan_status)
    RC_FAIL(std::string(what) + ": plan " + dpcov_status_string(plan_status) + ", release " +
            dpcov_status_string(status) + " (" + dpcov_last_error_message() + ")");
}

dpcov_status run_passes(dpcov_row_session *session, int64_t n, int64_t d,
                        const std::vector<double> &rows);

// A release through a session (dpcov/row_passes.h) on the rows in two partials: the session
// takes a copy of `rng`'s state, and `rng` is advanced once it is taken (a session spends its
// generator), so that the contract's "failed after a draw" reads the same as for the in-memory
// release.
template <class Create, class Result>
dpcov_status session_release(dpcov_rng *rng, int64_t n, int64_t d, const std::vector<double> &rows,
                             Create create, Result result) {
  dpcov_rng *own = nullptr;
  if (dpcov_rng_create_seeded(&own, 0, 0) != DPCOV_OK) return DPCOV_E_INTERNAL;
  const std::vector<unsigned char> state = rng_state(rng);
  dpcov_rng_state_restore(own, state.data(), state.size());
  dpcov_row_session *session = nullptr;
  dpcov_status status = create(&session, &own);
  dpcov_rng_destroy(&own);
  if (status != DPCOV_OK) return status;
  uint64_t spent = 0;
  dpcov_rng_next_u64(rng, &spent);
  status = run_passes(session, n, d, rows);
  if (status == DPCOV_OK) status = result(session);
  dpcov_row_session_destroy(&session);
  return status;
}

// coinpress --center as sessions: a CoinPress mean session (ordinary settings) over the rows, then
// the centred covariance session, which takes its generator over. The covariance's settings are
// checked first, as the CLI checks them before the mean draws.
dpcov_status centred_session_release(dpcov_rng *rng, int64_t n, int64_t d,
                                     const std::vector<double> &rows,
                                     const dpcov_coinpress_params &p, double *out,
                                     dpcov_coinpress_receipt *r) {
  dpcov_coinpress_receipt planned{};
  planned.struct_size = sizeof planned;
  dpcov_status status = dpcov_coinpress_plan(n, d, &p, &planned);
  if (status != DPCOV_OK) return status;
  dpcov_coinpress_mean_params m;
  dpcov_coinpress_mean_params_default(&m);
  m.rho = 0.1;
  m.radius = 1.0;
  dpcov_row_session *mean = nullptr;
  status = session_release(
      rng, n, d, rows,
      [&](dpcov_row_session **s, dpcov_rng **g) {
        return dpcov_coinpress_mean_session_create(s, n, d, nullptr, &m, g);
      },
      [&](const dpcov_row_session *s) {
        mean = const_cast<dpcov_row_session *>(s);
        dpcov_row_session *centred = nullptr;
        dpcov_status c = dpcov_coinpress_centred_session_create(&centred, mean, &p);
        if (c == DPCOV_OK) c = run_passes(centred, n, d, rows);
        if (c == DPCOV_OK) c = dpcov_coinpress_session_result(centred, DPCOV_ROW_MAJOR, out, d, r);
        dpcov_row_session_destroy(&centred);
        return c;
      });
  return status;
}

// Every pass of `session` over the rows in two partials, merged.
dpcov_status run_passes(dpcov_row_session *session, int64_t n, int64_t d,
                        const std::vector<double> &rows) {
  dpcov_status status = DPCOV_OK;
  int32_t done = 0;
  while (status == DPCOV_OK && (status = dpcov_row_session_done(session, &done)) == DPCOV_OK &&
         done == 0) {
    dpcov_row_partial *a = nullptr, *b = nullptr;
    dpcov_row_partial_create(&a, session);
    dpcov_row_partial_create(&b, session);
    const int64_t half = n / 2;
    dpcov_row_partial_add_rows(a, DPCOV_ROW_MAJOR, half, d, rows.data(), d);
    dpcov_row_partial_add_rows(b, DPCOV_ROW_MAJOR, n - half, d, rows.data() + half * d, d);
    dpcov_row_partial_merge(a, b);
    dpcov_row_partial_destroy(&b);
    status = dpcov_row_session_finish_pass(session, &a);
    dpcov_row_partial_destroy(&a);
  }
  return status;
}

RC_GTEST_PROP(ZcdpExtreme, DongLiangYiIsFiniteOrFailsUntouched, ()) {
  dpcov_dly_params p;
  RC_ASSERT(dpcov_dly_params_default(&p) == DPCOV_OK);
  p.variant = *rc::gen::inRange(0, 4);
  p.rho = *extreme_positive();
  p.radius = *extreme_positive();
  p.beta = *probability();
  p.delta = *probability();
  const int64_t d = *rc::gen::inRange<int64_t>(1, 5);
  const int64_t n = *small_n();
  const std::vector<double> rows = rows_for(n, d);
  check_plan_and_release<dpcov_dly_receipt>(
      "dly", d * d, [&](dpcov_dly_receipt *r) { return dpcov_dly_plan(n, d, &p, r); },
      [&](dpcov_rng *rng, double *out, dpcov_dly_receipt *r) {
        return dpcov_dly_release(DPCOV_ROW_MAJOR, n, d, rows.data(), d, &p, rng, out, d, r);
      });
  check_plan_and_release<dpcov_dly_receipt>(
      "dly session", d * d, [&](dpcov_dly_receipt *r) { return dpcov_dly_plan(n, d, &p, r); },
      [&](dpcov_rng *rng, double *out, dpcov_dly_receipt *r) {
        return session_release(
            rng, n, d, rows,
            [&](dpcov_row_session **s, dpcov_rng **g) {
              return dpcov_dly_session_create(s, n, d, &p, g);
            },
            [&](const dpcov_row_session *s) {
              return dpcov_dly_session_result(s, DPCOV_ROW_MAJOR, out, d, r);
            });
      });
}

// No receipt states an epsilon above DPCOV_MAX_EPSILON (docs/epsilon-cap.md): far above it the
// noise falls below the statistic's rounding, so a larger rho is refused as a larger epsilon is.
RC_GTEST_PROP(ZcdpExtreme, NoReceiptStatesAnEpsilonAboveTheCap, ()) {
  const double rho = *log_uniform(1e6, DBL_MAX);
  const double delta = *rc::gen::element(1e-12, 1e-6, 0.5);
  const int64_t d = 2, n = 10;
  const auto capped = [](dpcov_status s, double epsilon, const char *what) {
    RC_ASSERT(s == DPCOV_OK || s == DPCOV_E_INVALID_ARGUMENT || s == DPCOV_E_NUMERICAL);
    if (s == DPCOV_OK) RC_ASSERT(epsilon <= DPCOV_MAX_EPSILON);
    RC_TAG(what, s == DPCOV_OK ? "planned" : "refused");
  };
  dpcov_dly_params dly;
  RC_ASSERT(dpcov_dly_params_default(&dly) == DPCOV_OK);
  dly.rho = rho;
  dly.delta = delta;
  dpcov_dly_receipt dr{};
  dr.struct_size = sizeof dr;
  capped(dpcov_dly_plan(n, d, &dly, &dr), dr.epsilon, "dly");
  dpcov_coinpress_params cp;
  RC_ASSERT(dpcov_coinpress_params_default(&cp) == DPCOV_OK);
  cp.rho = rho;
  cp.delta = delta;
  cp.k_bound = 4.0;
  dpcov_coinpress_receipt cr{};
  cr.struct_size = sizeof cr;
  capped(dpcov_coinpress_plan(n, d, &cp, &cr), cr.epsilon, "coinpress");
  dpcov_coinpress_mean_params mp;
  RC_ASSERT(dpcov_coinpress_mean_params_default(&mp) == DPCOV_OK);
  mp.rho = rho;
  mp.delta = delta;
  mp.radius = 4.0;
  dpcov_coinpress_mean_receipt mr{};
  mr.struct_size = sizeof mr;
  capped(dpcov_coinpress_mean_plan(n, d, &mp, &mr), mr.epsilon, "coinpress mean");
}

RC_GTEST_PROP(ZcdpExtreme, CoinpressIsFiniteOrFailsUntouched, ()) {
  dpcov_coinpress_params p;
  RC_ASSERT(dpcov_coinpress_params_default(&p) == DPCOV_OK);
  p.rho = *extreme_positive();
  p.k_bound = *rc::gen::oneOf(rc::gen::element(1.0, 1.0000000000000002, 1e300, DBL_MAX),
                              log_uniform(1.0, DBL_MAX), log_uniform(1.0, 1e4));
  p.steps = *rc::gen::inRange<int64_t>(1, DPCOV_COINPRESS_MAX_STEPS + 1);
  p.beta = *probability();
  p.delta = *probability();
  const int64_t d = *rc::gen::inRange<int64_t>(1, 5);
  const int64_t n = *small_n();
  const std::vector<double> rows = rows_for(n, d);
  check_plan_and_release<dpcov_coinpress_receipt>(
      "coinpress", d * d,
      [&](dpcov_coinpress_receipt *r) { return dpcov_coinpress_plan(n, d, &p, r); },
      [&](dpcov_rng *rng, double *out, dpcov_coinpress_receipt *r) {
        return dpcov_coinpress_release(DPCOV_ROW_MAJOR, n, d, rows.data(), d, &p, rng, out, d, r);
      });
  check_plan_and_release<dpcov_coinpress_receipt>(
      "coinpress session", d * d,
      [&](dpcov_coinpress_receipt *r) { return dpcov_coinpress_plan(n, d, &p, r); },
      [&](dpcov_rng *rng, double *out, dpcov_coinpress_receipt *r) {
        return session_release(
            rng, n, d, rows,
            [&](dpcov_row_session **s, dpcov_rng **g) {
              return dpcov_coinpress_session_create(s, n, d, &p, g);
            },
            [&](const dpcov_row_session *s) {
              return dpcov_coinpress_session_result(s, DPCOV_ROW_MAJOR, out, d, r);
            });
      });
  check_plan_and_release<dpcov_coinpress_receipt>(
      "coinpress centred session", d * d,
      [&](dpcov_coinpress_receipt *r) { return dpcov_coinpress_plan(n, d, &p, r); },
      [&](dpcov_rng *rng, double *out, dpcov_coinpress_receipt *r) {
        return centred_session_release(rng, n, d, rows, p, out, r);
      });
}

RC_GTEST_PROP(ZcdpExtreme, CoinpressMeanIsFiniteOrFailsUntouched, ()) {
  dpcov_coinpress_mean_params p;
  RC_ASSERT(dpcov_coinpress_mean_params_default(&p) == DPCOV_OK);
  p.rho = *extreme_positive();
  p.radius = *rc::gen::oneOf(rc::gen::just(0.0), extreme_positive());
  p.scale = *extreme_positive();
  p.steps = *rc::gen::inRange<int64_t>(1, DPCOV_COINPRESS_MAX_STEPS + 1);
  p.beta = *probability();
  p.delta = *probability();
  const int64_t d = *rc::gen::inRange<int64_t>(1, 5);
  const int64_t n = *small_n();
  const std::vector<double> rows = rows_for(n, d);
  std::vector<double> centre(static_cast<size_t>(d), 0.0);
  const bool with_centre = *rc::gen::arbitrary<bool>();
  if (with_centre) std::fill(centre.begin(), centre.end(), -*extreme_positive());
  check_plan_and_release<dpcov_coinpress_mean_receipt>(
      "coinpress_mean", d,
      [&](dpcov_coinpress_mean_receipt *r) { return dpcov_coinpress_mean_plan(n, d, &p, r); },
      [&](dpcov_rng *rng, double *out, dpcov_coinpress_mean_receipt *r) {
        return dpcov_coinpress_mean_release(DPCOV_ROW_MAJOR, n, d, rows.data(), d,
                                            with_centre ? centre.data() : nullptr, &p, rng, out,
                                            r);
      });
  check_plan_and_release<dpcov_coinpress_mean_receipt>(
      "coinpress_mean session", d,
      [&](dpcov_coinpress_mean_receipt *r) { return dpcov_coinpress_mean_plan(n, d, &p, r); },
      [&](dpcov_rng *rng, double *out, dpcov_coinpress_mean_receipt *r) {
        return session_release(
            rng, n, d, rows,
            [&](dpcov_row_session **s, dpcov_rng **g) {
              return dpcov_coinpress_mean_session_create(
                  s, n, d, with_centre ? centre.data() : nullptr, &p, g);
            },
            [&](const dpcov_row_session *s) {
              return dpcov_coinpress_mean_session_result(s, out, r);
            });
      });
}

RC_GTEST_PROP(ZcdpExtreme, ConversionsAndSplitAreFiniteOrFailUntouched, ()) {
  const double a = *extreme_positive();
  const double delta = *probability();
  double value = kCanary;
  dpcov_status s = dpcov_zcdp_epsilon(a, delta, &value);
  if (s == DPCOV_OK) {
    RC_ASSERT(std::isfinite(value) && value >= 0.0);
  } else {
    check_failure(s, "zcdp_epsilon");
    RC_ASSERT(value == kCanary);
  }
  value = kCanary;
  s = dpcov_zcdp_rho(a, delta, &value);
  if (s == DPCOV_OK) {
    RC_ASSERT(std::isfinite(value) && value > 0.0);
  } else {
    check_failure(s, "zcdp_rho");
    RC_ASSERT(value == kCanary);
  }
  double mean_share = kCanary, covariance_share = kCanary;
  s = dpcov_coinpress_centring_split(a, &mean_share, &covariance_share);
  if (s == DPCOV_OK) {
    RC_ASSERT(mean_share > 0.0 && covariance_share > 0.0 && std::isfinite(covariance_share));
  } else {
    check_failure(s, "coinpress_centring_split");
    RC_ASSERT(mean_share == kCanary && covariance_share == kCanary);
  }
}

// The row budgets of privacy units by group privacy at extreme budgets and k (dpcov_unit_row_budget,
// dpcov_unit_row_rho): finite and within the unit's budget on success, untouched on failure.
RC_GTEST_PROP(ZcdpExtreme, UnitRowBudgetsAreFiniteOrFailUntouched, ()) {
  const double a = *extreme_positive();
  const double delta = *rc::gen::element(0.0, *probability());
  const int64_t k = *rc::gen::element<int64_t>(1, 2, 7, 1 << 20);
  const int32_t unit = *rc::gen::inRange<int32_t>(0, 2);
  const int32_t row = *rc::gen::inRange<int32_t>(0, 2);
  double e = kCanary, d = kCanary;
  dpcov_status s = dpcov_unit_row_budget(unit, row, k, a, delta, &e, &d);
  if (s == DPCOV_OK) {
    RC_ASSERT(std::isfinite(e) && e > 0.0 && e <= a && d >= 0.0 && d <= delta);
  } else {
    check_failure(s, "unit_row_budget");
    RC_ASSERT(e == kCanary && d == kCanary);
  }
  double r = kCanary;
  s = dpcov_unit_row_rho(unit, row, k, a, &r);
  if (s == DPCOV_OK) {
    RC_ASSERT(std::isfinite(r) && r > 0.0 && r <= a);
  } else {
    check_failure(s, "unit_row_rho");
    RC_ASSERT(r == kCanary);
  }
}

// The zCDP audits at extreme claims with few draws (black-box, exact, exact over pairs, CoinPress
// mean): every result double finite on DPCOV_OK, the result untouched on failure.
RC_GTEST_PROP(ZcdpExtreme, AuditsAreFiniteOrFailUntouched, ()) {
  const int32_t mechanism = *rc::gen::inRange(0, 5);
  const double rho = *extreme_positive();
  const double delta = *probability();
  const double alpha = *probability();
  const uint64_t seed = *rc::gen::arbitrary<uint32_t>();
  const int64_t d = *rc::gen::inRange<int64_t>(1, 3);
  const int64_t steps = *rc::gen::inRange<int64_t>(1, 3);
  {
    dpcov_black_box_result r = canary_struct<dpcov_black_box_result>();
    const dpcov_status s = dpcov_audit_rows_black_box(
        mechanism, d, 3, rho, delta,
        mechanism == DPCOV_AUDIT_ROWS_COINPRESS ? 1.0 + *extreme_positive() : *extreme_positive(),
        *rc::gen::inRange(0, 3), 10, alpha, seed, &r);
    RC_TAG(std::string("black_box: ") + dpcov_status_string(s));
    if (s == DPCOV_OK)
      RC_ASSERT(all_finite({r.epsilon, r.delta, r.delta_lower, r.alpha_per_bound}));
    else {
      check_failure(s, "audit_rows_black_box");
      RC_ASSERT(bytes_equal(r, canary_struct<dpcov_black_box_result>()));
    }
  }
  for (int pairs = 0; pairs < 2; ++pairs) {
    dpcov_rows_exact_audit_result r = canary_struct<dpcov_rows_exact_audit_result>();
    int64_t worst = -7;
    const dpcov_status s =
        pairs ? dpcov_audit_rows_exact_pairs(mechanism, steps, rho, delta, 4, alpha, seed, 2, &r,
                                             &worst)
              : dpcov_audit_rows_exact(mechanism, steps, rho, delta, 4, alpha, seed, &r);
    const char *what = pairs ? "audit_rows_exact_pairs" : "audit_rows_exact";
    RC_TAG(std::string(what) + ": " + dpcov_status_string(s));
    if (s == DPCOV_OK) {
      RC_ASSERT(all_finite({r.rho, r.epsilon, r.delta, r.sigma, r.rho_lower, r.delta_estimate,
                            r.delta_lower, r.gaussian_delta_lower, r.conformance_distance,
                            r.conformance_threshold, r.alpha_per_test}));
    } else {
      check_failure(s, what);
      RC_ASSERT(bytes_equal(r, canary_struct<dpcov_rows_exact_audit_result>()));
    }
  }
  {
    // The unit-level audit (coinpress_mean included), k small: the pair grows like k.
    dpcov_rows_exact_audit_result r = canary_struct<dpcov_rows_exact_audit_result>();
    const int32_t unit_mechanism = *rc::gen::inRange(0, 6);
    const dpcov_status s = dpcov_audit_rows_units(unit_mechanism, steps,
                                                  *rc::gen::inRange<int64_t>(1, 3), rho, delta,
                                                  *rc::gen::inRange(0, 2), 10, alpha, seed, &r);
    RC_TAG(std::string("audit_rows_units: ") + dpcov_status_string(s));
    if (s == DPCOV_OK) {
      RC_ASSERT(all_finite({r.rho, r.epsilon, r.delta, r.sigma, r.rho_lower, r.delta_estimate,
                            r.delta_lower, r.gaussian_delta_lower, r.conformance_distance,
                            r.conformance_threshold, r.alpha_per_test}));
    } else {
      check_failure(s, "audit_rows_units");
      RC_ASSERT(bytes_equal(r, canary_struct<dpcov_rows_exact_audit_result>()));
    }
  }
  dpcov_coinpress_mean_params p;
  RC_ASSERT(dpcov_coinpress_mean_params_default(&p) == DPCOV_OK);
  p.rho = rho;
  p.radius = *extreme_positive();
  p.scale = *extreme_positive();
  p.steps = steps;
  p.beta = *probability();
  p.delta = delta;
  dpcov_coinpress_mean_audit_result r = canary_struct<dpcov_coinpress_mean_audit_result>();
  const dpcov_status s = dpcov_audit_coinpress_mean(d, 3, &p, 4, alpha, seed, &r);
  RC_TAG(std::string("coinpress_mean: ") + dpcov_status_string(s));
  if (s == DPCOV_OK) {
    RC_ASSERT(all_finite({r.rho, r.epsilon, r.delta, r.rho_lower, r.delta_estimate, r.delta_lower,
                          r.conformance_distance, r.conformance_threshold, r.alpha_per_test}));
  } else {
    check_failure(s, "audit_coinpress_mean");
    RC_ASSERT(bytes_equal(r, canary_struct<dpcov_coinpress_mean_audit_result>()));
  }
}

}  // namespace
