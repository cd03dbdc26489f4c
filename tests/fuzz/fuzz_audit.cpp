// The auditors on generated pairs: dpcov_audit_run (every mechanism, dataset and neighbour kind),
// dpcov_audit_units (every mechanism, k and unit relation), dpcov_audit_standard_rows,
// the black-box and exact-density audits of the zCDP mechanisms on the rows, and the CoinPress
// mean audit (the audit on a caller's pair is fuzzed in fuzz_solvers). Sizes and trial counts are
// capped from the input so that one execution stays fast; invalid sizes are passed only where
// the library refuses them before allocating. Each result struct is filled with a byte pattern:
// on error it is unchanged and the message is non-empty; on success its doubles are finite (or
// +infinity where documented) and no byte beyond struct_size is written.
#include <cstddef>
#include <initializer_list>
#include <vector>

#include "fuzz_input.hpp"

namespace {

struct Field {
  const char *name;
  double value;
};
// Every field finite on success, named in the report.
void finite(std::initializer_list<Field> fields) {
  for (const Field &f : fields) fuzz::finite(&f.value, 1, f.name);
}
void not_nan(double v, const char *what) {
  if (std::isnan(v)) fuzz::violated("NaN output with DPCOV_OK:", what);
}

// alpha: mostly a usable level, sometimes anything.
double level(fuzz::Input &in) { return in.range(0, 3) == 0 ? in.number() : 1e-3; }
// A dimension: mostly 1-3, sometimes one the library refuses.
int64_t dimension(fuzz::Input &in) {
  static const int64_t bad[] = {-1, 0, 46341, INT64_MAX, INT64_MIN};
  return in.range(0, 7) == 0 ? bad[in.range(0, 4)] : in.range(1, 3);
}
// A row count: mostly 1-12, sometimes <= 0.
int64_t rows(fuzz::Input &in) {
  return in.range(0, 7) == 0 ? in.range(INT64_MIN, 0) : in.range(1, 12);
}

// Few trials (one execution stays fast), sometimes a number the library refuses.
dpcov_audit_params audit_settings(fuzz::Input &in) {
  dpcov_audit_params ap;
  fuzz::require(dpcov_audit_params_default(&ap) == DPCOV_OK, "audit params");
  ap.trials = in.range(-1, 24);
  ap.first_checkpoint = in.range(-1, 12);
  ap.alpha = level(in);
  ap.seed = in.raw<uint64_t>();
  return ap;
}

void audit_run(fuzz::Input &in) {
  const int32_t mechanism = static_cast<int32_t>(in.range(-1, 14));
  const int64_t d = dimension(in), n = rows(in);
  const double bound = budget(in), eps = budget(in), delta = probability(in);
  dpcov_mechanism_params mp;
  fuzz::require(dpcov_mechanism_params_default(&mp) == DPCOV_OK, "mechanism params");
  if (in.range(0, 1)) {
    mp.neighbour = static_cast<int32_t>(in.range(-1, 2));
    mp.calibration = static_cast<int32_t>(in.range(-1, 2));
    mp.lambda_min_bound = in.range(0, 1) ? 0.0 : in.number();
    mp.audit_only_not_private = static_cast<int32_t>(in.range(0, 1));
    mp.beta = probability(in);
    mp.rank = in.range(-1, 4);
    mp.projection_rows = in.range(-1, 40);
    mp.posterior_dof = in.range(-1, 8);
  }
  if (in.range(0, 7) == 0) mp.struct_size = static_cast<size_t>(in.range(0, sizeof mp - 1));
  dpcov_audit_params ap = audit_settings(in);
  ap.dataset = static_cast<int32_t>(in.range(-1, 6));
  ap.neighbour_kind = static_cast<int32_t>(in.range(-1, 4));
  if (in.range(0, 7) == 0) ap.struct_size = static_cast<size_t>(in.range(0, sizeof ap - 1));
  const bool null_mp = in.range(0, 3) == 0, null_ap = in.range(0, 7) == 0;
  if (null_ap && d <= 3 && n <= 12) return;  // the default 2000 trials: too slow for a fuzz input
  fuzz::Result<dpcov_audit_result> r(in);
  const dpcov_status s = dpcov_audit_run(mechanism, d, n, bound, eps, delta, null_mp ? nullptr : &mp,
                                         null_ap ? nullptr : &ap, r.get());
  if (!r.check(s, "audit run")) return;
  const dpcov_audit_result v = r.value();
  fuzz::require(v.verdict == 0 || v.verdict == 1, "audit run: verdict");
  finite({{"audit run epsilon", v.epsilon}, {"audit run delta", v.delta},
          {"audit run exceed_estimate", v.exceed_estimate}, {"audit run exceed_lower", v.exceed_lower},
          {"audit run exceed_upper", v.exceed_upper}, {"audit run delta_estimate", v.delta_estimate},
          {"audit run delta_lower", v.delta_lower}, {"audit run delta_upper", v.delta_upper},
          {"audit run pair_distance", v.pair_distance},
          {"audit run gaussian_sigma_upper", v.gaussian_sigma_upper},
          {"audit run gaussian_delta_lower", v.gaussian_delta_lower},
          {"audit run conformance_distance", v.conformance_distance},
          {"audit run conformance_threshold", v.conformance_threshold},
          {"audit run alpha_per_test", v.alpha_per_test}});
  not_nan(v.max_loss, "audit run max_loss");  // +infinity outside the support of D'
}

// The unit-level audit: every Gram mechanism id and adassp (those without a unit proof refused),
// k mostly small and sometimes anything (the cap on its pair refuses the large ones before any
// row is made).
void audit_units(fuzz::Input &in) {
  // -1 to 14, and 15 standing for adassp (its own pair).
  const int32_t drawn = static_cast<int32_t>(in.range(-1, 15));
  const int32_t mechanism = drawn == 15 ? DPCOV_MECHANISM_ADASSP : drawn;
  const int64_t d = dimension(in);
  const int64_t k = in.range(0, 7) == 0 ? in.range(INT64_MIN, INT64_MAX) : in.range(1, 4);
  const double bound = budget(in), eps = budget(in), delta = probability(in);
  const int32_t broken = static_cast<int32_t>(in.range(-1, 2));
  dpcov_mechanism_params mp;
  fuzz::require(dpcov_mechanism_params_default(&mp) == DPCOV_OK, "mechanism params");
  mp.neighbour = static_cast<int32_t>(in.range(-1, 2));
  mp.projection_rows = in.range(-1, 40);
  mp.posterior_dof = in.range(-1, 8);
  mp.lambda_min_bound = in.range(0, 1) ? 0.0 : in.number();
  const dpcov_audit_params ap = audit_settings(in);
  fuzz::Result<dpcov_audit_result> r(in);
  const dpcov_status s =
      dpcov_audit_units(mechanism, d, k, bound, eps, delta, broken, &mp, &ap, r.get());
  if (!r.check(s, "audit units")) return;
  const dpcov_audit_result v = r.value();
  fuzz::require(v.verdict == 0 || v.verdict == 1, "audit units: verdict");
  finite({{"audit units epsilon", v.epsilon}, {"audit units delta", v.delta},
          {"audit units delta_estimate", v.delta_estimate},
          {"audit units delta_lower", v.delta_lower}, {"audit units delta_upper", v.delta_upper},
          {"audit units alpha_per_test", v.alpha_per_test}});
  not_nan(v.max_loss, "audit units max_loss");
}

// The n of the standard audit: every mechanism id, the options fuzzed as for the unit audit;
// on success n >= 1 (the fallback where the auditor has none of its own), else untouched.
void standard_rows(fuzz::Input &in) {
  const int32_t mechanism = static_cast<int32_t>(in.range(-1, 25));
  const int64_t d = dimension(in);
  const double bound = budget(in), eps = budget(in), delta = probability(in);
  dpcov_mechanism_params mp;
  fuzz::require(dpcov_mechanism_params_default(&mp) == DPCOV_OK, "mechanism params");
  mp.neighbour = static_cast<int32_t>(in.range(-1, 2));
  mp.projection_rows = in.range(-1, 40);
  mp.lambda_min_bound = in.range(0, 1) ? 0.0 : in.number();
  const int64_t fallback = rows(in);
  int64_t n = -123;
  const dpcov_status s = dpcov_audit_standard_rows(mechanism, d, bound, eps, delta, &mp, fallback,
                                                   in.range(0, 15) == 0 ? nullptr : &n);
  fuzz::known_status(s);
  if (s != DPCOV_OK) fuzz::require(n == -123, "standard rows: output written on failure");
  else fuzz::require(n >= 1, "standard rows: n < 1");
}

void black_box(fuzz::Input &in) {
  const int32_t mechanism = static_cast<int32_t>(in.range(-1, 5));
  const int64_t d = dimension(in), n = rows(in);
  const double rho = budget(in), delta = probability(in);
  const double scale = in.range(0, 1) ? in.number() : 1.0 + in.positive();
  const int32_t statistic = static_cast<int32_t>(in.range(-1, 3));
  const int64_t trials = in.range(0, 7) == 0 ? in.range(INT64_MIN, 9) : in.range(10, 30);
  const double alpha = level(in);
  const uint64_t seed = in.raw<uint64_t>();
  fuzz::Result<dpcov_black_box_result> r(in);
  const dpcov_status s = dpcov_audit_rows_black_box(mechanism, d, n, rho, delta, scale, statistic,
                                                    trials, alpha, seed,
                                                    r.get());
  if (!r.check(s, "black box")) return;
  const dpcov_black_box_result v = r.value();
  fuzz::require(v.verdict == 0 || v.verdict == 1, "black box: verdict");
  finite({{"black box epsilon", v.epsilon}, {"black box delta", v.delta},
          {"black box delta_lower", v.delta_lower}, {"black box alpha_per_bound", v.alpha_per_bound}});
}

void rows_exact(fuzz::Input &in) {
  const int32_t mechanism = static_cast<int32_t>(in.range(-1, 5));
  const int64_t steps = in.range(0, 3) == 0 ? in.range(INT64_MIN, INT64_MAX) : in.range(1, 2);
  // rho mostly where the pair stays small (n grows like 1 / rho), sometimes anything.
  const double rho = in.range(0, 3) == 0 ? in.number() : 1e-3 + in.positive();
  const double delta = probability(in);
  const int64_t trials = in.range(0, 7) == 0 ? in.range(INT64_MIN, 1) : in.range(2, 40);
  const double alpha = level(in);
  const uint64_t seed = in.raw<uint64_t>();
  // One pair through dpcov_audit_rows_exact, or a few (sometimes a bad count) through
  // dpcov_audit_rows_exact_pairs.
  const bool several = in.range(0, 1) == 1;
  const int64_t pairs = in.range(0, 7) == 0 ? in.range(INT64_MIN, INT64_MAX) : in.range(1, 3);
  fuzz::Result<dpcov_rows_exact_audit_result> r(in);
  int64_t worst = -1;
  const dpcov_status s =
      several ? dpcov_audit_rows_exact_pairs(mechanism, steps, rho, delta, trials, alpha, seed,
                                             pairs, r.get(), &worst)
              : dpcov_audit_rows_exact(mechanism, steps, rho, delta, trials, alpha, seed, r.get());
  if (!r.check(s, "rows exact")) return;
  fuzz::require(!several || (worst >= 0 && worst < pairs), "rows exact: worst pair");
  const dpcov_rows_exact_audit_result v = r.value();
  fuzz::require(v.verdict == 0 || v.verdict == 1, "rows exact: verdict");
  fuzz::require(v.n >= 1 && v.samples >= 0 && v.clamp_hits >= 0, "rows exact: counts");
  finite({{"rows exact rho", v.rho}, {"rows exact epsilon", v.epsilon},
          {"rows exact delta", v.delta}, {"rows exact sigma", v.sigma},
          {"rows exact rho_lower", v.rho_lower}, {"rows exact delta_estimate", v.delta_estimate},
          {"rows exact delta_lower", v.delta_lower},
          {"rows exact gaussian_delta_lower", v.gaussian_delta_lower},
          {"rows exact conformance_distance", v.conformance_distance},
          {"rows exact conformance_threshold", v.conformance_threshold},
          {"rows exact alpha_per_test", v.alpha_per_test}});
}

void coinpress_mean(fuzz::Input &in) {
  const int64_t d = dimension(in), n = rows(in);
  dpcov_coinpress_mean_params p;
  fuzz::require(dpcov_coinpress_mean_params_default(&p) == DPCOV_OK, "params");
  p.rho = budget(in);
  p.radius = in.range(0, 3) == 0 ? in.number() : in.positive();
  p.scale = in.range(0, 3) == 0 ? in.number() : in.positive();
  p.steps = in.range(0, 3) == 0 ? in.range(-1, 20) : in.range(1, 4);
  p.beta = probability(in);
  p.delta = probability(in);
  if (in.range(0, 7) == 0) p.struct_size = static_cast<size_t>(in.range(0, sizeof p - 1));
  const bool null_params = in.range(0, 15) == 0;
  const int64_t trials = in.range(0, 7) == 0 ? in.range(INT64_MIN, 1) : in.range(2, 40);
  const double alpha = level(in);
  const uint64_t seed = in.raw<uint64_t>();
  fuzz::Result<dpcov_coinpress_mean_audit_result> r(in);
  const dpcov_status s = dpcov_audit_coinpress_mean(d, n, null_params ? nullptr : &p, trials, alpha,
                                                    seed, r.get());
  if (null_params) fuzz::require(s != DPCOV_OK, "coinpress mean audit: NULL params accepted");
  if (!r.check(s, "coinpress mean audit")) return;
  const dpcov_coinpress_mean_audit_result v = r.value();
  fuzz::require(v.verdict == 0 || v.verdict == 1, "coinpress mean audit: verdict");
  finite({{"coinpress mean audit rho", v.rho}, {"coinpress mean audit epsilon", v.epsilon},
          {"coinpress mean audit delta", v.delta}, {"coinpress mean audit rho_lower", v.rho_lower},
          {"coinpress mean audit delta_estimate", v.delta_estimate},
          {"coinpress mean audit delta_lower", v.delta_lower},
          {"coinpress mean audit conformance_distance", v.conformance_distance},
          {"coinpress mean audit conformance_threshold", v.conformance_threshold},
          {"coinpress mean audit alpha_per_test", v.alpha_per_test}});
}

// The unit-level audits of the zCDP row mechanisms (dpcov_audit_rows_units): any mechanism value,
// k mostly small (the pair grows like k), sometimes anything, broken sometimes out of range.
void rows_units(fuzz::Input &in) {
  const int32_t mechanism = static_cast<int32_t>(in.range(-1, 6));
  const int64_t steps = in.range(0, 3) == 0 ? in.range(INT64_MIN, INT64_MAX) : in.range(1, 2);
  const int64_t k = in.range(0, 3) == 0 ? in.range(INT64_MIN, INT64_MAX) : in.range(1, 3);
  const double rho = in.range(0, 3) == 0 ? in.number() : 1e-2 + in.positive();
  const double delta = probability(in);
  const int32_t broken = in.range(0, 7) == 0 ? static_cast<int32_t>(in.range(-2, 3))
                                             : static_cast<int32_t>(in.range(0, 1));
  const int64_t trials = in.range(0, 7) == 0 ? in.range(INT64_MIN, 1) : in.range(2, 20);
  const double alpha = level(in);
  const uint64_t seed = in.raw<uint64_t>();
  fuzz::Result<dpcov_rows_exact_audit_result> r(in);
  const dpcov_status s = dpcov_audit_rows_units(mechanism, steps, k, rho, delta, broken, trials,
                                                alpha, seed, r.get());
  if (!r.check(s, "rows units")) return;
  const dpcov_rows_exact_audit_result v = r.value();
  fuzz::require(v.verdict == 0 || v.verdict == 1, "rows units: verdict");
  fuzz::require(v.n >= 1 && v.n % k == 0 && v.samples >= 0, "rows units: counts");
  finite({{"rows units rho", v.rho}, {"rows units epsilon", v.epsilon},
          {"rows units delta", v.delta}, {"rows units sigma", v.sigma},
          {"rows units rho_lower", v.rho_lower}, {"rows units delta_estimate", v.delta_estimate},
          {"rows units delta_lower", v.delta_lower},
          {"rows units conformance_distance", v.conformance_distance},
          {"rows units alpha_per_test", v.alpha_per_test}});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::Input in(data, size);
  switch (in.range(0, 6)) {
    case 0: audit_run(in); break;
    case 1: black_box(in); break;
    case 2: rows_exact(in); break;
    case 3: audit_units(in); break;
    case 4: standard_rows(in); break;
    case 5: rows_units(in); break;
    default: coinpress_mean(in); break;
  }
  return 0;
}
