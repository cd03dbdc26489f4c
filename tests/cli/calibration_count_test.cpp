// `dpcov release` plans once: each release runs its calibrator (the analytic Gaussian sigma with
// idealized numerics, the grid search with exact numerics) exactly once, the plan it prints and
// checks the ledger with included, for every bound option (--bound B, --bound auto, --bounds,
// --add-constant). The command runs in this process on the C ABI's internals (the CLI's objects
// linked with the static library), so that the kernel's counters see its calls.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "commands/release_command.hpp"
#include "core/privacy/calibration_count.hpp"

namespace dpcov::cli {
namespace {

using privacy::Calibrator;

struct Runs {
  uint64_t sigma = 0;
  uint64_t grid = 0;
};

class CliCalibrationCount : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("dpcov_cli_calibration_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    std::ofstream csv(dir_ / "rows.csv");
    csv << "a,b,c\n";
    // 200 rows of norm <= 1: --bound auto has rows to choose from.
    for (int i = 0; i < 200; ++i)
      csv << 0.1 * ((i * 7) % 5 - 2) << ',' << 0.05 * ((i * 3) % 7 - 3) << ','
          << 0.02 * (i % 11) << '\n';
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // The calibrators' runs during `dpcov release INPUT args... -o OUT -q --seed 7`.
  Runs release(std::vector<std::string> args) {
    const std::string out = (dir_ / ("out" + std::to_string(++outputs_) + ".csv")).string();
    std::vector<std::string> argv = {"release", (dir_ / "rows.csv").string()};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.insert(argv.end(), {"-o", out, "-q", "--seed", "7"});
    CLI::App app("dpcov", "dpcov");
    std::function<void()> run;
    add_release_command(app, run);
    std::vector<std::string> reversed(argv.rbegin(), argv.rend());
    app.parse(reversed);
    const uint64_t sigma = privacy::calibration_count(Calibrator::AnalyticGaussian);
    const uint64_t grid = privacy::calibration_count(Calibrator::ExactGrid);
    run();
    EXPECT_TRUE(std::filesystem::exists(out));
    return {privacy::calibration_count(Calibrator::AnalyticGaussian) - sigma,
            privacy::calibration_count(Calibrator::ExactGrid) - grid};
  }

  std::filesystem::path dir_;
  int outputs_ = 0;
};

const std::vector<std::vector<std::string>> kBoundOptions = {
    {"--bound", "1"},
    {"--bound", "auto"},
    {"--bounds", "-1:1"},
    {"--bound", "1", "--add-constant"},
    {"--bound", "auto", "--add-constant"},
};

std::vector<std::string> with(std::vector<std::string> base, const std::vector<std::string> &more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}

TEST_F(CliCalibrationCount, AnExactReleaseSearchesItsGridOnceForEveryBoundOption) {
  for (const auto &bound : kBoundOptions) {
    const Runs runs = release(with({"-m", "analyze_gauss", "-e", "1", "-d", "1e-6"}, bound));
    EXPECT_EQ(runs.grid, 1u) << bound[0] << ' ' << bound[1];
    // The grid's discrete Gaussian is sized from the analytic Gaussian's sigma, computed once
    // inside that search (proofs/discrete_gaussian_smoothing.md).
    EXPECT_EQ(runs.sigma, 1u) << bound[0] << ' ' << bound[1];
  }
}

// With --bound auto the plan checked before the bound is chosen is moved to the chosen bound by
// scaling its sigma per unit of sensitivity, not by searching again.
TEST_F(CliCalibrationCount, AnIdealizedReleaseComputesSigmaOnceForEveryBoundOption) {
  for (const auto &bound : kBoundOptions) {
    const Runs runs = release(
        with({"-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--numerics", "idealized"}, bound));
    EXPECT_EQ(runs.sigma, 1u) << bound[0] << ' ' << bound[1];
    EXPECT_EQ(runs.grid, 0u) << bound[0] << ' ' << bound[1];
  }
}

// A ledger checks the release's plan before any row is read and is charged its receipt: neither
// plans again, whatever the bound option and the accounting.
TEST_F(CliCalibrationCount, AReleaseChargedToALedgerStillCalibratesOnce) {
  int ledgers = 0;
  for (const char *accounting : {"basic", "zcdp", "advanced"}) {
    for (const auto &bound : kBoundOptions) {
      const std::string ledger = (dir_ / ("ledger" + std::to_string(++ledgers) + ".json")).string();
      const std::vector<std::string> charged = {"--ledger", ledger, "--ledger-epsilon", "10",
                                                "--ledger-delta", "1e-3", "--accounting",
                                                accounting};
      const Runs exact = release(with(with({"-m", "analyze_gauss", "-e", "1", "-d", "1e-6"},
                                           bound), charged));
      EXPECT_EQ(exact.grid, 1u) << accounting << ' ' << bound[0] << ' ' << bound[1];
      const Runs idealized = release(with(with({"-m", "analyze_gauss", "-e", "1", "-d", "1e-6",
                                                "--numerics", "idealized"}, bound), charged));
      EXPECT_EQ(idealized.sigma, 1u) << accounting << ' ' << bound[0] << ' ' << bound[1];
    }
  }
}

TEST_F(CliCalibrationCount, ALaplaceReleaseSearchesItsGridOnce) {
  for (const auto &bound : kBoundOptions) {
    const Runs runs = release(with({"-m", "laplace_sym", "-e", "1"}, bound));
    EXPECT_EQ(runs.grid, 1u) << bound[0] << ' ' << bound[1];
  }
}

}  // namespace
}  // namespace dpcov::cli
