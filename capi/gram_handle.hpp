// The definition behind the opaque dpcov_gram handle, shared by the entry points that read or
// build an accumulator (dpcov/gram.h, dpcov/sketch.h, dpcov/mechanism.h).
#pragma once

#include <optional>

#include "../core/data/exact_gram.hpp"
#include "../core/data/gram.hpp"
#include "../core/data/row_bounding.hpp"
#include "dpcov/gram.h"

struct dpcov_gram {
  dpcov::GramAccumulator acc;
  // Set by dpcov_gram_create_bounded(): how dpcov_gram_add_raw_rows() bounds the raw rows.
  std::optional<dpcov::data::RowBounding> bounding = std::nullopt;
  // Set by dpcov_gram_create_bounded() with exact numerics: the exact integer Gram matrix on the
  // grid of the named release, which then holds the rows (`acc` stays empty).
  std::optional<dpcov::data::ExactGramAccumulator> exact = std::nullopt;
};

namespace dpcov::capi {

// DPCOV_E_INCOMPATIBLE for an accumulator with exact numerics, which `use` cannot read: its rows
// are integers on a grid, not a floating-point Gram matrix.
void refuse_exact_gram(const dpcov_gram &gram, const char *use);

}  // namespace dpcov::capi
