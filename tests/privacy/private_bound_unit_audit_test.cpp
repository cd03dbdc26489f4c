// Exact audit of the private bound at the level of privacy units (proofs/private_bound.md,
// "Privacy units"). Both rules (the exponential mechanism and the scan) output one of K
// candidates with log-probabilities computable exactly from the histogram they read, so the
// privacy loss of a pair of datasets is max_k |log p_k(D) - log p_k(D')|. The datasets are rows
// grouped in units; the neighbours differ by one unit of k rows, added (add/remove) or with all its
// rows replaced (replace-one). Read through the kernel's unit histogram (each unit once, by its
// largest row norm) the loss stays <= eps and comes near eps. The broken variant, the row
// histogram of the same pairs (rows bounded but not units: k rows move, sensitivity k), must be
// flagged: its loss passes 1.5 eps. Deterministic (fixed seed, exact sums): no false failures.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/data/row_bounding.hpp"
#include "core/data/unit_norm_histogram.hpp"
#include "core/mechanisms/private_bound.hpp"
#include "core/mechanisms/private_bound_scan.hpp"
#include "core/random/rng.hpp"

namespace dd = dpcov::data;
namespace dm = dpcov::mechanisms;

namespace {

// Rows of two columns with their unit ids.
struct Units {
  std::vector<double> values;
  std::vector<int64_t> ids;
};

const std::vector<double> kGrid = dm::private_bound_grid(1.0, 16.0, 2.0);  // 1, 2, 4, 8, 16

// A row in grid cell `cell` (cell K: above every candidate).
void add_row(Units &u, int64_t id, size_t cell) {
  const double norm = cell < kGrid.size() ? 0.75 * kGrid[cell] : 40.0;
  u.values.insert(u.values.end(), {0.6 * norm, 0.8 * norm});
  u.ids.push_back(id);
}

dpcov::ConstMatrixView view(const Units &u) {
  return {u.values.data(), static_cast<int64_t>(u.ids.size()), 2, 2, dpcov::Layout::RowMajor};
}

std::vector<uint64_t> unit_histogram(const Units &u) {
  dd::UnitNormHistogram h(kGrid.data(), static_cast<int64_t>(kGrid.size()));
  h.add(view(u), u.ids.data());
  return h.histogram();
}

// The broken variant: every row counted, as the row-level mechanism counts them.
std::vector<uint64_t> row_histogram(const Units &u) {
  std::vector<int64_t> counts(kGrid.size() + 1, 0);
  dd::add_norm_histogram(view(u), kGrid.data(), static_cast<int64_t>(kGrid.size()), counts.data());
  return {counts.begin(), counts.end()};
}

using Histogram = std::vector<uint64_t>;
using LogProbabilities = std::vector<double> (*)(const Histogram &, uint64_t, double);

std::vector<double> exponential(const Histogram &h, uint64_t target, double eps) {
  return dm::private_bound_log_probabilities(h, target, dm::private_bound_exponent_factor(eps));
}

std::vector<double> scan(const Histogram &h, uint64_t target, double eps) {
  return dm::private_bound_scan_log_probabilities(h, target,
                                                  dm::private_bound_scan_threshold_scale(eps),
                                                  dm::private_bound_scan_query_scale(eps));
}

double loss(const Histogram &a, const Histogram &b, uint64_t target, double eps,
            LogProbabilities rule) {
  const std::vector<double> la = rule(a, target, eps), lb = rule(b, target, eps);
  double worst = 0.0;
  for (size_t k = 0; k < la.size(); ++k) worst = std::max(worst, std::abs(la[k] - lb[k]));
  return worst;
}

struct Worst {
  double units = 0.0;  // over eps, through the unit histogram
  double rows = 0.0;   // over eps, through the row histogram (the broken variant)
};

// 80 datasets of 0 to 5 units of 1 to k rows; each neighbour adds a unit of k rows, or replaces
// the rows of unit 0 by k rows, all in one cell (where the row histogram moves by k). Targets 0-3.
Worst worst_loss(double eps, int64_t k, bool replace, LogProbabilities rule) {
  auto rng = dpcov::random::Rng::from_seed(20261130);
  const size_t cells = kGrid.size() + 1;
  Worst worst;
  for (int trial = 0; trial < 80; ++trial) {
    Units d;
    const int64_t count = (replace ? 1 : 0) + static_cast<int64_t>(rng.next_u64() % 5);
    for (int64_t id = 0; id < count; ++id) {
      const auto rows = 1 + static_cast<int64_t>(rng.next_u64() % static_cast<uint64_t>(k));
      for (int64_t r = 0; r < rows; ++r) add_row(d, id, rng.next_u64() % cells);
    }
    const uint64_t target = rng.next_u64() % 4;
    const size_t cell = rng.next_u64() % cells;
    Units n;
    if (replace) {
      for (size_t i = 0; i < d.ids.size(); ++i) {
        if (d.ids[i] == 0) continue;  // unit 0's rows are all replaced
        n.values.insert(n.values.end(), {d.values[2 * i], d.values[2 * i + 1]});
        n.ids.push_back(d.ids[i]);
      }
    } else {
      n = d;
    }
    for (int64_t r = 0; r < k; ++r) add_row(n, replace ? 0 : count, cell);
    worst.units = std::max(worst.units, loss(unit_histogram(d), unit_histogram(n), target, eps,
                                             rule) / eps);
    worst.rows = std::max(worst.rows, loss(row_histogram(d), row_histogram(n), target, eps,
                                           rule) / eps);
  }
  return worst;
}

void audit(LogProbabilities rule, const char *name) {
  for (double eps : {1.0, 4.0})
    for (bool replace : {false, true}) {
      const Worst w = worst_loss(eps, 4, replace, rule);
      const char *relation = replace ? "replace-one" : "add/remove";
      std::printf("%s eps %g %s: loss / eps %.4f per unit, %.4f through the row histogram\n",
                  name, eps, relation, w.units, w.rows);
      EXPECT_LE(w.units, 1.0 + 1e-9) << name << " eps " << eps << " " << relation;
      EXPECT_GT(w.units, 0.6) << name << " eps " << eps << " " << relation;
      EXPECT_GT(w.rows, 1.5) << name << " eps " << eps << " " << relation
                             << ": the row histogram of units of 4 rows was not flagged";
    }
}

}  // namespace

TEST(PrivateBoundUnitAudit, ExponentialRuleLossIsAtMostEpsilonPerUnitAndTheRowVariantIsFlagged) {
  audit(exponential, "exponential");
}

TEST(PrivateBoundUnitAudit, ScanLossIsAtMostEpsilonPerUnitAndTheRowVariantIsFlagged) {
  audit(scan, "scan");
}
