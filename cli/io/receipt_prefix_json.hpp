// The common prefix of every receipt the command writes (dpcov_receipt_prefix): one writer, so
// that the receipts of every family start with the same keys in the same order.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace dpcov::cli {

// The privacy model of a ::dpcov_mechanism_privacy in words: "epsilon-DP", "(epsilon, delta)-DP",
// "rho-zCDP, stated as (epsilon, delta)-DP (...)" or "not private".
std::string privacy_model_name(int32_t model);

// The prefix of `receipt`, a receipt of any family filled by the library, read through
// dpcov_receipt_prefix_of: mechanism, privacy_model, neighbour, numerics, generator, seed_fixed,
// epsilon, delta, rho, bound, n, theorem, with names for the enumerations.
nlohmann::ordered_json receipt_prefix_json(const void *receipt);

}  // namespace dpcov::cli
