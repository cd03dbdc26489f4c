#include "audit_command.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <dpcov.h>
#include <nlohmann/json.hpp>

#include "../cli_error.hpp"
#include "../io/json_text.hpp"
#include "../library_status.hpp"
#include "../options/input_options.hpp"
#include "../options/choice_names.hpp"
#include "../options/mechanism_options.hpp"
#include "../options/mechanism_registry.hpp"
#include "zcdp_release.hpp"

namespace dpcov::cli {

namespace {

// Projection rows r and posterior degrees of freedom m when not given: max(20, 2 d), as in the
// standard audit table (core/audit/standard_audit.cpp).
constexpr int64_t kDefaultProjectionRows = 20;
// The help of --projection-rows and --posterior-dof: the mechanisms that read the option.
std::string sized_help(int32_t option, const char *what) {
  return concat(names_reading(option), ": ", what, " (default max(", kDefaultProjectionRows,
                ", 2d))");
}

// Rows without --rows, where the auditor has no n of its own for the mechanism
// (dpcov_audit_standard_rows: a private test's threshold rows, where refusals and releases both
// occur).
constexpr int64_t kDefaultRows = 50;
// coinpress without --k-bound: K = 9, rows of norm 3 (the privacy test's setting).
constexpr double kDefaultKBound = 9.0;
// coinpress's t without --steps: the library's default (dpcov_coinpress_params_default), which
// the black-box audit runs; the exact audit runs any t (t >= 2 per step, on its transcript).
constexpr int64_t kDefaultCoinpressSteps = 3;
// The exact audit's neighbouring pairs: the axis pair and two rotations of it (--pairs).
constexpr int64_t kDefaultExactPairs = 3;
// coinpress_mean without --mean-radius: the prior ||mean|| <= 5 (the privacy test's setting).
constexpr double kDefaultMeanRadius = 5.0;

// Gram mechanisms without a standard pair for dpcov_audit_run (their registry entry's
// audit_dataset is -1): they have no closed-form output density, and are audited by the per-step
// check and the black-box audit of the test suite and bench/audit_table.
bool has_no_density(int32_t id) { return registry_entry(id).audit_dataset < 0; }

// The zCDP mechanisms on the rows (zcdp_release.hpp): audited with the exact density of their
// Gaussian release where there is one (dpcov_audit_rows_exact_pairs: dly_gauss, dly_separate's
// eigenvalue step, coinpress at t = 1 and, per step on its transcript, at t >= 2, on --pairs
// pairs), black-box otherwise (dpcov_audit_rows_black_box).
const std::vector<std::pair<std::string, int32_t>> kRowsMechanisms = {
    {"dly_gauss", DPCOV_AUDIT_ROWS_DLY_GAUSS},
    {"dly_separate", DPCOV_AUDIT_ROWS_DLY_SEPARATE},
    {"dly_adaptive", DPCOV_AUDIT_ROWS_DLY_ADAPTIVE},
    {"dly_adaptive_paper", DPCOV_AUDIT_ROWS_DLY_ADAPTIVE_PAPER},
    {"coinpress", DPCOV_AUDIT_ROWS_COINPRESS}};

// The statistics a black-box audit tests, each a row of the table.
const std::vector<std::pair<std::string, int32_t>> kStatistics = {
    {"top-eigenvalue", DPCOV_BLACK_BOX_TOP_EIGENVALUE},
    {"top-eigenvector-alignment", DPCOV_BLACK_BOX_TOP_EIGENVECTOR_ALIGNMENT}};

struct AuditOptions {
  std::vector<std::string> mechanisms{"all"};
  std::vector<double> epsilons;
  double delta = 1e-6;
  std::vector<int64_t> dims{3};
  int64_t rows = 0;  // 0: the auditor's standard rows
  double bound = 1.0;
  int64_t trials = 2000;
  int64_t first_checkpoint = 100;
  double alpha = 1e-6;
  uint64_t seed = 0;
  std::string dataset = "auto";
  std::string neighbour_kind = "auto";
  std::string neighbour = "replace-one";
  std::string calibration = "default";
  int64_t projection_rows = 0;
  int64_t posterior_dof = 0;
  bool audit_only_not_private = false;
  std::optional<double> k_bound;  // coinpress: K (kDefaultKBound); coinpress_mean: Cov <= K I
  std::optional<double> mean_radius;  // coinpress_mean (kDefaultMeanRadius)
  std::optional<int64_t> steps;       // coinpress, coinpress_mean
  std::string method = "auto";        // dly_*, coinpress: auto, exact, black-box, both
  int64_t pairs = kDefaultExactPairs;  // the exact audit of dly_*, coinpress
  int64_t unit_rows = 0;  // > 0: unit-level pairs of this many rows (dpcov_audit_units)
  bool json = false;
};

const NamedValues kDatasets = {
    {"random", DPCOV_AUDIT_DATA_RANDOM_ROWS},
    {"sphere", DPCOV_AUDIT_DATA_SPHERE_ROWS},
    {"repeated", DPCOV_AUDIT_DATA_REPEATED_ROWS},
    {"rank-deficient", DPCOV_AUDIT_DATA_RANK_DEFICIENT},
    {"nearly-singular", DPCOV_AUDIT_DATA_NEARLY_SINGULAR},
    {"tiny-n", DPCOV_AUDIT_DATA_TINY_N}};

const NamedValues kNeighbourKinds = {
    {"random", DPCOV_AUDIT_NEIGHBOUR_RANDOM},
    {"max-l2", DPCOV_AUDIT_NEIGHBOUR_MAX_L2_CHANGE},
    {"max-l1", DPCOV_AUDIT_NEIGHBOUR_MAX_L1_CHANGE},
    {"least-eigenvector", DPCOV_AUDIT_NEIGHBOUR_LEAST_EIGENVECTOR}};

// The calibrations of `release --calibration` that the audit takes: the Bingham ones calibrate iev
// and kt_rank1, which have no closed-form density to audit.
const std::vector<std::string> kAuditedCalibrations = {
    "default", "analytic-gaussian", "classical-gaussian", "laplace-upper-triangle",
    "laplace-published", "theorem"};

// The pair each mechanism's calibration is tightest for, the standard audit's choice, as its
// registry entry names it.
std::pair<int32_t, int32_t> auto_pair(int32_t id) {
  const dpcov_mechanism_entry entry = registry_entry(id);
  return {entry.audit_dataset, entry.audit_neighbour_kind};
}

struct Job {
  std::string name;
  int32_t id = 0;
  int32_t rows_mechanism = -1;  // a dpcov_audit_rows_mechanism: audited exactly or black-box
  bool coinpress_mean = false;  // audited by dpcov_audit_coinpress_mean
  bool no_density = false;      // iev, kt_rank1 in "all": listed, not audited here
};

std::vector<Job> selected_mechanisms(const AuditOptions &o) {
  std::vector<Job> library;
  for (const auto &[name, id] : library_mechanisms()) library.push_back({name, id});
  std::vector<Job> jobs;
  const bool all = o.mechanisms.size() == 1 && o.mechanisms.front() == "all";
  if (all) {
    // Every private id of dpcov mechanisms: those without a density are listed with the reason.
    for (Job job : library) {
      if (!o.audit_only_not_private && not_private(job.id)) continue;
      job.no_density = has_no_density(job.id);
      jobs.push_back(job);
    }
    if (o.unit_rows > 0) jobs.push_back({"adassp", DPCOV_MECHANISM_ADASSP});
    for (const auto &[name, value] : kRowsMechanisms) jobs.push_back({name, 0, value});
    jobs.push_back({"coinpress_mean", 0, -1, true});
    return jobs;
  }
  for (const std::string &wanted : o.mechanisms) {
    const auto found = std::find_if(library.begin(), library.end(),
                                    [&](const Job &job) { return job.name == wanted; });
    const auto rows = std::find_if(kRowsMechanisms.begin(), kRowsMechanisms.end(),
                                   [&](const auto &entry) { return entry.first == wanted; });
    if (rows != kRowsMechanisms.end()) {
      jobs.push_back({wanted, 0, rows->second});
      continue;
    }
    if (wanted == "coinpress_mean") {
      jobs.push_back({wanted, 0, -1, true});
      continue;
    }
    if (wanted == "adassp") {
      if (o.unit_rows == 0)
        fail(kExitUsage, "--mechanism: adassp is audited at the level of privacy units: give "
             "--unit-rows K (K = 1: units of one row, its row-level release)");
      jobs.push_back({wanted, DPCOV_MECHANISM_ADASSP});
      continue;
    }
    if (found == library.end()) {
      std::string known;
      for (const Job &job : library) known += (known.empty() ? "" : ", ") + job.name;
      fail(kExitUsage, "--mechanism: unknown mechanism '", wanted, "' (one of: all, ", known, ")");
    }
    if (has_no_density(found->id))
      fail(kExitUsage, "--mechanism: ", wanted, " has no closed-form output density; its ",
           "eigenvector steps are audited by the per-step check and the whole release by the ",
           "black-box audit (tests/privacy, bench/audit_table)");
    jobs.push_back(*found);
  }
  return jobs;
}

struct Row {
  std::string mechanism;
  double requested_epsilon = 0.0;
  int64_t dim = 0;
  int64_t n = 0;
  std::string dataset;
  std::string neighbour_kind;
  bool audited = false;
  std::string not_audited;  // the library's message when the audit could not run
  dpcov_audit_result result{};
  // Black-box rows (the zCDP mechanisms on the rows): the statistic, the rho audited, the result.
  std::string statistic;
  double rho = 0.0;
  std::optional<dpcov_black_box_result> black_box;
  std::optional<dpcov_coinpress_mean_audit_result> mean_audit;  // coinpress_mean
  std::optional<dpcov_rows_exact_audit_result> exact;  // dly_gauss, dly_separate, coinpress
  int64_t steps = 1;  // coinpress's t in the exact audit
  int64_t pairs = 0, worst_pair = 0;  // the exact audit's pairs and the worst (0: the axis pair)
  std::string why_black_box;  // the library's reason when there is no exact audit
  bool planted_broken = false;  // --unit-rows: the rows-only variant, expected to be flagged
};

int32_t verdict_of(const Row &row) {
  return row.black_box    ? row.black_box->verdict
         : row.mean_audit ? row.mean_audit->verdict
         : row.exact      ? row.exact->verdict
                          : row.result.verdict;
}

bool violated(const Row &row) {
  if (!row.audited || row.planted_broken) return false;
  return verdict_of(row) == DPCOV_AUDIT_VIOLATION;
}

// The options that do not apply to the audits of the zCDP mechanisms on the rows. Within "all"
// the options of the Gram mechanisms apply to those only, and a row says why an audit could not
// run.
void check_rows_options(const AuditOptions &o, const std::vector<Job> &jobs, bool all) {
  bool rows = false, coinpress = false, mean = false;
  for (const Job &job : jobs) {
    rows = rows || job.rows_mechanism >= 0 || job.coinpress_mean;
    coinpress = coinpress || job.rows_mechanism == DPCOV_AUDIT_ROWS_COINPRESS;
    mean = mean || job.coinpress_mean;
  }
  if (o.k_bound && !coinpress && !mean)
    fail(kExitUsage, "--k-bound applies to coinpress and coinpress_mean only");
  if (o.mean_radius && !mean) fail(kExitUsage, "--mean-radius applies to coinpress_mean only");
  if (o.steps && !coinpress && !mean)
    fail(kExitUsage, "--steps applies to coinpress and coinpress_mean only");
  if (o.k_bound && coinpress && mean)
    fail(kExitUsage, "--k-bound means K of coinpress's prior and coinpress_mean's Cov <= K I: "
         "audit them in separate calls");
  if (o.method != "auto" &&
      std::none_of(jobs.begin(), jobs.end(), [](const Job &job) { return job.rows_mechanism >= 0; }))
    fail(kExitUsage, "--method applies to dly_gauss, dly_separate, dly_adaptive, "
         "dly_adaptive_paper and coinpress only");
  if (o.pairs != kDefaultExactPairs &&
      std::none_of(jobs.begin(), jobs.end(), [](const Job &job) { return job.rows_mechanism >= 0; }))
    fail(kExitUsage, "--pairs applies to the exact audit of dly_gauss, dly_separate and coinpress "
         "only");
  if (!rows || all) return;
  if (o.dataset != "auto" || o.neighbour_kind != "auto" || o.neighbour != "replace-one" ||
      o.calibration != "default" || o.projection_rows || o.posterior_dof ||
      o.audit_only_not_private)
    fail(kExitUsage, "the zCDP mechanisms on the rows (dly_*, coinpress, coinpress_mean) are "
         "audited on their own replace-one pair: drop "
         "--dataset, --neighbour-kind, --neighbour, --calibration, --projection-rows, "
         "--posterior-dof and --audit-only-not-private");
  if (o.trials < 10 && o.method != "exact")
    fail(kExitUsage, "--trials must be >= 10 for a black-box audit, got ", o.trials);
}

// The exact-density audit of a zCDP mechanism on the rows at the rho whose (eps, delta) fits, on
// the library's pair (d = 3, n from rho). Without an exact audit (DPCOV_E_PRECONDITION) it
// returns no row and the library's reason in `why`, unless the exact audit alone was asked for.
std::optional<Row> audit_exact_job(const AuditOptions &o, const Job &job, double eps,
                                   std::string &why) {
  Row row;
  row.mechanism = job.name;
  row.requested_epsilon = eps;
  row.dim = 3;
  row.dataset = o.pairs > 1 ? concat("axis+", o.pairs - 1, "-rotated") : "axis";
  row.neighbour_kind = "max-l2";
  row.pairs = o.pairs;
  library_check(dpcov_zcdp_rho(eps, o.delta, &row.rho),
                concat("rho-zCDP for epsilon ", eps, ", delta ", o.delta));
  const bool coinpress = job.rows_mechanism == DPCOV_AUDIT_ROWS_COINPRESS;
  const int64_t steps = coinpress ? o.steps.value_or(kDefaultCoinpressSteps) : 1;
  row.steps = steps;
  dpcov_rows_exact_audit_result r{};
  r.struct_size = sizeof r;
  const dpcov_status status =
      dpcov_audit_rows_exact_pairs(job.rows_mechanism, steps, row.rho, o.delta, o.trials, o.alpha,
                                   o.seed, o.pairs, &r, &row.worst_pair);
  if (status == DPCOV_OK) {
    row.audited = true;
    row.exact = r;
    row.n = r.n;
    return row;
  }
  if (status == DPCOV_E_PRECONDITION && o.method != "exact") {
    why = dpcov_last_error_message();
    return std::nullopt;
  }
  row.not_audited = concat(dpcov_status_string(status), ": ", dpcov_last_error_message());
  return row;
}

// The exact audit of coinpress_mean at the rho whose (eps, delta) fits.
Row audit_coinpress_mean_job(const AuditOptions &o, const Job &job, double eps, int64_t d) {
  Row row;
  row.mechanism = job.name;
  row.requested_epsilon = eps;
  row.dim = d;
  row.n = o.rows > 0 ? o.rows : 50;
  row.dataset = "near-origin";
  row.neighbour_kind = "far-row";
  library_check(dpcov_zcdp_rho(eps, o.delta, &row.rho),
                concat("rho-zCDP for epsilon ", eps, ", delta ", o.delta));
  dpcov_coinpress_mean_params p{};
  library_check(dpcov_coinpress_mean_params_default(&p), "CoinPress mean defaults");
  p.rho = row.rho;
  p.delta = o.delta;
  p.radius = o.mean_radius.value_or(kDefaultMeanRadius);
  if (o.k_bound) p.scale = std::sqrt(*o.k_bound);
  if (o.steps) p.steps = *o.steps;
  dpcov_coinpress_mean_audit_result r{};
  r.struct_size = sizeof r;
  const dpcov_status status =
      dpcov_audit_coinpress_mean(d, row.n, &p, o.trials, o.alpha, o.seed, &r);
  if (status == DPCOV_OK) {
    row.audited = true;
    row.mean_audit = r;
  } else {
    row.not_audited = concat(dpcov_status_string(status), ": ", dpcov_last_error_message());
  }
  return row;
}

// The black-box audits of a zCDP mechanism on the rows at the rho whose (eps, delta) fits: one
// row per statistic.
std::vector<Row> audit_rows_job(const AuditOptions &o, const Job &job, double eps, int64_t d) {
  double rho = 0.0;
  library_check(dpcov_zcdp_rho(eps, o.delta, &rho),
                concat("rho-zCDP for epsilon ", eps, ", delta ", o.delta));
  const bool coinpress = job.rows_mechanism == DPCOV_AUDIT_ROWS_COINPRESS;
  const double scale = coinpress ? o.k_bound.value_or(kDefaultKBound) : o.bound;
  // The black-box audit runs CoinPress at its default number of steps.
  const bool other_steps = coinpress && o.steps && *o.steps != kDefaultCoinpressSteps;
  std::vector<Row> rows;
  for (const auto &[statistic, value] : kStatistics) {
    Row row;
    row.mechanism = job.name;
    row.requested_epsilon = eps;
    row.dim = d;
    row.n = o.rows > 0 ? o.rows : 50;
    row.dataset = "sphere";
    row.neighbour_kind = "max-l2";
    row.statistic = statistic;
    row.rho = rho;
    if (other_steps) {
      row.not_audited = concat("the black-box audit runs coinpress at t = ",
                               kDefaultCoinpressSteps, ", not --steps ", *o.steps);
      rows.push_back(row);
      continue;
    }
    dpcov_black_box_result r{};
    r.struct_size = sizeof r;
    const dpcov_status status = dpcov_audit_rows_black_box(
        job.rows_mechanism, d, row.n, rho, o.delta, scale, value, o.trials, o.alpha, o.seed, &r);
    if (status == DPCOV_OK) {
      row.audited = true;
      row.black_box = r;
    } else {
      row.not_audited = concat(dpcov_status_string(status), ": ", dpcov_last_error_message());
    }
    rows.push_back(row);
  }
  return rows;
}

// The draws' settings every audit through dpcov_audit_params shares.
dpcov_audit_params draw_settings(const AuditOptions &o) {
  dpcov_audit_params ap;
  library_check(dpcov_audit_params_default(&ap), "audit defaults");
  ap.trials = o.trials;
  ap.first_checkpoint = std::min(o.first_checkpoint, o.trials);
  ap.alpha = o.alpha;
  ap.seed = o.seed;
  return ap;
}

// A Gram-style row of `job` at (eps, d), not yet audited.
Row start_row(const Job &job, double eps, int64_t d) {
  Row row;
  row.mechanism = job.name;
  row.requested_epsilon = eps;
  row.dim = d;
  return row;
}

// The mechanism defaults with --neighbour's relation.
dpcov_mechanism_params relation_params(const AuditOptions &o) {
  dpcov_mechanism_params mp;
  library_check(dpcov_mechanism_params_default(&mp), "mechanism defaults");
  mp.neighbour = value_of(neighbour_values(), o.neighbour, "--neighbour");
  return mp;
}

// A row's outcome: audited, or the library's reason why not.
void record_status(Row &row, dpcov_status status) {
  if (status == DPCOV_OK) {
    row.audited = true;
  } else {
    row.not_audited = concat(dpcov_status_string(status), ": ", dpcov_last_error_message());
  }
}

// With --unit-rows, `broken` chooses the unit audit's planted variant.
Row audit_one(const AuditOptions &o, const Job &job, double eps, int64_t d, int32_t broken = 0) {
  Row row = start_row(job, eps, d);
  dpcov_mechanism_params mp = relation_params(o);
  mp.calibration = value_of(calibration_values(), o.calibration, "--calibration");
  mp.audit_only_not_private = o.audit_only_not_private && not_private(job.id) ? 1 : 0;
  const int64_t sized = std::max<int64_t>(kDefaultProjectionRows, 2 * d);
  if (reads_option(job.id, DPCOV_MECHANISM_OPTION_PROJECTION_ROWS))
    mp.projection_rows = o.projection_rows > 0 ? o.projection_rows : sized;
  if (reads_option(job.id, DPCOV_MECHANISM_OPTION_POSTERIOR_DOF))
    mp.posterior_dof = o.posterior_dof > 0 ? o.posterior_dof : sized;
  if (mp.calibration != DPCOV_CALIBRATION_DEFAULT) {
    // A calibration applies to some mechanisms only; the others audit their default.
    dpcov_receipt probe{};
    probe.struct_size = sizeof probe;
    if (dpcov_mechanism_plan(job.id, d, 1, o.bound, eps, o.delta, &mp, &probe) ==
        DPCOV_E_INVALID_ARGUMENT)
      mp.calibration = DPCOV_CALIBRATION_DEFAULT;
  }

  const auto [auto_data, auto_neighbour] = auto_pair(job.id);
  dpcov_audit_params ap = draw_settings(o);
  ap.dataset = o.dataset == "auto" ? auto_data : value_of(kDatasets, o.dataset, "--dataset");
  ap.neighbour_kind = o.neighbour_kind == "auto"
                          ? auto_neighbour
                          : value_of(kNeighbourKinds, o.neighbour_kind, "--neighbour-kind");
  row.dataset = name_of(kDatasets, ap.dataset);
  row.neighbour_kind = name_of(kNeighbourKinds, ap.neighbour_kind);

  // A request the library refuses keeps the default rows: the audit reports the refusal.
  row.n = o.rows;
  if (row.n == 0 && dpcov_audit_standard_rows(job.id, d, o.bound, eps, o.delta, &mp, kDefaultRows,
                                              &row.n) != DPCOV_OK)
    row.n = kDefaultRows;
  row.result.struct_size = sizeof row.result;
  const dpcov_status status =
      o.unit_rows > 0
          ? dpcov_audit_units(job.id, d, o.unit_rows, o.bound, eps, o.delta, broken, &mp, &ap,
                              &row.result)
          : dpcov_audit_run(job.id, d, row.n, o.bound, eps, o.delta, &mp, &ap, &row.result);
  record_status(row, status);
  return row;
}

// --unit-rows on a zCDP mechanism on the rows: units of exactly k rows released at rho / k^2, or
// with `broken` the units released at rho itself (dpcov_audit_rows_units), at the rho whose
// (eps, delta) fits, on the library's pair (d = 3), with at most `trials` draws.
Row audit_rows_unit_job(const AuditOptions &o, const Job &job, double eps, int32_t broken,
                        int64_t trials) {
  Row row;
  row.mechanism = job.name;
  row.requested_epsilon = eps;
  row.dim = 3;
  row.pairs = 1;
  library_check(dpcov_zcdp_rho(eps, o.delta, &row.rho),
                concat("rho-zCDP for epsilon ", eps, ", delta ", o.delta));
  const bool steps = job.coinpress_mean || job.rows_mechanism == DPCOV_AUDIT_ROWS_COINPRESS;
  row.steps = steps ? o.steps.value_or(kDefaultCoinpressSteps) : 1;
  const int32_t mechanism =
      job.coinpress_mean ? DPCOV_AUDIT_ROWS_COINPRESS_MEAN : job.rows_mechanism;
  dpcov_rows_exact_audit_result r{};
  r.struct_size = sizeof r;
  const dpcov_status status = dpcov_audit_rows_units(mechanism, row.steps, o.unit_rows, row.rho,
                                                     o.delta, broken, trials, o.alpha, o.seed,
                                                     &r);
  if (status == DPCOV_OK) {
    row.audited = true;
    row.exact = r;
    row.n = r.n;
  } else {
    row.not_audited = concat(dpcov_status_string(status), ": ", dpcov_last_error_message());
  }
  return row;
}

// --unit-rows on adassp: its exact audit on its own pair (p = d regressors, ||x|| and |y| <= B;
// dpcov_audit_units), of which the Gram mechanisms' options are no part.
Row audit_adassp_unit_job(const AuditOptions &o, const Job &job, double eps, int64_t d,
                          int32_t broken, bool all) {
  if (!all && (o.dataset != "auto" || o.neighbour_kind != "auto" || o.calibration != "default" ||
               o.projection_rows || o.posterior_dof || o.audit_only_not_private))
    fail(kExitUsage, "--unit-rows audits adassp on its own pair: drop --dataset, "
         "--neighbour-kind, --calibration, --projection-rows, --posterior-dof and "
         "--audit-only-not-private");
  Row row = start_row(job, eps, d);
  const dpcov_mechanism_params mp = relation_params(o);
  const dpcov_audit_params ap = draw_settings(o);
  row.result.struct_size = sizeof row.result;
  record_status(row, dpcov_audit_units(job.id, d, o.unit_rows, o.bound, eps, o.delta, broken,
                                       &mp, &ap, &row.result));
  return row;
}

// Within "all", the unit audits of the zCDP mechanisms on the rows take at most this many draws
// per direction, and run for K up to kAllRowsUnitMaxRows: their pairs hold K times the row-level
// rows and their time grows with K (the six at 300 draws, epsilon 0.9: 14 s of CPU at K = 3,
// 41 s at K = 10; at K = 60 minutes), so the command stays bounded; a planted variant the draws
// miss says so ("NOT flagged: too few rows or draws"). Named, they run at --trials and any K.
constexpr int64_t kAllRowsUnitTrials = 300;
constexpr int64_t kAllRowsUnitMaxRows = 10;

// The row of a mechanism "all" lists without a unit audit, saying why.
Row not_audited_unit_row(const AuditOptions &o, const std::string &name, std::string why) {
  Row row;
  row.mechanism = name;
  row.dim = o.dims.front();
  row.requested_epsilon = o.epsilons.front();
  row.neighbour_kind = concat("unit-of-", o.unit_rows);
  row.dataset = "released";
  row.not_audited = std::move(why);
  return row;
}

// The released and the planted rows of one mechanism's unit audit, `audit(broken)` each.
template <class Audit>
void push_unit_pair(std::vector<Row> &rows, const AuditOptions &o, const Audit &audit) {
  for (const int32_t broken : {0, 1}) {
    Row row = audit(broken);
    row.dataset = broken ? "rows-only" : "released";
    row.neighbour_kind = concat("unit-of-", o.unit_rows);
    row.planted_broken = broken == 1;
    rows.push_back(std::move(row));
  }
}

// --unit-rows: each mechanism with a unit proof on the pair that differs by one unit of k rows,
// its release of units and the planted variant that bounds rows but not units
// (dpcov_audit_units; the zCDP mechanisms on the rows: dpcov_audit_rows_units, within "all" at
// most kAllRowsUnitTrials draws and K <= kAllRowsUnitMaxRows, else listed with the reason).
// Within "all" a mechanism refused with units is listed as not audited, with the registry's
// reason.
std::vector<Row> audit_unit_jobs(const AuditOptions &o, const std::vector<Job> &jobs, bool all) {
  std::vector<Row> rows;
  for (const Job &job : jobs) {
    const bool on_rows = job.rows_mechanism >= 0 || job.coinpress_mean;
    if (on_rows) {
      if (o.k_bound || o.mean_radius || o.method != "auto" || o.pairs != kDefaultExactPairs)
        fail(kExitUsage, "--unit-rows audits ", job.name, " on its own pair (d = 3; coinpress "
             "K = 4; coinpress_mean ||mean|| <= 5, Cov <= I): drop --k-bound, --mean-radius, "
             "--method and --pairs");
      if (all && o.unit_rows > kAllRowsUnitMaxRows) {
        rows.push_back(not_audited_unit_row(
            o, job.name,
            concat("within 'all' its unit audit runs for --unit-rows up to ",
                   kAllRowsUnitMaxRows, " (its pairs hold K times the row-level rows, minutes ",
                   "at K = 60): name it (-m ", job.name, ") to audit it at K = ", o.unit_rows)));
        continue;
      }
      const int64_t trials = all ? std::min(o.trials, kAllRowsUnitTrials) : o.trials;
      for (const double eps : o.epsilons)
        push_unit_pair(rows, o, [&](int32_t broken) {
          return audit_rows_unit_job(o, job, eps, broken, trials);
        });
      continue;
    }
    if (job.id == DPCOV_MECHANISM_ADASSP) {
      for (const double eps : o.epsilons)
        for (const int64_t d : o.dims)
          push_unit_pair(rows, o, [&](int32_t broken) {
            return audit_adassp_unit_job(o, job, eps, d, broken, all);
          });
      continue;
    }
    const dpcov_mechanism_entry entry = registry_entry(job.id);
    if (*entry.unit_proof == '\0') {
      if (!all)
        fail(kExitUsage, "--unit-rows: ", job.name, " is refused with privacy units: ",
             entry.unit_refusal);
      rows.push_back(not_audited_unit_row(
          o, job.name, concat("refused with privacy units: ", entry.unit_refusal)));
      continue;
    }
    for (const double eps : o.epsilons)
      for (const int64_t d : o.dims)
        push_unit_pair(rows, o, [&](int32_t broken) {
          Row row = audit_one(o, job, eps, d, broken);
          row.n = 0;  // the pair is the library's (units, not a row count)
          return row;
        });
  }
  return rows;
}

const char *verdict(const Row &row) {
  if (!row.audited) return "not audited";
  if (row.planted_broken)
    return verdict_of(row) == DPCOV_AUDIT_VIOLATION ? "flagged (planted bug)"
                                                    : "NOT flagged: too few rows or draws";
  return violated(row) ? "violation" : "no violation found";
}

std::string findings_text(int32_t findings) {
  std::string out;
  const std::pair<int32_t, const char *> names[] = {
      {DPCOV_AUDIT_FINDING_LOSS_ABOVE_EPSILON, "loss_above_epsilon"},
      {DPCOV_AUDIT_FINDING_DELTA_EXCEEDED, "delta_exceeded"},
      {DPCOV_AUDIT_FINDING_GAUSSIAN_PROFILE_EXCEEDED, "gaussian_profile_exceeded"},
      {DPCOV_AUDIT_FINDING_SAMPLER_MISMATCH, "sampler_mismatch"},
      {DPCOV_AUDIT_FINDING_RHO_EXCEEDED, "rho_exceeded"}};
  for (const auto &[bit, name] : names)
    if (findings & bit) out += (out.empty() ? "" : ",") + std::string(name);
  return out;
}

std::string number(double x, int digits = 3) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*g", digits, x);
  return text;
}

// What the exact audit of a mechanism on the rows audits.
std::string job_exact_audit_name(const Row &row) {
  // --unit-rows: dpcov_audit_rows_units audits these too, in the same result.
  if (row.mechanism == "dly_adaptive" || row.mechanism == "dly_adaptive_paper")
    return "black-box (top-eigenvector alignment: no tractable density)";
  if (row.mechanism == "coinpress_mean")
    return "exact (every step's Gaussian density given the previous centre)";
  if (row.mechanism == "dly_separate")
    return "exact (Gaussian density of the eigenvalues, the eigenvalue step at rho / 2)";
  if (row.steps >= 2)
    return concat("exact (every step's Gaussian density given the earlier steps, t = ", row.steps,
                  ")");
  return "exact (Gaussian density of the upper triangle)";
}

// The fields that the exact audits of coinpress_mean and of the Gaussian releases on the rows share.
template <class Result>
void exact_fields(nlohmann::ordered_json &j, const std::string &audit, const Result &r) {
  j["audit"] = audit;
  j["rho"] = r.rho;
  j["claimed_epsilon"] = r.epsilon;
  j["claimed_delta"] = r.delta;
  j["delta_estimate"] = r.delta_estimate;
  j["delta_lower"] = r.delta_lower;
  j["rho_lower"] = r.rho_lower;
  j["conformance_distance"] = r.conformance_distance;
  j["conformance_threshold"] = r.conformance_threshold;
  j["alpha_per_test"] = r.alpha_per_test;
  j["detectable_delta"] = r.detectable_delta;
  j["samples"] = r.samples;
  j["findings"] = findings_text(r.findings);
}

// The table line of an exact audit with a rho bound (coinpress_mean, the Gaussian releases).
template <class Result>
std::string exact_line(const Row &row, const std::string &pair, const Result &r) {
  char line[512];
  const std::string estimate =
      number(r.delta_estimate) + " [" + number(r.delta_lower) + ", -] rho >= " + number(r.rho_lower);
  const std::string findings = findings_text(r.findings);
  std::snprintf(line, sizeof line, "%-26s %-6s %-8s %-3lld %-6lld %-30s %-34s %-9s %-8lld %s%s\n",
                row.mechanism.c_str(), number(r.epsilon).c_str(), number(r.delta).c_str(),
                static_cast<long long>(row.dim), static_cast<long long>(row.n), pair.c_str(),
                estimate.c_str(), "-", static_cast<long long>(r.samples), verdict(row),
                findings.empty() ? "" : (" (" + findings + ")").c_str());
  return line;
}

nlohmann::ordered_json row_json(const Row &row) {
  nlohmann::ordered_json j = {{"mechanism", row.mechanism},
                              {"requested_epsilon", row.requested_epsilon},
                              {"dim", row.dim},
                              {"n", row.n},
                              {"dataset", row.dataset},
                              {"neighbour_kind", row.neighbour_kind},
                              {"verdict", verdict(row)}};
  if (row.planted_broken) j["planted_broken"] = true;
  if (!row.audited) {
    j["error"] = row.not_audited;
    return j;
  }
  // The density audits draw the idealized (floating-point) release; say so where the mechanism
  // ships exact numerics by default.
  if (!row.mean_audit && !row.exact && !row.black_box && has_exact_numerics(row.mechanism))
    j["numerics_audited"] = "idealized";
  if (row.mean_audit) {
    const dpcov_coinpress_mean_audit_result &m = *row.mean_audit;
    exact_fields(j, "exact (every step's Gaussian density given the previous centre)", m);
    return j;
  }
  if (row.exact) {
    const dpcov_rows_exact_audit_result &e = *row.exact;
    exact_fields(j, job_exact_audit_name(row), e);
    if (row.mechanism == "coinpress") j["steps"] = row.steps;
    j["sigma"] = e.sigma;
    j["gaussian_delta_lower"] = e.gaussian_delta_lower;
    j["clamp_hits"] = e.clamp_hits;
    j["pairs"] = row.pairs;
    j["worst_pair"] = row.worst_pair == 0 ? "axis" : concat("rotated-", row.worst_pair);
    return j;
  }
  if (row.black_box) {
    const dpcov_black_box_result &b = *row.black_box;
    j["audit"] = "black-box";
    if (!row.why_black_box.empty()) j["why_black_box"] = row.why_black_box;
    j["statistic"] = row.statistic;
    j["rho"] = row.rho;
    j["claimed_epsilon"] = b.epsilon;
    j["claimed_delta"] = b.delta;
    j["delta_lower"] = b.delta_lower;
    j["alpha_per_bound"] = b.alpha_per_bound;
    j["detectable_delta"] = b.detectable_delta;
    j["samples"] = b.samples;
    return j;
  }
  const dpcov_audit_result &r = row.result;
  j["claimed_epsilon"] = r.epsilon;
  j["claimed_delta"] = r.delta;
  j["delta_estimate"] = r.delta_estimate;
  j["delta_lower"] = r.delta_lower;
  j["delta_upper"] = r.delta_upper;
  j["exceed_estimate"] = r.exceed_estimate;
  j["exceed_lower"] = r.exceed_lower;
  j["exceed_upper"] = r.exceed_upper;
  // JSON has no infinity: an infinite loss (a release outside the other dataset's support) is
  // written as the string "inf".
  j["max_loss"] = std::isinf(r.max_loss) ? nlohmann::ordered_json("inf") : nlohmann::ordered_json(r.max_loss);
  j["infinite_losses"] = r.infinite_losses;
  j["samples"] = r.samples;
  j["gaussian_delta_lower"] = r.gaussian_delta_lower;
  j["conformance_distance"] = r.conformance_distance;
  j["conformance_threshold"] = r.conformance_threshold;
  j["alpha_per_test"] = r.alpha_per_test;
  j["detectable_delta"] = r.detectable_delta;
  j["findings"] = findings_text(r.findings);
  return j;
}

// The power of each audit at the draws it took: without it, "no violation found" does not say
// how large a violation the draws would have missed.
std::string power_notes(const std::vector<Row> &rows) {
  std::ostringstream out;
  bool black_box = false;
  for (const Row &row : rows) {
    if (!row.audited) continue;
    black_box = black_box || row.black_box;
    const bool pure = !row.black_box && !row.mean_audit && !row.exact && row.result.delta == 0.0;
    const double detectable = row.black_box    ? row.black_box->detectable_delta
                              : row.mean_audit ? row.mean_audit->detectable_delta
                              : row.exact      ? row.exact->detectable_delta
                                               : row.result.detectable_delta;
    out << "  " << row.mechanism << " eps " << number(row.requested_epsilon) << " d " << row.dim
        << (row.black_box ? " (" + row.statistic + ")" : "")
        << (pure ? ": P(L > eps) >= " : ": delta(eps) >= ") << number(detectable) << "\n";
  }
  const std::string lines = out.str();
  if (lines.empty()) return lines;
  return std::string("\npower: the smallest violation each audit's draws flag about half the time "
                     "(an (eps, delta) claim: delta(eps); a pure claim: the probability of outputs "
                     "with L > eps") +
         (black_box ? "; black-box: P_D(S) on an event impossible under D'" : "") + "):\n" + lines;
}

// The table's note on the unit-level audits of the zCDP mechanisms on the rows.
constexpr const char *kRowsUnitsNote =
    "\nunits of the zCDP mechanisms on the rows: units of exactly K rows (--unit-rows) released "
    "at rho / K^2 (dpcov_unit_row_rho), on the pair of their row-level audit with its first K "
    "rows, one unit, all replaced (n a multiple of K); exact density for dly_gauss, dly_separate, "
    "coinpress and coinpress_mean, black-box (top-eigenvector alignment) for dly_adaptive and "
    "dly_adaptive_paper; 'rows-only' releases the same units at rho itself, a planted bug that "
    "spends K^2 rho on the pair (dpcov_audit_rows_units).\n";

// The table's note on AdaSSP's unit audit.
constexpr const char *kAdasspUnitsNote =
    "\nadassp: the exact density of its Gaussian release (lambda_min, X'X, X'y; and with y'y, "
    "each release at alpha / 2) on d regressors, rows ||x|| <= B and |y| <= B, the unit of K rows "
    "(B e_1, B) added or removed, or replaced by K rows (B e_2, -B); 'rows-only' releases it with "
    "the row-level calibration, a planted bug (dpcov_audit_units).\n";

// The note on the density audits of mechanisms that ship exact numerics: what was drawn.
std::string idealized_note(const std::vector<Row> &rows) {
  std::vector<std::string> idealized;
  for (const Row &row : rows)
    if (row.audited && !row.mean_audit && !row.exact && !row.black_box &&
        has_exact_numerics(row.mechanism) &&
        std::find(idealized.begin(), idealized.end(), row.mechanism) == idealized.end())
      idealized.push_back(row.mechanism);
  if (idealized.empty()) return "";
  std::string note = "\nnumerics:";
  for (const std::string &name : idealized) note += " " + name;
  return note + " release with exact numerics by default; this audit draws their idealized "
                "(floating-point) release and reads its continuous density, so it cannot see "
                "floating-point artefacts. Their exact release's law is audited by its exact PMF "
                "in the test suite (tests/privacy/exact_pmf_audit_test.cpp, docs/random.md).\n";
}

std::string table(const std::vector<Row> &rows, const AuditOptions &o) {
  std::ostringstream out;
  bool black_box = false, coinpress_mean = false, exact = false, coinpress_steps = false;
  bool rows_units = false;
  std::vector<std::string> why;  // one line per mechanism audited black-box for want of an exact audit
  out << "dpcov privacy audit: B = " << number(o.bound) << ", trials <= " << o.trials
      << " per direction, alpha = " << number(o.alpha) << " per audit, seed = " << o.seed << "\n"
      << "An audit can only find violations; \"no violation found\" is not a proof of privacy.\n\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-26s %-6s %-8s %-3s %-6s %-30s %-34s %-9s %-8s %s\n",
                "mechanism", "eps", "delta", "d", "n", "pair", "delta(eps) est [lower, upper]",
                "max L", "samples", "verdict");
  out << line;
  for (const Row &row : rows) {
    const std::string pair = row.neighbour_kind + "/" + row.dataset;
    if (!row.audited) {
      std::snprintf(line, sizeof line, "%-26s %-6s %-8s %-3lld %-6lld %-30s not audited: %s\n",
                    row.mechanism.c_str(), number(row.requested_epsilon).c_str(), "-",
                    static_cast<long long>(row.dim), static_cast<long long>(row.n), pair.c_str(),
                    row.not_audited.c_str());
      out << line;
      continue;
    }
    if (row.mean_audit) {
      out << exact_line(row, pair, *row.mean_audit);
      coinpress_mean = true;
      continue;
    }
    if (row.exact) {
      out << exact_line(row, pair + "/exact", *row.exact);
      rows_units = rows_units || o.unit_rows > 0;
      exact = exact || (o.unit_rows == 0 && row.steps < 2);
      coinpress_steps = coinpress_steps || (o.unit_rows == 0 && row.steps >= 2);
      continue;
    }
    if (row.black_box) {
      const dpcov_black_box_result &b = *row.black_box;
      const std::string note = row.mechanism + ": black-box, because " + row.why_black_box;
      if (!row.why_black_box.empty() && std::find(why.begin(), why.end(), note) == why.end())
        why.push_back(note);
      // The statistic, shortened to fit the column: top-eigen(value|vector-alignment).
      const std::string statistic_pair =
          pair + (row.statistic == "top-eigenvalue" ? "/eigenvalue" : "/eigenvector");
      std::snprintf(line, sizeof line, "%-26s %-6s %-8s %-3lld %-6lld %-30s %-34s %-9s %-8lld %s\n",
                    row.mechanism.c_str(), number(b.epsilon).c_str(), number(b.delta).c_str(),
                    static_cast<long long>(row.dim), static_cast<long long>(row.n),
                    statistic_pair.c_str(), ("black-box: lower " + number(b.delta_lower)).c_str(),
                    "-", static_cast<long long>(b.samples), verdict(row));
      out << line;
      black_box = true;
      continue;
    }
    const dpcov_audit_result &r = row.result;
    const std::string estimate = number(r.delta_estimate) + " [" + number(r.delta_lower) + ", " +
                                 number(r.delta_upper) + "]";
    const std::string findings = findings_text(r.findings);
    std::snprintf(line, sizeof line, "%-26s %-6s %-8s %-3lld %-6lld %-30s %-34s %-9s %-8lld %s%s\n",
                  row.mechanism.c_str(), number(r.epsilon).c_str(), number(r.delta).c_str(),
                  static_cast<long long>(row.dim), static_cast<long long>(row.n), pair.c_str(),
                  estimate.c_str(), number(r.max_loss, 4).c_str(),
                  static_cast<long long>(r.samples), verdict(row),
                  findings.empty() ? "" : (" (" + findings + ")").c_str());
    out << line;
  }
  if (black_box)
    out << "\nblack-box: the zCDP mechanisms on the rows, at the largest rho whose (epsilon, delta) "
           "fits, on rows of norm s (--bound; coinpress: sqrt(--k-bound)) with row 0 s e_1 -> "
           "s e_2; 'lower' bounds max over events S of P_D(S) - e^eps P_D'(S), a violation above "
           "delta (dpcov/audit.h, dpcov_audit_rows_black_box).\n";
  if (exact)
    out << "\nexact: dly_gauss, dly_separate (its eigenvalue step, claimed at rho / 2) and "
           "coinpress with --steps 1 (K = 4), with the exact Gaussian density of their release on "
           "d = 3 rows of norm s, row 0 2s e_1 -> 2s e_2 (clipped to s), n chosen from rho so that "
           "the eigenvalue clamp cannot bind, and (--pairs) that pair rotated by random "
           "orthogonal matrices from --seed, each pair at alpha / pairs, the worst reported; "
           "'rho >=' is the lower confidence bound on the rho spent, a violation above the claimed "
           "rho (dpcov_audit_rows_exact_pairs).\n";
  if (coinpress_steps)
    out << "\nexact: coinpress with --steps t >= 2 (K = 4), with the exact loss of its whole "
           "transcript (each step's noisy second moment Gaussian given the earlier ones, recomputed "
           "from the claimed plan; the transcript stays inside the library) on d = 3 rows far out "
           "on the axes, row 0 F e_1 -> F e_2, every row clipped at every step, n chosen from rho "
           "so that every step's noise is below gamma^2 / 400, and (--pairs) that pair rotated by "
           "random orthogonal matrices from --seed, each pair at alpha / pairs, the worst "
           "reported; 'rho >=' is the lower confidence bound on the rho spent, a violation above "
           "the claimed rho (dpcov_audit_rows_exact_pairs).\n";
  out << idealized_note(rows);
  if (rows_units) out << kRowsUnitsNote;
  if (std::any_of(rows.begin(), rows.end(), [](const Row &r) { return r.mechanism == "adassp"; }))
    out << kAdasspUnitsNote;
  out << power_notes(rows);
  for (const std::string &note : why) out << "\n" << note << "\n";
  if (coinpress_mean)
    out << "\ncoinpress_mean: the exact loss of the whole t-step release (each step Gaussian given "
           "the previous public centre) on n - 1 rows near the origin and one row at +-F e_1; "
           "'rho >=' is the lower confidence bound on the rho spent, a violation above the claimed "
           "rho (dpcov_audit_coinpress_mean).\n";
  return out.str();
}

void run_audit(const AuditOptions &o) {
  if (o.epsilons.empty()) fail(kExitUsage, "--epsilon: at least one value is required");
  for (const double eps : o.epsilons)
    if (!(std::isfinite(eps) && eps > 0.0))
      fail(kExitUsage, "--epsilon must be finite numbers > 0, got ", eps);
  check_bound(o.bound, "--bound");
  if (o.trials < 2) fail(kExitUsage, "--trials must be >= 2, got ", o.trials);
  if (o.trials > DPCOV_AUDIT_MAX_TRIALS)
    fail(kExitUsage, "--trials must be at most ", DPCOV_AUDIT_MAX_TRIALS,
         " (DPCOV_AUDIT_MAX_TRIALS, a bound on an audit's time and memory), got ", o.trials);
  if (!(o.alpha > 0.0 && o.alpha < 1.0)) fail(kExitUsage, "--alpha must be in (0, 1), got ", o.alpha);
  const bool all = o.mechanisms.size() == 1 && o.mechanisms.front() == "all";
  const std::vector<Job> jobs = selected_mechanisms(o);
  check_rows_options(o, jobs, all);

  std::vector<Row> rows;
  if (o.unit_rows > 0) rows = audit_unit_jobs(o, jobs, all);
  for (const Job &job : o.unit_rows > 0 ? std::vector<Job>{} : jobs)
    for (const double eps : o.epsilons) {
      // The exact audit has its own pair (d = 3): once per epsilon, whatever --dims.
      std::string why;
      const bool exact = job.rows_mechanism >= 0 && o.method != "black-box";
      if (exact)
        if (std::optional<Row> row = audit_exact_job(o, job, eps, why)) {
          rows.push_back(std::move(*row));
          if (o.method != "both") continue;
        }
      for (const int64_t d : o.dims) {
        if (job.no_density) {
          Row row;
          row.mechanism = job.name;
          row.requested_epsilon = eps;
          row.dim = d;
          row.not_audited = "no closed-form output density: its eigenvector steps are audited by "
                            "the per-step check and the whole release black-box (tests/privacy, "
                            "bench/audit_table)";
          rows.push_back(row);
          continue;
        }
        if (job.coinpress_mean) {
          rows.push_back(audit_coinpress_mean_job(o, job, eps, d));
          continue;
        }
        if (job.rows_mechanism < 0) {
          rows.push_back(audit_one(o, job, eps, d));
          continue;
        }
        for (Row &row : audit_rows_job(o, job, eps, d)) {
          row.why_black_box = why;
          rows.push_back(std::move(row));
        }
      }
    }

  bool violation = false;
  for (const Row &row : rows) violation = violation || violated(row);
  std::string text;
  if (o.json) {
    nlohmann::ordered_json j = {{"command", "audit"},
                                {"library_version", dpcov_version_string()},
                                {"bound", o.bound},
                                {"trials", o.trials},
                                {"alpha", o.alpha},
                                {"seed", o.seed},
                                {"violation", violation},
                                {"audits", nlohmann::ordered_json::array()}};
    for (const Row &row : rows) j["audits"].push_back(row_json(row));
    text = json_text(j);
  } else {
    text = table(rows, o);
  }
  if (std::fputs(text.c_str(), stdout) < 0 || std::fflush(stdout) != 0)
    fail(kExitIo, "<stdout>: write error");
  // A mechanism named on its own that cannot be audited at these settings is an error; within
  // "all" its row says why and the others still count.
  if (!all)
    for (const Row &row : rows)
      if (!row.audited) fail(kExitPrivacy, row.mechanism, " could not be audited: ", row.not_audited);
  if (violation) throw CliError(kExitViolation, "the audit found a privacy violation (see the table)");
}

void add_unit_rows_option(CLI::App &command, AuditOptions &options) {
  command.add_option("--unit-rows", options.unit_rows,
                     "Audit at the level of privacy units (docs/privacy-units.md): each mechanism "
                     "with a unit proof on a pair that differs by one unit of K rows on the "
                     "bound, its release of units and, as a planted bug the audit should flag, "
                     "the same mechanism bounding rows but not units (dpcov_audit_units; d >= 2; "
                     "dly_*, coinpress, coinpress_mean: units of exactly K rows at rho / K^2 "
                     "against rho at K^2 rho, dpcov_audit_rows_units, within 'all' for K <= 10 at "
                     "most 300 draws each; adassp: d regressors, |y| <= B too, its releases with "
                     "and without y'y). Within 'all' the mechanisms refused with units are "
                     "listed as not audited, with the registry's reason")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 20));
}

// The options of the zCDP mechanisms on the rows (coinpress, coinpress_mean, dly_*).
void add_row_mechanism_options(CLI::App &command, AuditOptions &options) {
  command.add_option("--k-bound", options.k_bound,
                     "coinpress: K of its prior I <= Sigma <= K I; the audited rows have norm "
                     "sqrt(K) (default 9). coinpress_mean: the prior Cov <= K I (default 1)");
  command.add_option("--mean-radius", options.mean_radius,
                     "coinpress_mean: r of the prior ||mean|| <= r (default 5)");
  command.add_option("--steps", options.steps,
                     "coinpress, coinpress_mean: the number of steps t (default 3); coinpress's "
                     "exact audit runs any t (t >= 2 step by step), its black-box audit t = 3");
  command.add_option("--method", options.method,
                     "dly_*, coinpress: auto (default: the exact-density audit where the release "
                     "has one, black-box otherwise), exact, black-box, both. The exact audit has "
                     "its own pairs (d = 3, rows of norm 1, coinpress K = 4, n from rho): --dims, "
                     "--rows, --bound and --k-bound apply to the black-box audit")
      ->check(CLI::IsMember({"auto", "exact", "black-box", "both"}));
  command.add_option("--pairs", options.pairs,
                     "dly_*, coinpress exact audit: neighbouring pairs audited, the worst "
                     "reported: the axis pair and --pairs - 1 rotations of it drawn from --seed, "
                     "each at --alpha / pairs (default 3, at most 64)")
      ->check(CLI::Range(int64_t{1}, int64_t{64}));
}

}  // namespace

bool audit_runs(const dpcov_mechanism_entry &entry) {
  return command_line_runs(entry) && entry.audit_dataset >= 0;
}

void add_audit_command(CLI::App &app, std::function<void()> &run) {
  auto options = std::make_shared<AuditOptions>();
  CLI::App *command = app.add_subcommand(
      "audit",
      "Audit mechanisms on generated neighbouring datasets: the privacy loss of each release "
      "from its claimed density, delta(epsilon) with confidence bounds, and the conformance of "
      "the draws with the claimed law. The zCDP mechanisms on the rows run at the largest rho "
      "whose (epsilon, delta) fits: dly_gauss, dly_separate (its eigenvalue step) and coinpress "
      "with --steps 1 are audited with the exact density of their Gaussian release, coinpress "
      "with --steps t >= 2 with the exact density of every step given the earlier ones, "
      "on --pairs neighbouring pairs, the worst reported (dpcov_audit_rows_exact_pairs; "
      "--method black-box or both for the black-box audit); "
      "dly_adaptive and dly_adaptive_paper, whose outputs have no "
      "tractable density, black-box (the table says why); coinpress_mean with the exact density "
      "of every step given the previous public centre. Exit code 6 when a violation is found.");
  command->add_option("--mechanism,-m", options->mechanisms,
                      "Mechanisms, comma-separated, or 'all' (default): every private id of dpcov "
                      "mechanisms (iev and kt_rank1, without a closed-form density, listed as not "
                      "audited with the reason); the non-private ones (wishart_jiang) only with "
                      "--audit-only-not-private. Within 'all' the options of the Gram mechanisms "
                      "(--dataset, --neighbour-kind, ...) do not apply to the mechanisms on the "
                      "rows")
      ->delimiter(',')
      ->allow_extra_args(false);
  command->add_option("--epsilon,-e", options->epsilons, "Privacy parameter(s) epsilon, comma-separated")
      ->required()
      ->delimiter(',')
      ->allow_extra_args(false);
  command->add_option("--delta", options->delta,
                      "Privacy parameter delta of (epsilon, delta) mechanisms (default 1e-6; pure "
                      "mechanisms claim 0)");
  command->add_option("--dims", options->dims, "Dimension(s) d, comma-separated (default 3)")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->check(CLI::PositiveNumber);
  command->add_option("--rows,-n", options->rows,
                      "Rows n of the generated dataset (default 50, or for a mechanism with a "
                      "private test the auditor's rows, where the test is undecided)")
      ->check(CLI::PositiveNumber);
  command->add_option("--bound", options->bound, "Euclidean norm bound B of every row (default 1)");
  command->add_option("--trials", options->trials,
                      "Maximum draws per direction, at most 10^7 (default 2000; black-box: draws "
                      "per dataset, >= 10, and a pilot of a fifth more)");
  command->add_option("--first-checkpoint", options->first_checkpoint,
                      "Draws per direction at the first look, then doubling (default 100)")
      ->check(CLI::Range(int64_t{2}, int64_t{1} << 40));
  command->add_option("--alpha", options->alpha,
                      "Probability of flagging a mechanism that matches its claim (default 1e-6)");
  command->add_option("--seed", options->seed, "Seed of the data generation and the draws (default 0)");
  command->add_option("--dataset", options->dataset,
                      "Generated data: auto (per mechanism, default), random, sphere, repeated, "
                      "rank-deficient, nearly-singular, tiny-n")
      ->check(CLI::IsMember([] {
        std::vector<std::string> names = names_of(kDatasets);
        names.insert(names.begin(), "auto");
        return names;
      }()));
  command->add_option("--neighbour-kind", options->neighbour_kind,
                      "Choice of the neighbour: auto (the adversarial pair per mechanism, "
                      "default), random, max-l2, max-l1, least-eigenvector")
      ->check(CLI::IsMember([] {
        std::vector<std::string> names = names_of(kNeighbourKinds);
        names.insert(names.begin(), "auto");
        return names;
      }()));
  command->add_option("--neighbour", options->neighbour,
                      "Neighbouring relation: replace-one (default) or add-remove")
      ->transform(either_separator(names_of(neighbour_values())))
      ->check(CLI::IsMember(names_of(neighbour_values())));
  command->add_option("--calibration", options->calibration,
                      names_reading(DPCOV_MECHANISM_OPTION_CALIBRATION) +
                          ": noise calibration where it applies (default: each mechanism's "
                          "default)")
      ->transform(either_separator(kAuditedCalibrations))
      ->check(CLI::IsMember(kAuditedCalibrations));
  command->add_option("--projection-rows", options->projection_rows,
                      sized_help(DPCOV_MECHANISM_OPTION_PROJECTION_ROWS, "projection rows r"));
  command->add_option("--posterior-dof", options->posterior_dof,
                      sized_help(DPCOV_MECHANISM_OPTION_POSTERIOR_DOF, "degrees of freedom m"));
  add_row_mechanism_options(*command, *options);
  add_unit_rows_option(*command, *options);
  command->add_flag("--audit-only-not-private", options->audit_only_not_private,
                    "Run the NON-private mechanisms (wishart_jiang) as audit targets");
  command->add_flag("--json", options->json, "Print the audits as JSON");
  command->callback([&run, options] { run = [options] { run_audit(*options); }; });
}

}  // namespace dpcov::cli
