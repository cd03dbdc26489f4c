// `dpcov release` with the zCDP mechanisms that need the rows themselves, not their Gram matrix:
// Dong-Liang-Yi (dly_gauss, dly_separate, dly_adaptive, dly_adaptive_paper; dpcov/dong_liang_yi.h)
// and CoinPress (coinpress, and coinpress_mean for the mean; dpcov/coinpress.h). Each reads the
// input once per pass (zcdp_passes.hpp: memory O(d^2 + chunk); standard input through a spool on
// disk), coinpress --center the mean's passes then the covariance's on the centred rows. The
// budget is given as (--epsilon, --delta) and run at the largest rho-zCDP that implies it
// (dpcov_zcdp_rho); n is public (replace-one), so the written matrix is n times the mechanism's
// estimate of X^T X / n: an estimate of the Gram matrix, as every other release writes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <dpcov.h>
#include <nlohmann/json.hpp>

#include "../io/gram_stream.hpp"
#include "../ledger/ledger_file.hpp"
#include "../options/input_options.hpp"
#include "../options/mechanism_options.hpp"

namespace dpcov::cli {

// The CLI ids of these mechanisms, in the order `dpcov mechanisms` lists them.
const std::vector<std::string> &zcdp_rows_mechanisms();

// zcdp_rows_mechanisms(), comma-separated, for --help.
std::string zcdp_rows_mechanism_list();

// Whether `name` is one of zcdp_rows_mechanisms().
bool is_zcdp_rows_mechanism(const std::string &name);

struct ZcdpReleaseOptions {
  InputOptions input;
  OutputOptions output;
  MechanismOptions mechanism;
  double bound = 0.0;                // Dong-Liang-Yi: r, the row norm bound
  std::optional<double> k_bound;     // CoinPress: K of the prior I <= Sigma <= K I
  std::optional<int64_t> steps;      // CoinPress: t
  std::optional<double> mean_radius; // CoinPress mean: r of the prior ||mu|| <= r
  bool center = false;               // CoinPress: centre the rows on a CoinPress mean first
  LedgerOptions ledger;              // CoinPress: charged as one rho-zCDP release
  BoundPolicy policy;
  std::optional<uint64_t> seed;
  bool quiet = false;
  std::string privacy_unit;       // --privacy-unit COLUMN (io/unit_rows.hpp)
  int64_t max_rows_per_unit = 0;  // --max-rows-per-unit K
};

// Registers --k-bound, --steps, --mean-radius and --center (the settings of coinpress and
// coinpress_mean) on `command`.
void add_zcdp_options(CLI::App &command, std::optional<double> &k_bound,
                      std::optional<int64_t> &steps, std::optional<double> &mean_radius,
                      bool &center);

// Checks the options of a release or plan of one of these mechanisms (each mechanism's required
// and inapplicable options, --delta) and returns the largest rho whose (epsilon, delta) fits.
// Throws CliError(kExitUsage) naming the option.
double zcdp_checked_rho(const ZcdpReleaseOptions &o);

// The rho the mechanism runs at on the rows: with --privacy-unit, rho / k^2 (a unit replaced is
// k rows replaced; dpcov_unit_row_rho), else rho. Throws CliError for a k the library refuses.
double zcdp_unit_row_rho(const ZcdpReleaseOptions &o, double rho);

// With --privacy-unit, what a receipt (the release's or the plan's, made at the row rho) states:
// the unit-level budget `rho` and its epsilon, the unit column and k, and the rows' rho in
// `privacy_unit.row_rho`; nothing data-dependent.
void state_unit_budget(nlohmann::ordered_json &receipt, const ZcdpReleaseOptions &o, double rho);

// A release's settings, as the library takes them, and its public data-independent receipt.
struct ZcdpPlan {
  std::string mechanism;                 // the CLI id
  double rho = 0.0;                      // the total budget
  dpcov_dly_params dly{};                // the Dong-Liang-Yi ids
  dpcov_coinpress_params coinpress{};    // coinpress
  dpcov_coinpress_mean_params mean{};    // coinpress_mean, and the centring mean of --center
  nlohmann::ordered_json centring;       // coinpress --center: the mean's constants
  nlohmann::ordered_json receipt;        // what `dpcov plan` prints
};

// The plan of a release of n rows in `dim` columns at `rho` (from zcdp_checked_rho): every
// constant from the library's plan functions (dpcov_dly_plan, dpcov_coinpress_plan,
// dpcov_coinpress_mean_plan), reading no data. Throws CliError for settings the library refuses.
// n is the public n of the replace-one guarantee (the rows' count, or `plan --rows`), never a
// stand-in: the constants depend on it (CoinPress mean's radii and noise, Dong-Liang-Yi's noise),
// and a plan at n = 1 refused settings that the release at the real n allows (a Dong-Liang-Yi
// bound of 1e153, a CoinPress mean radius of 1e305).
ZcdpPlan plan_zcdp(const ZcdpReleaseOptions &o, double rho, int64_t dim, int64_t n);

// coinpress --center's first step on rows in memory (`dpcov compare`): the private mean of the
// n x d row-major `rows` by plan.mean (the centring share of rho), written to `mean` (d values),
// and every row centred on it in place. Returns the library's status; nothing is changed on failure.
dpcov_status centre_on_private_mean(const ZcdpPlan &plan, RowBuffer &rows, int64_t dim,
                                    dpcov_rng *rng, std::vector<double> &mean,
                                    dpcov_coinpress_mean_receipt &receipt);

// One release by `plan` (dly_*, or coinpress with or without --center) on the n x d row-major
// `rows`: writes n times the estimate of X^T X / n (coinpress --center: of the covariance of the
// rows centred on its private mean) (d x d, row-major) to `gram`. Returns the library's status;
// `gram` is untouched on failure.
dpcov_status zcdp_release_gram(const ZcdpPlan &plan, const RowBuffer &rows, int64_t dim,
                               dpcov_rng *rng, double *gram);

// The release: reads the rows, runs the mechanism, writes the matrix, its public receipt and the
// curator-only diagnostics. Throws CliError for a usage error, bad data or a library failure.
void run_zcdp_release(const ZcdpReleaseOptions &o);

}  // namespace dpcov::cli
