// The names an option chooses among: either separator accepted ("add-remove" or "add_remove",
// as Python spells them), and an unknown name refused with the whole list and the closest one.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace dpcov::cli {

// The name of `names` that `typed` spells, itself or with '-' and '_' exchanged; none otherwise.
std::optional<std::string> known_spelling(const std::string &typed,
                                          const std::vector<std::string> &names);

// A CLI11 transform that rewrites a name of `names` spelled with the other separator as listed,
// so that the option's value and its CLI::IsMember check read the listed spelling.
CLI::Validator either_separator(std::vector<std::string> names);

// Throws CliError(kExitUsage): `option`'s value `typed` is none of `names`, all of which the
// message lists, with "did you mean" the closest.
[[noreturn]] void fail_unknown_name(const char *option, const std::string &typed,
                                    const std::vector<std::string> &names);

}  // namespace dpcov::cli
