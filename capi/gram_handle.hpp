// The definition behind the opaque dpcov_gram handle, shared by the entry points that read or
// build an accumulator (dpcov/gram.h, dpcov/sketch.h).
#pragma once

#include "../core/data/gram.hpp"
#include "dpcov/gram.h"

struct dpcov_gram {
  dpcov::GramAccumulator acc;
};
