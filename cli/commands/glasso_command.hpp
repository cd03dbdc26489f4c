// `dpcov glasso`: the graphical lasso (sparse precision matrix) from a released matrix.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace dpcov::cli {

void add_glasso_command(CLI::App &app, std::function<void()> &run);

}  // namespace dpcov::cli
