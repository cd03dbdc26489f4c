// The definition behind the opaque dpcov_rng handle, for every C entry point that draws random
// numbers. Entry points draw from `rng` itself, never from a copy: noise once drawn is consumed
// even when the call fails afterwards (a refusal), so the generator is never rewound.
#pragma once

#include "../core/random/rng.hpp"
#include "dpcov/rng.h"

struct dpcov_rng {
  dpcov::random::Rng rng;
};
