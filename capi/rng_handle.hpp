// The definition behind the opaque dpcov_rng handle, for every C entry point that draws random
// numbers. An entry point copies `rng` into a local generator, draws from the copy and writes it
// back only on success, so a failed call leaves the caller's generator as it was.
#pragma once

#include "../core/random/rng.hpp"
#include "dpcov/rng.h"

struct dpcov_rng {
  dpcov::random::Rng rng;
};
