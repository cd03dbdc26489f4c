#include "rng_option.hpp"

#include "../library_status.hpp"

namespace dpcov::cli {

RngHandle make_rng(const std::optional<uint64_t> &seed) {
  dpcov_rng *raw = nullptr;
  if (seed)
    library_check(dpcov_rng_create_seeded(&raw, *seed, 0), "creating the seeded generator");
  else
    library_check(dpcov_rng_create_from_entropy(&raw), "creating the generator");
  return RngHandle(raw);
}

}  // namespace dpcov::cli
