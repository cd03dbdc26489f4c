// The definition behind the opaque dpcov_gram handle, shared by the entry points that read or
// build an accumulator (dpcov/gram.h, dpcov/sketch.h, dpcov/mechanism.h).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "../core/data/exact_gram.hpp"
#include "../core/data/gram.hpp"
#include "../core/data/row_bounding.hpp"
#include "../core/mechanisms/exact_additive.hpp"
#include "../core/data/unit_rows.hpp"
#include "dpcov/gram.h"

namespace dpcov::capi {

// The spec an accumulator was made from, as dpcov_gram_create_bounded() read it (its column
// bounds copied and its pointers cleared): what dpcov_gram_export_state() saves so that an
// imported state continues under the same bounding and grid.
struct StoredBounding {
  dpcov_row_bounding spec;
  std::vector<double> lower;
  std::vector<double> upper;

  bool operator==(const StoredBounding &other) const;
};

}  // namespace dpcov::capi

struct dpcov_gram {
  dpcov::GramAccumulator acc;
  // Set by dpcov_gram_create_bounded(): how dpcov_gram_add_raw_rows() bounds the raw rows.
  std::optional<dpcov::data::RowBounding> bounding = std::nullopt;
  // Set by dpcov_gram_create_bounded() with exact numerics: the exact integer Gram matrix on the
  // grid of the named release, which then holds the rows (`acc` stays empty).
  std::optional<dpcov::data::ExactGramAccumulator> exact = std::nullopt;
  // Set by dpcov_gram_create_bounded(): the spec behind `bounding` and `exact`.
  std::optional<dpcov::capi::StoredBounding> spec = std::nullopt;
  // Set by dpcov_gram_create_bounded() with max_rows_per_unit > 0: the units' reservoir sampling,
  // in front of `bounding`.
  std::optional<dpcov::data::UnitSampler> units = std::nullopt;
};

namespace dpcov::capi {

// DPCOV_E_INCOMPATIBLE for an accumulator with exact numerics, which `use` cannot read: its rows
// are integers on a grid, not a floating-point Gram matrix.
void refuse_exact_gram(const dpcov_gram &gram, const char *use);

// What a plan (dpcov_gram_create_planned) fixes of an accumulator: the release's fields of the
// spec, and the grid of an exact release, chosen by the plan and not searched again.
struct PlannedBounding {
  int32_t numerics;
  int32_t mechanism;
  double epsilon;
  double delta;
  int32_t neighbour;
  int64_t dim;
  double bound;
  const mechanisms::ExactGrid *grid;  // nullptr for idealized numerics

  // Puts the plan's release fields in `spec`.
  void apply(dpcov_row_bounding &spec) const;
  // Status::Incompatible unless the bounded rows have the plan's d and norm bound B.
  void check(const data::RowBounding &bounding) const;
};
// DPCOV_E_INCOMPATIBLE for an accumulator of privacy units, which `use` cannot read: its bound is
// per unit, not per row.
void refuse_unit_gram(const dpcov_gram &gram, const char *use);

// The bound of the rows (or, with privacy units, of each unit's contribution) the accumulator
// holds: the public bound a release from it takes (dpcov_gram_info::bound).
double accumulator_bound(const dpcov_gram &gram);

// The empty accumulator dpcov_gram_create_bounded() makes for raw rows of `cols` columns bounded
// as `spec` says (spec read up to its struct_size; its pointers not retained), or, with
// `planned`, dpcov_gram_create_planned() makes for that plan. Throws its statuses.
std::unique_ptr<dpcov_gram> bounded_gram(int64_t cols, const dpcov_row_bounding *spec,
                                         const PlannedBounding *planned = nullptr);

}  // namespace dpcov::capi
