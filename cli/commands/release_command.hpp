// `dpcov release`: a differentially private release of the Gram matrix of a data file, streamed
// in chunks, with a JSON receipt of every constant.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace dpcov::cli {

void add_release_command(CLI::App &app, std::function<void()> &run);

}  // namespace dpcov::cli
