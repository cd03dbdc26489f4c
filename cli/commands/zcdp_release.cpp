#include "zcdp_release.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <utility>

#include <dpcov.h>
#include <nlohmann/json.hpp>

#include "../cli_error.hpp"
#include "../library_status.hpp"
#include "../io/readers/open_input.hpp"
#include "../io/receipt_prefix_json.hpp"
#include "../io/unit_rows.hpp"
#include "../io/unit_stream.hpp"
#include "../io/write_outputs.hpp"
#include "release_pipeline.hpp"
#include "zcdp_passes.hpp"

namespace dpcov::cli {

namespace {

struct DlyId {
  const char *name;
  int32_t variant;
};

constexpr DlyId kDlyIds[] = {{"dly_gauss", DPCOV_DLY_GAUSS},
                             {"dly_separate", DPCOV_DLY_SEPARATE},
                             {"dly_adaptive", DPCOV_DLY_ADAPTIVE},
                             {"dly_adaptive_paper", DPCOV_DLY_ADAPTIVE_PAPER}};
constexpr const char *kCoinpress = "coinpress";
constexpr const char *kCoinpressMean = "coinpress_mean";

const char *branch_name(int32_t branch) {
  return branch == DPCOV_DLY_GAUSS ? "gauss" : branch == DPCOV_DLY_SEPARATE ? "separate" : "none";
}

std::string claim(bool seed_fixed) {
  return seed_fixed ? "reproducible: not private if the seed is known; idealized numerics "
                      "(floating-point noise, Mironov 2012)"
                    : "private; idealized numerics (floating-point noise, Mironov 2012)";
}

// The fields every receipt of these mechanisms shares: the library's common prefix of the C
// receipt `receipt` under the command's name of the mechanism (the variant's, for Dong-Liang-Yi),
// with the whole release's rho and epsilon (a centred coinpress spends part of them on its mean),
// then the claim. n is public under replace-one, and the written matrix is n times the estimate
// of X^T X / n. A plan says that nothing was released.
nlohmann::ordered_json common_receipt(const std::string &mechanism, const void *receipt,
                                      double rho, double epsilon, int64_t dim, bool plan) {
  nlohmann::ordered_json out = receipt_prefix_json(receipt);
  out["mechanism"] = mechanism;
  out["rho"] = rho;
  out["epsilon"] = epsilon;
  const bool seed_fixed = out["seed_fixed"].get<bool>();
  out["differentially_private"] = !seed_fixed;
  if (!plan) out["mechanism_differentially_private"] = true;
  out["privacy_claim"] =
      plan ? "plan: nothing released; idealized numerics (floating-point noise, Mironov 2012)"
           : claim(seed_fixed);
  out["n_public"] = true;
  out["dim"] = dim;
  out["output"] = "n times the mechanism's estimate of X^T X / n (an estimate of the Gram matrix; "
                  "n is public)";
  out["command"] = plan ? "plan" : "release";
  out["library_version"] = dpcov_version_string();
  return out;
}

// The first `steps` entries of a per-step array of a CoinPress receipt.
std::vector<double> per_step(const double (&values)[DPCOV_COINPRESS_MAX_STEPS], int64_t steps) {
  return std::vector<double>(values, values + steps);
}

// The public constants of a CoinPress mean release.
nlohmann::ordered_json mean_constants(const dpcov_coinpress_mean_receipt &r) {
  return {{"mean_radius", r.radius},
          {"scale", r.scale},
          {"steps", r.steps},
          {"beta", r.beta},
          {"tail_radius", r.tail_radius},
          {"step_rho", per_step(r.step_rho, r.steps)},
          {"step_clip_radius", per_step(r.step_clip_radius, r.steps)},
          {"step_sigma", per_step(r.step_sigma, r.steps)}};
}

// The data-independent constants of a CoinPress covariance release.
nlohmann::ordered_json coinpress_constants(const dpcov_coinpress_receipt &r) {
  return {{"k_bound", r.k_bound},
          {"steps", r.steps},
          {"beta", r.beta},
          {"clip_radius", r.clip_radius},
          {"eta", r.eta},
          {"step_rho", per_step(r.step_rho, r.steps)},
          {"step_sigma", per_step(r.step_sigma, r.steps)}};
}

// The data-independent constants of a Dong-Liang-Yi release.
nlohmann::ordered_json dly_constants(const dpcov_dly_receipt &r) {
  return {{"beta", r.beta},
          {"rho_covariance", r.rho_covariance},
          {"trace_sigma", r.trace_sigma},
          {"svt_epsilon", r.svt_epsilon},
          {"svt_queries", r.svt_queries},
          {"histogram_sigma", r.histogram_sigma},
          {"first_look_sigma", r.first_look_sigma}};
}

// The settings of a CoinPress mean at `rho`: the prior ||mu|| <= --mean-radius and, with
// --k-bound K, Cov <= K I (scale sqrt(K); default 1).
dpcov_coinpress_mean_params mean_params(const ZcdpReleaseOptions &o, double rho) {
  dpcov_coinpress_mean_params p{};
  library_check(dpcov_coinpress_mean_params_default(&p), "CoinPress mean defaults");
  p.rho = rho;
  p.radius = *o.mean_radius;
  if (o.k_bound) p.scale = std::sqrt(*o.k_bound);
  if (o.steps) p.steps = *o.steps;
  p.delta = *o.mechanism.delta;
  return p;
}

}  // namespace

void add_zcdp_options(CLI::App &command, std::optional<double> &k_bound,
                      std::optional<int64_t> &steps, std::optional<double> &mean_radius,
                      bool &center) {
  command.add_option("--k-bound", k_bound,
                     "coinpress: the public prior I <= Sigma <= K I on the covariance of the "
                     "centred rows (required there)");
  command.add_option("--steps", steps,
                     "coinpress, coinpress_mean: the number of steps t (default 3)");
  command.add_option("--mean-radius", mean_radius,
                     "coinpress_mean: the public prior ||mean|| <= R on the rows' mean (required "
                     "there; with --k-bound K the prior Cov <= K I, default K = 1); the output "
                     "is the private mean, 1 x d");
  command.add_flag("--center", center,
                   "coinpress: centre the rows on a CoinPress private mean first (an eighth of the "
                   "budget; needs --mean-radius), and release the covariance of the centred rows");
}

double zcdp_checked_rho(const ZcdpReleaseOptions &o) {
  const MechanismOptions &m = o.mechanism;
  if (m.neighbour != "replace-one")
    fail(kExitUsage, m.mechanism, " is private under replace-one neighbours with n public; "
         "--neighbour ", m.neighbour, " does not apply");
  if (m.calibration != "default" || m.lambda_min || m.audit_only_not_private ||
      m.budget_split != "default" || m.beta || m.rank || m.projection_rows || m.posterior_dof)
    fail(kExitUsage, m.mechanism, " takes --epsilon, --delta (and --k-bound, --steps for "
         "coinpress) only; drop the other mechanism settings");
  if (!m.delta)
    fail(kExitUsage, "--delta is required: ", m.mechanism, " is a zCDP mechanism, run at the "
         "largest rho whose (epsilon, delta) guarantee fits");
  const bool mean = m.mechanism == kCoinpressMean;
  const bool coinpress = m.mechanism == kCoinpress;
  if (mean) {
    if (o.bound != 0.0)
      fail(kExitUsage, "coinpress_mean projects the rows itself: give --mean-radius, not --bound");
    if (o.center) fail(kExitUsage, "--center applies to coinpress (the covariance) only");
    if (!o.mean_radius)
      fail(kExitUsage, "coinpress_mean needs --mean-radius R, the public prior ||mean|| <= R");
  } else {
    if (o.mean_radius && !(coinpress && o.center))
      fail(kExitUsage, "--mean-radius applies to coinpress_mean and coinpress --center only");
    if (o.center && !coinpress) fail(kExitUsage, "--center applies to coinpress only");
    if (o.center && !o.mean_radius)
      fail(kExitUsage, "coinpress --center needs --mean-radius R, the public prior ||mean|| <= R");
    if (coinpress && !o.k_bound)
      fail(kExitUsage, "coinpress needs --k-bound K, the public prior I <= Sigma <= K I on the "
           "covariance of the (centred) rows");
    if (!coinpress && (o.k_bound || o.steps))
      fail(kExitUsage, "--k-bound and --steps apply to coinpress only");
    if (!coinpress && o.bound == 0.0)
      fail(kExitUsage, m.mechanism, " needs --bound B, the public bound on the rows' Euclidean "
           "norm");
    if (coinpress && o.bound != 0.0)
      fail(kExitUsage, "coinpress clips the whitened rows itself: give --k-bound, not --bound");
  }
  double rho = 0.0;
  library_check_parameters(dpcov_zcdp_rho(m.epsilon, *m.delta, &rho),
                           concat("rho-zCDP for epsilon ", m.epsilon, ", delta ", *m.delta));
  return rho;
}

ZcdpPlan plan_zcdp(const ZcdpReleaseOptions &o, double rho, int64_t dim, int64_t n) {
  const MechanismOptions &m = o.mechanism;
  ZcdpPlan plan;
  plan.mechanism = m.mechanism;
  plan.rho = rho;
  double epsilon = 0.0;
  library_check_parameters(dpcov_zcdp_epsilon(rho, *m.delta, &epsilon), "the release's epsilon");
  if (m.mechanism == kCoinpressMean) {
    plan.mean = mean_params(o, rho);
    dpcov_coinpress_mean_receipt r{};
    r.struct_size = sizeof r;
    library_check_parameters(dpcov_coinpress_mean_plan(n, dim, &plan.mean, &r),
                             "coinpress_mean settings");
    plan.receipt = common_receipt(m.mechanism, &r, rho, epsilon, dim, true);
    plan.receipt["output"] = "the private mean of the rows (1 x d)";
    plan.receipt.update(mean_constants(r));
    return plan;
  }
  if (m.mechanism == kCoinpress) {
    double rho_covariance = rho;
    if (o.center) {
      // A CoinPress mean first, with its share of rho (dpcov_coinpress_centring_split).
      double rho_mean = 0.0;
      library_check_parameters(dpcov_coinpress_centring_split(rho, &rho_mean, &rho_covariance),
                               "the centring split");
      plan.mean = mean_params(o, rho_mean);
      dpcov_coinpress_mean_receipt r{};
      r.struct_size = sizeof r;
      library_check_parameters(dpcov_coinpress_mean_plan(n, dim, &plan.mean, &r),
                               "coinpress_mean settings");
      plan.centring = {{"mechanism", kCoinpressMean}, {"rho", r.rho}};
      plan.centring.update(mean_constants(r));
    }
    library_check(dpcov_coinpress_params_default(&plan.coinpress), "CoinPress defaults");
    plan.coinpress.rho = rho_covariance;
    plan.coinpress.k_bound = *o.k_bound;
    if (o.steps) plan.coinpress.steps = *o.steps;
    plan.coinpress.delta = *m.delta;
    dpcov_coinpress_receipt r{};
    r.struct_size = sizeof r;
    library_check_parameters(dpcov_coinpress_plan(n, dim, &plan.coinpress, &r),
                             "coinpress settings");
    plan.receipt = common_receipt(m.mechanism, &r, rho, epsilon, dim, true);
    if (o.center) {
      plan.receipt["output"] = "n times the mechanism's estimate of the covariance of the rows "
                               "centred on the private mean of \"centring\" (n is public)";
      plan.receipt["rho_covariance"] = r.rho;
      plan.receipt["centring"] = plan.centring;
    }
    plan.receipt.update(coinpress_constants(r));
    return plan;
  }
  library_check(dpcov_dly_params_default(&plan.dly), "Dong-Liang-Yi defaults");
  for (const DlyId &id : kDlyIds)
    if (m.mechanism == id.name) plan.dly.variant = id.variant;
  plan.dly.rho = rho;
  plan.dly.radius = o.bound;
  plan.dly.delta = *m.delta;
  dpcov_dly_receipt r{};
  r.struct_size = sizeof r;
  library_check_parameters(dpcov_dly_plan(n, dim, &plan.dly, &r), concat(m.mechanism, " settings"));
  plan.receipt = common_receipt(m.mechanism, &r, rho, epsilon, dim, true);
  plan.receipt.update(dly_constants(r));
  // Gauss and Separate: the noise is data-independent, stated in the plan (dly_plan).
  if (r.branch >= 0) {
    plan.receipt["sigma_matrix"] = r.sigma_matrix;
    plan.receipt["sigma_eigenvalues"] = r.sigma_eigenvalues;
  }
  return plan;
}

dpcov_status centre_on_private_mean(const ZcdpPlan &plan, RowBuffer &rows, int64_t dim,
                                    dpcov_rng *rng, std::vector<double> &mean,
                                    dpcov_coinpress_mean_receipt &receipt) {
  std::vector<double> released(static_cast<size_t>(dim));
  receipt.struct_size = sizeof receipt;
  const dpcov_status status =
      dpcov_coinpress_mean_release(DPCOV_ROW_MAJOR, rows.rows, dim, rows.values.data(), dim,
                                   nullptr, &plan.mean, rng, released.data(), &receipt);
  if (status != DPCOV_OK) return status;
  // A row whose difference from the mean overflows (both near the largest double, on opposite
  // sides) is centred halved, 0.5 x - 0.5 mean: the same direction, still far beyond every clip
  // radius, and finite. Unhalved, its infinite entries failed the covariance release
  // (DPCOV_E_NON_FINITE, naming the row) on a dataset and not on its neighbour. Either way each
  // row is a public function of itself and the released mean, so neighbours stay neighbours.
  for (int64_t i = 0; i < rows.rows; ++i) {
    double *row = rows.values.data() + i * dim;
    bool halved = false;
    for (int64_t j = 0; j < dim; ++j) {
      const double centred = row[j] - released[static_cast<size_t>(j)];
      halved = halved || !std::isfinite(centred);
    }
    for (int64_t j = 0; j < dim; ++j)
      row[j] = halved ? 0.5 * row[j] - 0.5 * released[static_cast<size_t>(j)]
                      : row[j] - released[static_cast<size_t>(j)];
  }
  mean = std::move(released);
  return DPCOV_OK;
}

dpcov_status zcdp_release_gram(const ZcdpPlan &plan, const RowBuffer &rows, int64_t dim,
                               dpcov_rng *rng, double *gram) {
  dpcov_status status = DPCOV_OK;
  if (plan.mechanism == kCoinpress) {
    // --center: the rows centred on a fresh private mean (a copy: each release draws its own).
    RowBuffer centred;
    if (!plan.centring.empty()) {
      centred = rows;
      std::vector<double> mean;
      dpcov_coinpress_mean_receipt m{};
      status = centre_on_private_mean(plan, centred, dim, rng, mean, m);
      if (status != DPCOV_OK) return status;
    }
    const RowBuffer &input = plan.centring.empty() ? rows : centred;
    dpcov_coinpress_receipt r{};
    r.struct_size = sizeof r;
    status = dpcov_coinpress_release(DPCOV_ROW_MAJOR, input.rows, dim, input.values.data(), dim,
                                     &plan.coinpress, rng, gram, dim, &r);
  } else {
    dpcov_dly_receipt r{};
    r.struct_size = sizeof r;
    status = dpcov_dly_release(DPCOV_ROW_MAJOR, rows.rows, dim, rows.values.data(), dim,
                               &plan.dly, rng, gram, dim, &r);
  }
  // n is public: the Gram estimate is post-processing.
  if (status == DPCOV_OK)
    for (int64_t k = 0; k < dim * dim; ++k) gram[k] *= static_cast<double>(rows.rows);
  return status;
}

const std::vector<std::string> &zcdp_rows_mechanisms() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const DlyId &id : kDlyIds) out.emplace_back(id.name);
    out.emplace_back(kCoinpress);
    out.emplace_back(kCoinpressMean);
    return out;
  }();
  return names;
}

std::string zcdp_rows_mechanism_list() {
  std::string list;
  for (const std::string &name : zcdp_rows_mechanisms()) list += (list.empty() ? "" : ", ") + name;
  return list;
}

bool is_zcdp_rows_mechanism(const std::string &name) {
  const auto &names = zcdp_rows_mechanisms();
  return std::find(names.begin(), names.end(), name) != names.end();
}

namespace {

// The charge of one release of rho-zCDP (CoinPress with --center: the mean's and the covariance's
// shares together); it depends on rho alone, so the ledger refuses a release over its cap before
// any row is read.
LedgerCharge zcdp_release_charge(const ZcdpReleaseOptions &o, double rho) {
  double epsilon = 0.0;
  library_check(dpcov_zcdp_epsilon(rho, *o.mechanism.delta, &epsilon), "the release's epsilon");
  const std::string &name = o.mechanism.mechanism;
  const int32_t id = name == kCoinpress       ? DPCOV_MECHANISM_COINPRESS
                     : name == kCoinpressMean ? DPCOV_MECHANISM_COINPRESS_MEAN
                                              : DPCOV_MECHANISM_DLY;
  return LedgerCharge::zcdp(id, rho, epsilon, *o.mechanism.delta);
}

// The steps before any row is read: the input opened (spooled if it cannot be read again: every
// release here reads it once per pass), the ledger checked against the release's charge, the generator and the
// guard that charges a failure after the first draw. With --privacy-unit the input is read once,
// into the rows the units keep (io/unit_rows.hpp), drawn with the release's generator, which the
// passes read instead; `rho` is the unit-level budget, charged (unit_row_rho() the rows').
struct ZcdpRun {
  ZcdpRun(const ZcdpReleaseOptions &o, double rho)
      : input(std::make_unique<RereadableInput>(
            o.input, /*passes_again=*/o.privacy_unit.empty(), /*count_public=*/true)),
        reader(input->open()),
        charge(zcdp_release_charge(o, rho)),
        ledger(checked_ledger(o.ledger,
                              [&](const LedgerFile &) { return std::vector<LedgerCharge>{charge}; })),
        draws(ledger.get(), [this] { return std::vector<LedgerCharge>{charge}; }, o.seed,
              o.output.path, {"release", "--seed"}) {
    if (o.privacy_unit.empty()) return;
    UnitRows kept = keep_unit_rows(*reader, unit_column_index(*reader, o.privacy_unit),
                                   o.max_rows_per_unit, draws.rng(), o.quiet);
    input = std::move(kept.input);
    reader = input->open();
    units = std::move(kept);
  }

  std::unique_ptr<RereadableInput> input;
  std::unique_ptr<RowReader> reader;  // the first pass's
  LedgerCharge charge;
  std::unique_ptr<LedgerFile> ledger;
  ReleaseDraws draws;
  UnitRows units;  // with --privacy-unit: the counts (its input moved to `input`)
};

// With --privacy-unit the public receipt states the unit-level budget `rho` (and its epsilon),
// the unit column and k, and the rows' rho the mechanism ran at; n = k U is public (the number of
// units under replace-one, times k). The counts go to the curator file.
void state_units(nlohmann::ordered_json &sidecar, nlohmann::ordered_json &curator,
                 const ZcdpReleaseOptions &o, const ZcdpRun &run, double rho) {
  if (o.privacy_unit.empty()) return;
  state_unit_budget(sidecar, o, rho);
  curator["units"] = run.units.units;
  curator["rows_truncated_by_max_rows_per_unit"] = run.units.truncated;
  curator["zero_rows_padding_units"] = run.units.padded;
}

// The fields of a receipt after the release was charged: the ledger's state, the policy, the
// columns and a fixed seed.
void finish_receipt(nlohmann::ordered_json &sidecar, const ZcdpReleaseOptions &o,
                    const ZcdpRun &run, const char *policy) {
  if (run.ledger) {
    run.draws.charge({run.charge}, o.output.path);
    sidecar["ledger"] = run.ledger->summary();
  }
  sidecar["policy"] = policy;
  sidecar["columns"] = run.reader->column_names();
  if (o.seed) sidecar["seed"] = *o.seed;
}

// The curator-only file: diagnostics that depend on the data outside the mechanism.
nlohmann::ordered_json curator_file(const RowReader &reader, const char *output) {
  return {{"curator_only", concat("NOT FOR PUBLICATION: diagnostics that depend on the data "
                                  "outside the mechanism; publish the receipt beside the ",
                                  output, " instead")},
          {"input", reader.describe()}};
}

// `release -m coinpress_mean`: the private mean of the rows (a 1 x d matrix), one read of the
// input per step (zcdp_passes.hpp).
void run_coinpress_mean(const ZcdpReleaseOptions &o, double rho) {
  const MechanismOptions &m = o.mechanism;
  const double row_rho = zcdp_unit_row_rho(o, rho);
  ZcdpRun run(o, rho);
  const int64_t d = run.reader->dim();
  const RowBuffer rows =
      count_rows(*run.reader, std::numeric_limits<double>::infinity(), o.policy, o.quiet);
  if (rows.rows == 0) fail(kExitInputData, run.reader->name(), ": the input has no rows to release");
  // The plan at the public n (plan_zcdp), before any noise is drawn.
  const ZcdpPlan plan = plan_zcdp(o, row_rho, d, rows.rows);
  std::vector<double> mean(static_cast<size_t>(d));
  dpcov_coinpress_mean_receipt r{};
  r.struct_size = sizeof r;
  run.draws.check(coinpress_mean_passes(o, *run.input, plan, rows.rows, d, run.draws.rng(),
                                        mean.data(), &r),
                  "releasing with coinpress_mean");
  nlohmann::ordered_json sidecar =
      common_receipt(m.mechanism, &r, r.rho, r.epsilon, r.dim, false);
  sidecar["output"] = o.privacy_unit.empty()
                        ? "the private mean of the rows (1 x d)"
                        : "the private mean of the k U rows the units keep, zero rows padding "
                          "each unit to k (1 x d)";
  sidecar.update(mean_constants(r));
  nlohmann::ordered_json curator = curator_file(*run.reader, "mean");
  state_units(sidecar, curator, o, run, rho);
  // Charged before the outputs are written: a failure after this leaves the budget spent.
  finish_receipt(sidecar, o, run, "rows projected onto each step's ball inside the mechanism");
  write_outputs(o.output, mean.data(), 1, d, run.reader->column_names(), sidecar, curator);
  if (!o.quiet)
    std::fprintf(stderr, "dpcov release: coinpress_mean, rho %g (epsilon %g, delta %g), %lld columns\n",
                 rho, sidecar["epsilon"].get<double>(), *m.delta, static_cast<long long>(d));
}

// The public receipt of a coinpress release (`centring`: --center's mean, else empty).
nlohmann::ordered_json coinpress_sidecar(const ZcdpReleaseOptions &o,
                                         const dpcov_coinpress_receipt &r, double rho,
                                         const nlohmann::ordered_json &centring) {
  const MechanismOptions &m = o.mechanism;
  double epsilon = r.epsilon;
  if (o.center) library_check(dpcov_zcdp_epsilon(rho, *m.delta, &epsilon), "the total epsilon");
  nlohmann::ordered_json sidecar =
      common_receipt(m.mechanism, &r, o.center ? rho : r.rho, epsilon, r.dim, false);
  if (o.center) {
    sidecar["output"] = "n times the mechanism's estimate of the covariance of the rows centred "
                        "on the private mean of \"centring\" (n is public)";
    sidecar["rho_covariance"] = r.rho;
    sidecar["centring"] = centring;
  }
  sidecar.update(coinpress_constants(r));
  return sidecar;
}

// The public receipt of a Dong-Liang-Yi release.
nlohmann::ordered_json dly_sidecar(const ZcdpReleaseOptions &o, const dpcov_dly_receipt &r) {
  const MechanismOptions &m = o.mechanism;
  nlohmann::ordered_json sidecar =
      common_receipt(m.mechanism, &r, r.rho, r.epsilon, r.dim, false);
  sidecar.update(dly_constants(r));
  // Outputs of the private steps, covered by the budget.
  sidecar["branch"] = branch_name(r.branch);
  sidecar["clip_radius"] = r.clip_radius;
  sidecar["sigma_matrix"] = r.sigma_matrix;
  sidecar["sigma_eigenvalues"] = r.sigma_eigenvalues;
  if (r.first_look_settled >= 0) sidecar["first_look_settled"] = r.first_look_settled == 1;
  return sidecar;
}

// A release by passes over the input read again (zcdp_passes.hpp) into `released`; returns the
// public receipt.
nlohmann::ordered_json draw_by_passes(const ZcdpReleaseOptions &o, const ZcdpPlan &plan,
                                      double rho, int64_t n, int64_t d, ZcdpRun &run,
                                      std::vector<double> &released) {
  const ReleaseDraws &draws = run.draws;
  dpcov_dly_receipt dly{};
  dly.struct_size = sizeof dly;
  dpcov_coinpress_receipt coinpress{};
  coinpress.struct_size = sizeof coinpress;
  CentringMean centring;
  draws.check(zcdp_release_passes(o, *run.input, plan, n, d, draws.rng(), released.data(), &dly,
                                  &coinpress, &centring),
              concat("releasing with ", o.mechanism.mechanism));
  if (plan.mechanism != kCoinpress) return dly_sidecar(o, dly);
  nlohmann::ordered_json centring_json;
  if (o.center) {
    // The mean is an output of the private release (covered by rho_mean), as the matrix is.
    centring_json = {{"mechanism", kCoinpressMean},
                     {"rho", centring.receipt.rho},
                     {"mean", centring.mean}};
    centring_json.update(mean_constants(centring.receipt));
  }
  return coinpress_sidecar(o, coinpress, rho, centring_json);
}

// n is public here: the Gram estimate is post-processing. n times the estimate can overflow
// where the estimate does not (Dong-Liang-Yi's entries reach B^2, CoinPress's have no bound;
// refusing n B^2 > DBL_MAX up front would refuse releases whose noise and data are far below
// B^2): that fails after the draw, charged, and nothing is written.
void scale_to_gram(std::vector<double> &released, int64_t n, const ZcdpReleaseOptions &o,
                   const ZcdpRun &run) {
  for (double &v : released) v *= static_cast<double>(n);
  if (std::all_of(released.begin(), released.end(), [](double v) { return std::isfinite(v); }))
    return;
  run.draws.charge({run.charge}, concat(o.output.path, " (not written: n times the estimate "
                                                       "overflows, DPCOV_E_NUMERICAL)"));
  library_fail(DPCOV_E_NUMERICAL, concat("writing ", o.mechanism.mechanism, "'s release"),
               "n times its estimate of X^T X / n overflows the largest double");
}

}  // namespace

double zcdp_unit_row_rho(const ZcdpReleaseOptions &o, double rho) {
  if (o.privacy_unit.empty()) return rho;
  double out = 0.0;
  library_check_parameters(dpcov_unit_row_rho(DPCOV_NEIGHBOUR_REPLACE_ONE,
                                              DPCOV_NEIGHBOUR_REPLACE_ONE, o.max_rows_per_unit,
                                              rho, &out),
                           "the per-row rho of the privacy units");
  return out;
}

void state_unit_budget(nlohmann::ordered_json &receipt, const ZcdpReleaseOptions &o, double rho) {
  double epsilon = 0.0;
  library_check(dpcov_zcdp_epsilon(rho, *o.mechanism.delta, &epsilon), "the unit-level epsilon");
  receipt["privacy_unit"] = {{"column", o.privacy_unit},
                             {"max_rows_per_unit", o.max_rows_per_unit},
                             {"rows_per_unit", "exactly k: a random k of a unit's rows, or all "
                                               "of them and zero rows up to k"},
                             {"row_rho", receipt["rho"]},
                             {"proof", "proofs/unit_group_privacy.md"}};
  receipt["rho"] = rho;
  receipt["epsilon"] = epsilon;
}

void run_zcdp_release(const ZcdpReleaseOptions &o) {
  const MechanismOptions &m = o.mechanism;
  const double rho = zcdp_checked_rho(o);
  if (m.mechanism == kCoinpressMean) return run_coinpress_mean(o, rho);
  const bool coinpress = m.mechanism == kCoinpress;
  const double row_rho = zcdp_unit_row_rho(o, rho);
  ZcdpRun run(o, rho);
  const int64_t d = run.reader->dim();
  const double read_bound = coinpress ? std::numeric_limits<double>::infinity() : o.bound;
  // The input is read again for each pass instead of held (zcdp_passes.hpp).
  const RowBuffer rows = count_rows(*run.reader, read_bound, o.policy, o.quiet);
  if (rows.rows == 0) fail(kExitInputData, run.reader->name(), ": the input has no rows to release");
  // The plan at the public n (plan_zcdp), before any noise is drawn.
  const ZcdpPlan plan = plan_zcdp(o, row_rho, d, rows.rows);
  std::vector<double> released(static_cast<size_t>(d * d));
  nlohmann::ordered_json sidecar = draw_by_passes(o, plan, plan.rho, rows.rows, d, run, released);
  scale_to_gram(released, rows.rows, o, run);
  finish_receipt(sidecar, o, run,
                 coinpress ? "whitened rows clipped inside the mechanism" : o.policy.name());
  nlohmann::ordered_json curator = curator_file(*run.reader, "matrix");
  state_units(sidecar, curator, o, run, rho);
  curator["clipped"] = rows.clipped;
  if (rows.clipped > 0)
    std::fprintf(stderr,
                 "dpcov release: warning: %lld of %lld rows have a norm over --bound %g and were "
                 "scaled down to it (curator only: not for publication)\n",
                 static_cast<long long>(rows.clipped), static_cast<long long>(rows.rows),
                 o.bound);
  write_outputs(o.output, released.data(), d, d, run.reader->column_names(), sidecar, curator);
  if (!o.quiet)
    std::fprintf(stderr, "dpcov release: %s, rho %g (epsilon %g, delta %g), %lld columns\n",
                 m.mechanism.c_str(), rho, sidecar["epsilon"].get<double>(), *m.delta,
                 static_cast<long long>(d));
}

}  // namespace dpcov::cli
