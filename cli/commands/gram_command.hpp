// `dpcov gram`: the exact (NOT private) Gram matrix of the bounded rows, with its counts.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace dpcov::cli {

// Registers the subcommand on `app`; `run` is set to its action when it is the one selected.
void add_gram_command(CLI::App &app, std::function<void()> &run);

}  // namespace dpcov::cli
