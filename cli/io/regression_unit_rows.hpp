// The rows of `regress --privacy-unit COLUMN --max-rows-per-unit K`: [1, x, y] gathered from the
// input's columns and bounded as for a row-level fit, at most K rows of each unit kept by the
// library's accumulator of units (unit_stream.hpp: any order of the units), for AdaSSP at the
// level of units (proofs/adassp_units.md).
#pragma once

#include <cstdint>
#include <string>

#include <dpcov.h>

#include "readers/row_reader.hpp"
#include "regression_rows.hpp"

namespace dpcov::cli {

// Why a fit at the level of privacy units has no intervals: the words of every surface (Python's
// dpcov.adassp_units.UNITS_NO_INTERVALS).
inline constexpr const char *kUnitsNoIntervals =
    "the fit is at the level of privacy units: AdaSSP's intervals condition on a public number "
    "of rows, which units keep private (between U and k U rows for U units), and on independent "
    "rows, which one person's rows need not be (proofs/adassp_units.md, Intervals); no y'y was "
    "released, so the whole budget went to the three statistics";

// The Gram matrix of the kept rows' bounded [1, x, y] and the curator's counters.
struct UnitRegressionGram {
  RegressionGram data;
  int64_t units = 0;
  int64_t truncated = 0;  // rows left out by the K limit
};

// Reads every row of `reader`, the unit of each in column `unit_column` (by name), and keeps at
// most `max_rows_per_unit` rows of each unit drawn from `rng` (the fit's generator), each
// bounded by regression_bounding(`bounds`). Throws CliError for an unknown column, a bad unit id
// or a failed library call.
UnitRegressionGram accumulate_regression_units(RowReader &reader, const RegressionColumns &columns,
                                               const RegressionBounds &bounds,
                                               const std::string &unit_column,
                                               int64_t max_rows_per_unit, dpcov_rng *rng,
                                               bool quiet);

}  // namespace dpcov::cli
