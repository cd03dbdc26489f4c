// A release receipt read back by `regress`, `pca` and `glasso` is planned again from its public
// parameters, so that its constants (the noise scales the intervals and bounds are computed from)
// are the library's and not whatever the file says.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace dpcov::cli {

// Recomputes every data-independent constant of `receipt` (read from `path`, beside a dim x dim
// matrix) from its public parameters with the plan that produced it: dpcov_mechanism_plan,
// dpcov_exact_plan (numerics "exact") or the zCDP plans (dly_*, coinpress), and the constant
// column and scaling records from the norm bound. Every constant the plan gives must be in the
// receipt and equal to it exactly: the plans are deterministic and JSON keeps a double's bits.
// The fields only a release knows (the generator, the seed, a propose-test-release's test value
// and the w derived from it, a Dong-Liang-Yi adaptive branch's noise) are not compared; the
// "differentially_private" flags must follow from the mechanism and "seed_fixed".
// A receipt that names no mechanism of the library (an exact Gram's, or none), or the sidecar of
// `glasso`, has no constants to check. Throws CliError(kExitInputData) naming the field with both
// values, or the parameter that cannot be planned.
void check_receipt_constants(const nlohmann::ordered_json &receipt, const std::string &path,
                             int64_t dim);

}  // namespace dpcov::cli
