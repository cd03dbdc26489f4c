// `dpcov release` with the zCDP mechanisms that need the rows themselves, not their Gram matrix:
// Dong-Liang-Yi (dly_gauss, dly_separate, dly_adaptive, dly_adaptive_paper; dpcov/dong_liang_yi.h)
// and CoinPress (coinpress, and coinpress_mean for the mean; dpcov/coinpress.h). The rows are held in memory (O(n d)). The budget
// is given as (--epsilon, --delta) and run at the largest rho-zCDP that implies it
// (dpcov_zcdp_rho); n is public (replace-one), so the written matrix is n times the mechanism's
// estimate of X^T X / n: an estimate of the Gram matrix, as every other release writes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "../gram_stream.hpp"
#include "../ledger_file.hpp"
#include "input_options.hpp"
#include "mechanism_options.hpp"

namespace dpcov::cli {

// The CLI ids of these mechanisms, in the order `dpcov mechanisms` lists them.
const std::vector<std::string> &zcdp_rows_mechanisms();

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
};

// The release: reads the rows, runs the mechanism, writes the matrix, its public receipt and the
// curator-only diagnostics. Throws CliError for a usage error, bad data or a library failure.
void run_zcdp_release(const ZcdpReleaseOptions &o);

}  // namespace dpcov::cli
