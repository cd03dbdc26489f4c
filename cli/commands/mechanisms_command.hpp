// `dpcov mechanisms`: every mechanism of the library's registry with its privacy type, neighbour
// relations, numerics, commands, preconditions, output and theorem.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace dpcov::cli {

void add_mechanisms_command(CLI::App &app, std::function<void()> &run);

}  // namespace dpcov::cli
