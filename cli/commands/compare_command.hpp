// `dpcov compare`: the utility of chosen mechanisms on one dataset across a list of epsilons,
// with repeats: errors of each release against the exact Gram matrix, with their spread.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>
#include <dpcov.h>

namespace dpcov::cli {

// Whether `compare` takes a Gram mechanism: one the command line runs that reads neither a public
// lambda_min bound (a release of G^-1 is not comparable with G) nor the unlock of a mechanism that
// is not private (compare is no audit): compare has neither flag.
bool compare_runs(const dpcov_mechanism_entry &entry);

void add_compare_command(CLI::App &app, std::function<void()> &run);

}  // namespace dpcov::cli
