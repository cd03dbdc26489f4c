// `dpcov plan`: the receipt of a release that would run, from the sizes alone (no data).
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace dpcov::cli {

void add_plan_command(CLI::App &app, std::function<void()> &run);

}  // namespace dpcov::cli
