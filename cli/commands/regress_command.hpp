// `dpcov regress`: least squares or ridge regression with t-values, p-values and confidence
// intervals, from a released second-moment matrix (post-processing: no privacy cost), or, with
// --epsilon, a private regression of raw data rows that spends (epsilon, delta) once (AdaSSP).
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace dpcov::cli {

void add_regress_command(CLI::App &app, std::function<void()> &run);

}  // namespace dpcov::cli
