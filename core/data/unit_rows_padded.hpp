// The rows the zCDP row mechanisms (Dong-Liang-Yi, CoinPress, CoinPress mean) take from privacy
// units: exactly k rows per unit (proofs/unit_group_privacy.md, "Row mechanisms"), so that n = k U
// is public with the number of units and a unit's rows all replaced are k rows replaced. The rows
// a unit keeps are UnitSampler's (a uniformly random k-subset, by reservoir sampling with the
// release's generator), followed by zero rows up to k when the unit has fewer. This is the one
// place that policy lives: the command line and the bindings call it through the C ABI.
//
// The units' order is part of the policy, for a unit's choice depends on the generator's state
// when it arrives: callers hand units in order of their first row in the input, each unit's rows
// in input order (the command line groups them so through its spill files, Python by a stable
// sort), so that a seed keeps the same rows on every surface.
//
// A call takes whole units (a unit's rows must not continue in another call, or it would keep
// up to k rows per call): memory is the call's rows and its k U output rows, so a caller with
// more rows than memory calls it once per group of whole units.
#pragma once

#include <cstdint>

#include "../matrix.hpp"
#include "../random/rng.hpp"

namespace dpcov::data {

struct PaddedUnitCounts {
  int64_t units = 0;      // U: the output holds k U rows
  int64_t truncated = 0;  // rows left out by the k limit (curator only)
};

// Checks the rows as UnitSampler::check() does (k in [1, kMaxRowsPerUnit], finite rows, ids
// ascending with each unit contiguous) and counts the units and the rows beyond k in each,
// without drawing.
PaddedUnitCounts count_padded_unit_rows(ConstMatrixView raw, const int64_t *ids, int64_t k);

// Writes to `out` (k U rows, raw.cols columns, any layout) the rows the units of `raw` keep, unit
// after unit in the order of their ids: each unit's kept rows, then zero rows up to k. Everything
// is checked (count_padded_unit_rows(), then Status::Dimension unless out is k U x raw.cols)
// before the first draw, and `out` is written only after the last: on failure it is untouched.
PaddedUnitCounts keep_padded_unit_rows(ConstMatrixView raw, const int64_t *ids, int64_t k,
                                       random::Rng &rng, MatrixView out);

}  // namespace dpcov::data
