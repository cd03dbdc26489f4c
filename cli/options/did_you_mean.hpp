// "Did you mean ...?" for a mistyped command or option: the closest known name by edit distance.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace dpcov::cli {

// The optimal string alignment distance: insertions, deletions, substitutions and swaps of two
// adjacent characters each cost 1 (so "relaese" is 1 from "release").
std::size_t edit_distance(const std::string &a, const std::string &b);

// The name in `names` closest to `typed`, if it is close enough to be what was meant: a unique
// name that starts with `typed`, or else the unique nearest one within distance 2 (1 for names
// of up to 4 characters).
std::optional<std::string> closest_name(const std::string &typed,
                                        const std::vector<std::string> &names);

// A hint for a command line that `app` could not parse: "did you mean 'release'?" when the first
// argument is not a command but is close to one, or "did you mean '--epsilon'?" for an unknown
// option of the chosen command. Empty when there is nothing to suggest.
std::string did_you_mean(const CLI::App &app, int argc, const char *const *argv);

}  // namespace dpcov::cli
