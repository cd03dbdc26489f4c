// The library's mechanism registry as the command line reads it (dpcov_mechanism_info): which
// mechanisms a command takes, their privacy model and the theorem their receipts carry.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <dpcov.h>

namespace dpcov::cli {

// Every registry entry, in id order.
std::vector<dpcov_mechanism_entry> registry_entries();

// The entry of a registry id (a library fault if the library does not know it).
dpcov_mechanism_entry registry_entry(int32_t id);

// (name, id) of the mechanisms dpcov_mechanism_plan() takes: the Gram family.
std::vector<std::pair<std::string, int32_t>> gram_mechanisms();

// The id of the Gram mechanism of that name, if the registry has one.
std::optional<int32_t> gram_mechanism_id(const std::string &name);

// The id of the mechanism of that name whose regression has the noise-aware bootstrap and robust
// (sandwich) intervals, the registry's DPCOV_MECHANISM_INFERENCE_ROBUST_GRAM, if it is one; and
// their names, "a, b and c".
std::optional<int32_t> robust_gram_mechanism_id(const std::string &name);
std::string robust_gram_mechanism_names();

// The names of the mechanisms with floating-point-safe (exact) numerics: "a and b".
std::string exact_mechanism_names();

// Whether the mechanism named `name` releases with exact numerics (its default on every surface).
bool has_exact_numerics(const std::string &name);

// Whether the registry marks the mechanism as not differentially private (an audit target).
bool not_private(int32_t id);

// Whether the registry says the mechanism reads `option` (a dpcov_mechanism_option bit): the
// commands hand a mechanism the option flags its entry names, and no others.
bool reads_option(int32_t id, int32_t option);

// The names of the mechanisms the command line runs that read `option`, "a, b and c", for --help.
std::string names_reading(int32_t option);

// Whether `release` and `plan` run the mechanism: a Gram mechanism that reads no option the
// command line has no flag for (the graphical-lasso rho).
bool command_line_runs(const dpcov_mechanism_entry &entry);

}  // namespace dpcov::cli
