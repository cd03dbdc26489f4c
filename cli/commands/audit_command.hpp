// `dpcov audit`: the privacy auditor of the library (dpcov/audit.h) on generated neighbouring
// datasets, one row per mechanism, epsilon and dimension: claimed (epsilon, delta), the estimated
// delta(epsilon) with its confidence interval, the largest privacy loss seen, the draws used and
// the verdict ("no violation found" or "violation"). Exit code 6 when a violation is found.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>
#include <dpcov.h>

namespace dpcov::cli {

// Whether `audit` audits a Gram mechanism by its density: one the command line runs with a
// standard pair for dpcov_audit_run in its registry entry.
bool audit_runs(const dpcov_mechanism_entry &entry);

void add_audit_command(CLI::App &app, std::function<void()> &run);

}  // namespace dpcov::cli
