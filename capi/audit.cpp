// C ABI of the privacy auditor (dpcov/audit.h).
#include "dpcov/audit.h"
#include "struct_size.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "../core/audit/adassp_units.hpp"
#include "../core/audit/audit_table.hpp"
#include "../core/audit/mechanism_audit.hpp"
#include "../core/audit/rows_black_box.hpp"
#include "../core/audit/rows_exact_audit.hpp"
#include "../core/audit/rows_unit_audit.hpp"
#include "../core/audit/trials.hpp"
#include "../core/audit/unit_audit.hpp"
#include "../core/check.hpp"
#include "../core/mechanisms/registry.hpp"
#include "guard.hpp"
#include "mechanism_options.hpp"
#include "transcript_result.hpp"

namespace {

using dpcov::fail;
namespace audit = dpcov::audit;
namespace mech = dpcov::mechanisms;

// `pair_kinds`: whether the call generates its pair from the dataset and neighbour kinds, which
// are then checked; an audit that builds its own pair ignores them, whatever they hold.
dpcov_audit_params audit_params(const dpcov_audit_params *params, bool pair_kinds = true) {
  dpcov_audit_params p;
  dpcov_audit_params_default(&p);
  if (params == nullptr) return p;
  p = dpcov::capi::read_struct(params, p, "params");
  if (!pair_kinds) return p;
  audit::dataset_kind(p.dataset);
  audit::neighbour_kind(p.neighbour_kind);
  return p;
}

void check_result_output(const dpcov_audit_result *result) {
  dpcov::capi::struct_bytes(result, "result");
}

audit::Settings settings_of(const dpcov_audit_params &p) {
  return audit::Settings{p.trials, p.first_checkpoint, p.alpha, p.seed};
}

double conformance_ratio(const audit::DirectionResult &r) {
  return r.conformance_threshold > 0.0 ? r.conformance_distance / r.conformance_threshold : 0.0;
}

dpcov_audit_result c_result(const audit::AuditReport &report, size_t struct_size) {
  const audit::DirectionResult &worst = report.worst();
  const audit::DirectionResult &conform = conformance_ratio(report.backward) >
                                                  conformance_ratio(report.forward)
                                              ? report.backward
                                              : report.forward;
  dpcov_audit_result r{};
  r.struct_size = struct_size;
  r.verdict = report.violation() ? DPCOV_AUDIT_VIOLATION : DPCOV_AUDIT_NO_VIOLATION_FOUND;
  r.findings = static_cast<int32_t>(report.findings);
  r.noise = static_cast<int32_t>(report.noise);
  r.worst_direction = &worst == &report.backward ? 1 : 0;
  r.samples = report.samples;
  r.infinite_losses = report.forward.infinite_losses + report.backward.infinite_losses;
  r.exceedances = worst.exceedances;
  r.epsilon = report.epsilon;
  r.delta = report.delta;
  r.max_loss = std::fmax(report.forward.max_loss, report.backward.max_loss);
  r.exceed_estimate = worst.exceed.estimate;
  r.exceed_lower = worst.exceed.lower;
  r.exceed_upper = worst.exceed.upper;
  r.delta_estimate = worst.delta.estimate;
  r.delta_lower = worst.delta.lower;
  r.delta_upper = worst.delta.upper;
  r.pair_distance = worst.pair_distance;
  r.gaussian_sigma_upper = worst.sigma_upper;
  r.gaussian_delta_lower =
      std::fmax(report.forward.gaussian_delta_lower, report.backward.gaussian_delta_lower);
  r.conformance_distance = conform.conformance_distance;
  r.conformance_threshold = conform.conformance_threshold;
  r.alpha_per_test = report.alpha_per_test;
  r.detectable_delta = report.detectable_delta;
  return r;
}

// Shared tail of both entry points, once the pair's statistics exist.
void run(mech::MechanismId id, const mech::Request &request, const audit::PairStatistics &pair,
         const audit::Settings &settings, dpcov_audit_result *result) {
  const mech::Request audited = audit::request_for_pair(id, request, pair);
  const audit::AuditReport report = audit::audit_mechanism(id, audited, pair, settings);
  dpcov::capi::write_struct(result, c_result(report, result->struct_size));
}

// A rows-exact audit's verdict as the C result (struct_size the caller's), `samples` the releases
// it reports.
dpcov_rows_exact_audit_result rows_exact_result(const audit::gaussian_release::Verdict &v,
                                                int64_t samples, size_t struct_size) {
  const audit::DirectionResult &f = v.report.forward, &b = v.report.backward;
  const audit::DirectionResult &worst_delta = b.delta.lower > f.delta.lower ? b : f;
  const audit::DirectionResult &worst_ks =
      b.conformance_distance / b.conformance_threshold >
              f.conformance_distance / f.conformance_threshold
          ? b
          : f;
  dpcov_rows_exact_audit_result r{};
  r.struct_size = struct_size;
  r.findings = static_cast<int32_t>(v.report.findings) |
               (v.rho_flag() ? DPCOV_AUDIT_FINDING_RHO_EXCEEDED : 0) |
               (v.record.clamp_hits > 0 ? DPCOV_AUDIT_FINDING_SAMPLER_MISMATCH : 0);
  r.verdict = r.findings != 0 ? DPCOV_AUDIT_VIOLATION : DPCOV_AUDIT_NO_VIOLATION_FOUND;
  r.samples = samples;
  r.n = v.rows;
  r.rho = v.claimed_rho;
  r.epsilon = v.report.epsilon;
  r.delta = v.report.delta;
  r.sigma = v.claimed_sigma;
  r.rho_lower = v.pair.rho_lower;
  r.delta_estimate = worst_delta.delta.estimate;
  r.delta_lower = worst_delta.delta.lower;
  r.gaussian_delta_lower = std::max(f.gaussian_delta_lower, b.gaussian_delta_lower);
  r.conformance_distance = worst_ks.conformance_distance;
  r.conformance_threshold = worst_ks.conformance_threshold;
  r.clamp_hits = v.record.clamp_hits;
  r.alpha_per_test = v.report.alpha_per_test;
  r.detectable_delta = v.report.detectable_delta;
  return r;
}

// CoinPress with t >= 2: the worst pair's transcript audit as the C result. No Gaussian-pair
// delta bound and no clamp (the transcript is before the PSD projection): 0.
dpcov_rows_exact_audit_result rows_exact_steps_result(const audit::RowsExactStepsPairs &p,
                                                      size_t struct_size) {
  const audit::CoinpressStepsAuditReport &v = p.worst;
  dpcov_rows_exact_audit_result r{};
  r.struct_size = struct_size;
  r.samples = p.samples;
  r.n = v.claim.n;
  r.sigma = *std::min_element(v.claim.step_sigma.begin(), v.claim.step_sigma.end());
  dpcov::capi::transcript_fields(v, r);
  return r;
}

// Either exact audit of `pairs` pairs as the C result, and the worst pair.
std::pair<dpcov_rows_exact_audit_result, int64_t> rows_exact(const audit::RowsExactRequest &request,
                                                              int64_t pairs, int64_t trials,
                                                              double alpha, uint64_t seed,
                                                              size_t struct_size) {
  if (audit::rows_exact_by_steps(request)) {
    const audit::RowsExactStepsPairs p =
        audit::audit_rows_exact_steps_pairs(request, pairs, trials, alpha, seed);
    return {rows_exact_steps_result(p, struct_size), p.worst_pair};
  }
  const audit::RowsExactPairs p =
      audit::audit_rows_exact_pairs(request, pairs, trials, alpha, seed);
  return {rows_exact_result(p.worst, p.samples, struct_size), p.worst_pair};
}

// The unit-level black-box audit of dly_adaptive or dly_adaptive_paper as the C result, with the
// statistic of the row-level black-box audit.
dpcov_rows_exact_audit_result rows_units_black_box(audit::RowsMechanism mechanism, int64_t k,
                                                   double rho, double delta, bool rows_only,
                                                   int64_t trials, double alpha, uint64_t seed,
                                                   size_t struct_size) {
  audit::check_trials(trials, 10, "black-box trials");
  const audit::RowsAuditRequest claim = audit::rows_units_black_box_claim(mechanism, k, rho, delta);
  audit::BlackBoxSettings settings;
  settings.statistic = audit::Statistic::TopEigenvectorAlignment;
  settings.trials = trials;
  settings.pilot = std::max<int64_t>(settings.bins, trials / 5);
  settings.alpha = alpha;
  settings.seed = seed;
  const audit::BlackBoxReport report =
      audit::audit_rows_units_black_box(claim, k, rows_only, settings);
  dpcov_rows_exact_audit_result r{};
  r.struct_size = struct_size;
  r.verdict = report.violation ? DPCOV_AUDIT_VIOLATION : DPCOV_AUDIT_NO_VIOLATION_FOUND;
  r.findings = report.violation ? DPCOV_AUDIT_FINDING_DELTA_EXCEEDED : 0;
  r.samples = report.samples;
  r.n = claim.n;
  r.rho = rho;
  r.epsilon = report.epsilon;
  r.delta = report.delta;
  r.delta_lower = report.delta_lower;
  r.alpha_per_test = report.alpha_per_bound;
  r.detectable_delta = report.detectable_delta;
  return r;
}

// The unit-level audit of coinpress_mean as the C result.
dpcov_rows_exact_audit_result coinpress_mean_units(int64_t steps, int64_t k, double rho,
                                                   double delta, bool rows_only, int64_t trials,
                                                   double alpha, uint64_t seed,
                                                   size_t struct_size) {
  const mech::CoinpressMeanRequest claim = audit::coinpress_mean_units_claim(k, steps, rho, delta);
  const audit::CoinpressMeanAuditReport report =
      audit::audit_coinpress_mean_units(claim, k, rows_only, trials, alpha, seed);
  dpcov_rows_exact_audit_result r{};
  r.struct_size = struct_size;
  r.samples = report.samples;
  r.n = claim.n;
  r.sigma = *std::min_element(report.claim.step_sigma.begin(), report.claim.step_sigma.end());
  dpcov::capi::transcript_fields(report, r);
  return r;
}

// AdaSSP (not a Gram mechanism) at unit level: its own exact audit, with B_X = B_Y = bound; of
// the mechanism options only the neighbour relation applies (check_options_apply refuses others).
dpcov_audit_result adassp_units(int64_t dim, int64_t k, double bound, double epsilon, double delta,
                                bool broken, const dpcov_mechanism_params *mechanism_params,
                                const audit::Settings &settings, size_t struct_size) {
  const mech::Options options = dpcov::capi::options_from(mechanism_params);
  mech::check_options_apply(static_cast<mech::MechanismId>(mech::kAdasspId), options);
  audit::AdasspUnitClaim claim;
  claim.dim = dim;
  claim.max_rows_per_unit = k;
  claim.bound = bound;
  claim.epsilon = epsilon;
  claim.delta = delta;
  claim.neighbour = options.neighbour;
  return c_result(audit::audit_adassp_unit_releases(claim, broken, settings), struct_size);
}

}  // namespace

extern "C" {

DPCOV_API dpcov_status dpcov_audit_params_init(dpcov_audit_params *params, size_t size) {
  return dpcov::capi::guarded([&] {
    dpcov_audit_params d{};
    d.trials = 2000;
    d.first_checkpoint = 100;
    d.alpha = 1e-6;
    d.seed = 0;
    d.dataset = DPCOV_AUDIT_DATA_RANDOM_ROWS;
    d.neighbour_kind = DPCOV_AUDIT_NEIGHBOUR_RANDOM;
    dpcov::capi::init_struct(params, size, d, "params");
  });
}

DPCOV_API dpcov_status dpcov_audit_run(int32_t mechanism, int64_t dim, int64_t n, double bound,
                                       double epsilon, double delta,
                                       const dpcov_mechanism_params *mechanism_params,
                                       const dpcov_audit_params *params,
                                       dpcov_audit_result *result) {
  return dpcov::capi::guarded([&] {
    check_result_output(result);
    const mech::MechanismId id = mech::mechanism_id(mechanism);
    const mech::Request request{dim, n, bound, epsilon, delta, dpcov::capi::options_from(mechanism_params)};
    const dpcov_audit_params p = audit_params(params);
    const audit::Settings settings = settings_of(p);
    audit::check_settings(settings);
    if (n < 1) fail(dpcov::Status::Dimension, "n must be >= 1 for an audit, got ", n);
    // Plan first: an unplannable request fails before any data is generated. Inverse Gauss
    // without a bound is planned once the pair gives one.
    if (!audit::bound_from_pair(id, request)) mech::plan(id, request);
    const audit::DatasetPair data = audit::generate_pair(
        request, audit::dataset_kind(p.dataset), audit::neighbour_kind(p.neighbour_kind), p.seed);
    const audit::PairStatistics pair = audit::pair_statistics(
        data.rows, data.rows_prime, bound, request.options.neighbour);
    run(id, request, pair, settings, result);
  });
}

DPCOV_API dpcov_status dpcov_audit_standard_rows(int32_t mechanism, int64_t dim, double bound,
                                                 double epsilon, double delta,
                                                 const dpcov_mechanism_params *mechanism_params,
                                                 int64_t fallback, int64_t *rows) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(rows, "rows");
    const mech::MechanismId id = mech::mechanism_id(mechanism);
    if (fallback < 1) fail(dpcov::Status::InvalidArgument, "fallback must be >= 1, got ", fallback);
    const mech::Request request{dim, fallback, bound, epsilon, delta,
                                dpcov::capi::options_from(mechanism_params)};
    *rows = audit::standard_rows(id, request);
  });
}

DPCOV_API dpcov_status dpcov_audit_units(int32_t mechanism, int64_t dim, int64_t max_rows_per_unit,
                                         double bound, double epsilon, double delta,
                                         int32_t broken, const dpcov_mechanism_params *mechanism_params,
                                         const dpcov_audit_params *params, dpcov_audit_result *result) {
  return dpcov::capi::guarded([&] {
    if (broken != 0 && broken != 1)
      fail(dpcov::Status::InvalidArgument, "broken must be 0 or 1, got ", broken);
    check_result_output(result);
    const audit::Settings settings = settings_of(audit_params(params, false));
    audit::check_settings(settings);
    if (mechanism == mech::kAdasspId) {
      const dpcov_audit_result r = adassp_units(dim, max_rows_per_unit, bound, epsilon, delta,
                                                broken == 1, mechanism_params, settings,
                                                result->struct_size);
      dpcov::capi::write_struct(result, r);
      return;
    }
    const mech::MechanismId id = mech::mechanism_id(mechanism);
    dpcov::check::dimension(dim, "dimension d");
    const mech::Request request{dim, 0, bound, epsilon, delta,
                                dpcov::capi::options_from(mechanism_params)};
    // The planned release first: an unplannable request fails before any row is made.
    const mech::Request shipped = audit::unit_release_request(id, request, max_rows_per_unit);
    if (!audit::bound_from_pair(id, request)) mech::plan(id, broken ? request : shipped);
    const audit::AuditReport report =
        audit::audit_units(id, request, max_rows_per_unit, broken == 1, settings);
    dpcov::capi::write_struct(result, c_result(report, result->struct_size));
  });
}

DPCOV_API dpcov_status dpcov_audit_run_pair(int32_t mechanism, int32_t layout, int64_t dim,
                                            const double *rows, int64_t n, int64_t ldr,
                                            const double *rows_prime, int64_t n_prime,
                                            int64_t ldp, double bound, double epsilon,
                                            double delta,
                                            const dpcov_mechanism_params *mechanism_params,
                                            const dpcov_audit_params *params,
                                            dpcov_audit_result *result) {
  return dpcov::capi::guarded([&] {
    check_result_output(result);
    const mech::MechanismId id = mech::mechanism_id(mechanism);
    dpcov::check::dimension(dim, "dimension d");
    if (n < 1 || n_prime < 1)
      fail(dpcov::Status::Dimension, "both datasets need n >= 1 rows, got ", n, " and ", n_prime);
    const dpcov::ConstMatrixView a = dpcov::check::matrix(layout, n, dim, rows, ldr, "rows");
    const dpcov::ConstMatrixView b =
        dpcov::check::matrix(layout, n_prime, dim, rows_prime, ldp, "rows_prime");
    dpcov::check::all_finite(a, "rows");
    dpcov::check::all_finite(b, "rows_prime");
    const mech::Request request{dim, n, bound, epsilon, delta, dpcov::capi::options_from(mechanism_params)};
    const audit::Settings settings = settings_of(audit_params(params));
    audit::check_settings(settings);
    if (!audit::bound_from_pair(id, request)) mech::plan(id, request);
    const audit::PairStatistics pair = audit::pair_statistics(
        dpcov::Matrix::from(a), dpcov::Matrix::from(b), bound, request.options.neighbour);
    run(id, request, pair, settings, result);
  });
}

DPCOV_API dpcov_status dpcov_audit_rows_black_box(int32_t mechanism, int64_t dim, int64_t n,
                                                  double rho, double delta, double scale,
                                                  int32_t statistic, int64_t trials, double alpha,
                                                  uint64_t seed, dpcov_black_box_result *result) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::struct_bytes(result, "result");
    const audit::RowsAuditRequest request{audit::rows_mechanism(mechanism), dim, n, rho, delta,
                                          scale};
    if (statistic < DPCOV_BLACK_BOX_TOP_EIGENVALUE ||
        statistic > DPCOV_BLACK_BOX_LEAST_EIGENVALUE_ABOVE_PAIR)
      fail(dpcov::Status::InvalidArgument, "unknown black-box statistic ", statistic);
    audit::check_trials(trials, 10, "black-box trials");
    audit::BlackBoxSettings settings;
    settings.statistic = static_cast<audit::Statistic>(statistic);
    settings.trials = trials;
    settings.pilot = std::max<int64_t>(settings.bins, trials / 5);
    settings.alpha = alpha;
    settings.seed = seed;
    const audit::BlackBoxReport report = audit::audit_rows_black_box(request, settings);
    dpcov_black_box_result r{};
    r.struct_size = result->struct_size;
    r.verdict = report.violation ? DPCOV_AUDIT_VIOLATION : DPCOV_AUDIT_NO_VIOLATION_FOUND;
    r.epsilon = report.epsilon;
    r.delta = report.delta;
    r.samples = report.samples;
    r.delta_lower = report.delta_lower;
    r.alpha_per_bound = report.alpha_per_bound;
    r.detectable_delta = report.detectable_delta;
    dpcov::capi::write_struct(result, r);
  });
}

DPCOV_API dpcov_status dpcov_audit_rows_exact(int32_t mechanism, int64_t steps, double rho,
                                              double delta, int64_t trials, double alpha,
                                              uint64_t seed, dpcov_rows_exact_audit_result *result) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::struct_bytes(result, "result");
    const audit::RowsExactRequest request{audit::rows_mechanism(mechanism), steps, rho, delta};
    dpcov::capi::write_struct(
        result, rows_exact(request, 1, trials, alpha, seed, result->struct_size).first);
  });
}

DPCOV_API dpcov_status dpcov_audit_rows_exact_pairs(int32_t mechanism, int64_t steps, double rho,
                                                    double delta, int64_t trials, double alpha,
                                                    uint64_t seed, int64_t pairs,
                                                    dpcov_rows_exact_audit_result *result,
                                                    int64_t *worst_pair) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::struct_bytes(result, "result");
    dpcov::check::not_null(worst_pair, "worst_pair");
    const audit::RowsExactRequest request{audit::rows_mechanism(mechanism), steps, rho, delta};
    const auto [r, worst] = rows_exact(request, pairs, trials, alpha, seed, result->struct_size);
    dpcov::capi::write_struct(result, r);
    *worst_pair = worst;
  });
}

DPCOV_API dpcov_status dpcov_audit_rows_units(int32_t mechanism, int64_t steps,
                                              int64_t max_rows_per_unit, double rho, double delta,
                                              int32_t broken, int64_t trials, double alpha,
                                              uint64_t seed, dpcov_rows_exact_audit_result *result) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::struct_bytes(result, "result");
    if (broken != 0 && broken != 1)
      fail(dpcov::Status::InvalidArgument, "broken must be 0 or 1, got ", broken);
    const bool rows_only = broken == 1;
    if (mechanism == DPCOV_AUDIT_ROWS_COINPRESS_MEAN) {
      dpcov::capi::write_struct(result, coinpress_mean_units(steps, max_rows_per_unit, rho, delta,
                                                             rows_only, trials, alpha, seed,
                                                             result->struct_size));
      return;
    }
    const audit::RowsMechanism m = audit::rows_mechanism(mechanism);
    if (m == audit::RowsMechanism::DlyAdaptive || m == audit::RowsMechanism::DlyAdaptivePaper) {
      if (steps != 1)
        fail(dpcov::Status::InvalidArgument, audit::rows_mechanism_name(m),
             " releases in one step: steps must be 1, got ", steps);
      dpcov::capi::write_struct(result, rows_units_black_box(m, max_rows_per_unit, rho, delta,
                                                             rows_only, trials, alpha, seed,
                                                             result->struct_size));
      return;
    }
    audit::RowsExactRequest request{m, steps, rho, delta, max_rows_per_unit, rows_only};
    dpcov::capi::write_struct(
        result, rows_exact(request, 1, trials, alpha, seed, result->struct_size).first);
  });
}

}  // extern "C"
