// The definition behind the opaque dpcov_gram handle, shared by the entry points that read or
// build an accumulator (dpcov/gram.h, dpcov/sketch.h).
#pragma once

#include <optional>

#include "../core/data/gram.hpp"
#include "../core/data/row_bounding.hpp"
#include "dpcov/gram.h"

struct dpcov_gram {
  dpcov::GramAccumulator acc;
  // Set by dpcov_gram_create_bounded(): how dpcov_gram_add_raw_rows() bounds the raw rows.
  std::optional<dpcov::data::RowBounding> bounding = std::nullopt;
};
