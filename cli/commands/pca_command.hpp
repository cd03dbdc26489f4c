// `dpcov pca`: the top-k eigenpairs of a released matrix and the variance they explain, and with
// --compare the distance between its top-k subspace and another matrix's.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace dpcov::cli {

void add_pca_command(CLI::App &app, std::function<void()> &run);

}  // namespace dpcov::cli
