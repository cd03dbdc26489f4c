// An AdaSSP fit's receipt (dpcov_adassp_receipt) as `dpcov regress` on raw rows writes it: every
// public field as JSON, and its privacy claim in words.
#pragma once

#include <string>

#include <dpcov.h>
#include <nlohmann/json.hpp>

namespace dpcov::cli {

// "privacy; numerics", the receipt's "privacy_claim": a fixed seed makes the noise reproducible,
// so the fit is private only while the seed stays secret; numerics exact or idealized.
std::string adassp_claim(const dpcov_adassp_receipt &receipt);

// Every public field of the receipt, with names for the enumerations.
nlohmann::ordered_json adassp_receipt_json(const dpcov_adassp_receipt &receipt);

}  // namespace dpcov::cli
