// `dpcov compare`: the utility of chosen mechanisms on one dataset across a list of epsilons,
// with repeats: errors of each release against the exact Gram matrix, with their spread.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace dpcov::cli {

void add_compare_command(CLI::App &app, std::function<void()> &run);

}  // namespace dpcov::cli
