// The generator of a command that draws noise: from OS entropy, or from --seed (not private).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include <dpcov.h>

namespace dpcov::cli {

struct RngDeleter {
  void operator()(dpcov_rng *rng) const { dpcov_rng_destroy(&rng); }
};
using RngHandle = std::unique_ptr<dpcov_rng, RngDeleter>;

// A seeded generator for --seed, else one keyed from the operating system's entropy.
RngHandle make_rng(const std::optional<uint64_t> &seed);

}  // namespace dpcov::cli
