// The rows of a regression on raw data (`regress --epsilon`): the regressors x and the label y
// gathered from the input's columns, a first pass that chooses a tighter bound on ||x|| privately,
// and the pass that accumulates [1, x, y] through the library's bounding.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include <dpcov.h>
#include <nlohmann/json.hpp>

#include "readers/row_reader.hpp"

namespace dpcov::cli {

// The input's columns of a regression: the label, the regressors, and the names of the terms.
struct RegressionColumns {
  int64_t label = -1;
  std::vector<int64_t> features;
  std::vector<std::string> terms;  // the intercept first when there is one
};

// Resolves --label and --features (default: every column but the label) against the input's
// column names. Throws CliError(kExitUsage) naming the option.
RegressionColumns resolve_regression_columns(const RowReader &reader, const std::string &label,
                                             const std::vector<std::string> &features,
                                             bool intercept);

// The first pass: the regressors' norms counted per cell of the candidates below `bound`
// (dpcov_private_bound_below_grid; private: the counts leave only through the mechanism), then
// the library's choice (dpcov_private_bound_tighten) with `epsilon` from `rng` near the
// `quantile` of the n norms (n public under replace-one). Throws CliError(kExitInputData) for an
// input without rows.
double choose_tighter_bound(RowReader &reader, const RegressionColumns &columns, double bound,
                            double quantile, double epsilon, dpcov_rng *rng);

// How the rows are bounded: x scaled to norm <= clip_bound (<= --bound), y clipped to
// [-label_bound, label_bound], a constant 1 in front with the intercept; with `reject`, a row
// over the user's `bound` or `label_bound` is refused at its file position instead. The rows are
// balanced (dpcov_row_bounding::balanced): [1, x sqrt(d) / clip_bound, y / label_bound], so that
// the fit does not depend on the units; regression_unit_factors() maps it back.
struct RegressionBounds {
  double bound = 0.0;
  double clip_bound = 0.0;
  double label_bound = 0.0;
  bool intercept = true;
  bool reject = false;
};

// The Gram matrix of [1,] x, y (q x q, row-major) and the accumulator's counters (curator only).
struct RegressionGram {
  std::vector<double> gram;
  int64_t rows = 0;
  int64_t clipped = 0;  // rows scaled down to the norm bound
  int64_t clamped = 0;  // values clamped to their --bounds range
};

// Streams every row of `reader` into the Gram matrix of its bounded [1, x, y], showing progress
// unless `quiet`. Throws CliError for a refused row or a failed library call.
RegressionGram accumulate_regression(RowReader &reader, const RegressionColumns &columns,
                                     const RegressionBounds &bounds, bool quiet);

// As accumulate_regression() into `gram`, an accumulator the caller made for a release of the
// rows bounded by regression_bounding(`bounds`) (a planned one, or one naming the release), kept
// for that release. Returns the rows read and the clipped count (no matrix: it stays in `gram`).
RegressionGram accumulate_regression_into(RowReader &reader, const RegressionColumns &columns,
                                          const RegressionBounds &bounds, dpcov_gram *gram,
                                          bool quiet);

// As accumulate_regression() for `regress --bounds`: every column of [x, y] mapped to [-1, 1] by
// its public range `lower`, `upper` (in that order) through the library's column bounds, a
// constant 1 in front: the Gram matrix of [1, z_x, z_y], no row clipped (values outside a range
// are clamped and counted in `clipped`, for the curator).
RegressionGram accumulate_scaled_regression(RowReader &reader, const RegressionColumns &columns,
                                            const std::vector<double> &lower,
                                            const std::vector<double> &upper, bool quiet);

// The library's norm bound of the bounded regressors [1, x'] (x' without the intercept) of
// `features` columns: sqrt(1 + d) with room for rounding, whatever the bounds. The bounded
// label's is 1.
double regressor_norm_bound(const RegressionBounds &bounds, int64_t features);

// The public factors (dpcov_row_bounding_coefficient_factors) that map each coefficient of a fit
// on the rows regression_bounding(`bounds`) gives, its standard error and interval ends, to the
// data's units: the intercept first, then the `features` slopes.
std::vector<double> regression_unit_factors(const RegressionBounds &bounds, int64_t features);

// How a fit on the rows regression_bounding(`bounds`) gives is reported: in the data's units,
// the bounds and the factors that mapped it there (the JSON record `units`), and the words of
// the text heading.
nlohmann::ordered_json balanced_units_json(const RegressionBounds &bounds, int64_t features);
std::string balanced_rows_text(bool intercept);

// Each of `values` (coefficients, standard errors, interval ends, in the regressors' order)
// multiplied by its factor: the fit on balanced rows in the data's units (post-processing;
// proofs/balanced_rows.md).
void scale_by_factors(const std::vector<double> &factors,
                      std::initializer_list<std::vector<double> *> values);

// The bounding accumulate_regression() applies (`bounds`), and accumulate_scaled_regression()'s
// for the ranges `lower`, `upper` (the pointers kept: they must outlive the spec).
dpcov_row_bounding regression_bounding(const RegressionBounds &bounds);
dpcov_row_bounding scaled_regression_bounding(const std::vector<double> &lower,
                                              const std::vector<double> &upper);

// Streams every row of `reader`, gathered as [x, y] and bounded by `spec` through the library
// (dpcov_row_bounding_apply), to `use` as a row-major block of `rows` x `cols` doubles: a second
// pass that sees the rows exactly as a fit bounded by `spec` read them.
void stream_bounded_rows(RowReader &reader, const RegressionColumns &columns,
                         const dpcov_row_bounding &spec,
                         const std::function<void(const double *, int64_t, int64_t)> &use);

}  // namespace dpcov::cli
