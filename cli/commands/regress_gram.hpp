// `dpcov regress FILE --epsilon E -m MECHANISM` with a Gram mechanism: the release of the bounded
// rows [1, x, y], the OLS fit read from it and its noise-aware intervals, robust (sandwich) by
// default, the steps and generator draws of Python's PrivateLinearRegression(mechanism=...)
// in the same order (docs/regression_intervals.md, "The Gram mechanisms' regressions").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../analysis/regression_intervals.hpp"
#include "../io/regression_rows.hpp"
#include "../options/raw_regress_options.hpp"

namespace dpcov::cli {

// What a regression of raw rows by a Gram mechanism reads from the command line.
struct GramRegressRequest {
  std::string path;
  std::string label;
  std::vector<std::string> features;
  const RawRegressOptions *raw = nullptr;
  RawRegressSettings settings;
  double level = 0.95;
  BootstrapSettings bootstrap;  // no seed: the intervals draw from the release's generator
  bool json = false;
};

// The curator's warning that rows were clipped (or, `scaled`, values clamped to their --bounds
// range): never silent, on standard error, with the number of rows only where it is public;
// `tightened`: the rows were clipped at a bound a bound step chose below --bound.
void warn_clipped_rows(const RegressionGram &data, bool n_public, bool scaled, bool tightened);

// Reads the rows (twice with robust errors: the fit, then the meat), releases, fits, prints.
void run_regress_gram(const GramRegressRequest &request);

}  // namespace dpcov::cli
