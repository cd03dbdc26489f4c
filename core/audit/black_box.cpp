#include "black_box.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "../error.hpp"
#include "../linalg/blas.hpp"
#include "power.hpp"
#include "trials.hpp"

namespace dpcov::audit {

namespace {

// The unit eigenvector of the largest |eigenvalue| of G' - G.
std::vector<double> change_direction(const PairStatistics &pair) {
  const int64_t d = pair.gram.rows();
  Matrix change(d, d);
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i < d; ++i) change(i, j) = pair.gram_prime(i, j) - pair.gram(i, j);
  const linalg::SymmetricEigen eig = linalg::eigh(change);
  const int64_t k = std::fabs(eig.values.front()) > std::fabs(eig.values.back()) ? 0 : d - 1;
  std::vector<double> e(static_cast<size_t>(d));
  for (int64_t i = 0; i < d; ++i) e[static_cast<size_t>(i)] = eig.vectors(i, k);
  return e;
}

double statistic_of(Statistic statistic, const Matrix &out, const PairStatistics &pair,
                    const std::vector<double> &direction) {
  const int64_t d = out.rows();
  switch (statistic) {
    case Statistic::TopEigenvalue: return linalg::eigvalsh(out).back();
    case Statistic::TopEigenvectorAlignment: {
      const linalg::SymmetricEigen eig = linalg::eigh(out);
      double dot = 0.0;
      for (int64_t i = 0; i < d; ++i) dot += eig.vectors(i, d - 1) * direction[static_cast<size_t>(i)];
      return std::fabs(dot);
    }
    case Statistic::LeastEigenvalueAbovePair: {
      Matrix above(d, d), above_prime(d, d);
      for (int64_t j = 0; j < d; ++j)
        for (int64_t i = 0; i < d; ++i) {
          above(i, j) = out(i, j) - pair.gram(i, j);
          above_prime(i, j) = out(i, j) - pair.gram_prime(i, j);
        }
      return std::min(linalg::eigvalsh(above).front(), linalg::eigvalsh(above_prime).front());
    }
  }
  fail(Status::InvalidArgument, "unknown audit statistic ", static_cast<int32_t>(statistic));
}

std::vector<double> draw_statistics(const Target &target, const PairStatistics &pair, bool prime,
                                    int64_t count, Statistic statistic,
                                    const std::vector<double> &direction, random::Rng &rng) {
  std::vector<double> values;
  values.reserve(static_cast<size_t>(count));
  const Matrix &gram = prime ? pair.gram_prime : pair.gram;
  const int64_t n = prime ? pair.n_prime : pair.n;
  for (int64_t i = 0; i < count; ++i)
    values.push_back(
        statistic_of(statistic, target.release(gram.view(), n, rng).matrix, pair, direction));
  return values;
}

int64_t count_in(const std::vector<double> &values, double lo, double hi) {
  return std::count_if(values.begin(), values.end(),
                       [&](double v) { return v > lo && v <= hi; });
}

}  // namespace

const char *statistic_name(Statistic statistic) {
  switch (statistic) {
    case Statistic::TopEigenvalue: return "top_eigenvalue";
    case Statistic::TopEigenvectorAlignment: return "top_eigenvector_alignment";
    case Statistic::LeastEigenvalueAbovePair: return "least_eigenvalue_above_pair";
  }
  return "unknown";
}

BlackBoxReport run_black_box_audit(const Target &target, const PairStatistics &pair,
                                   const BlackBoxSettings &settings) {
  if (settings.bins < 2) fail(Status::InvalidArgument, "bins must be >= 2, got ", settings.bins);
  check_trials(settings.trials, 10, "black-box trials");
  if (settings.pilot < settings.bins)
    fail(Status::InvalidArgument, "pilot draws must be >= bins, got ", settings.pilot);
  if (!(settings.alpha > 0.0) || !(settings.alpha < 1.0))
    fail(Status::InvalidArgument, "alpha must be in (0, 1), got ", settings.alpha);

  const std::vector<double> direction = change_direction(pair);
  const random::Rng root = random::Rng::from_seed(settings.seed);
  random::Rng pilot_rng = root.substream(0), d_rng = root.substream(1), p_rng = root.substream(2);

  // Bin edges from the pooled pilot: quantiles k / bins, k = 1..bins-1, deduplicated.
  std::vector<double> pilot = draw_statistics(target, pair, false, settings.pilot,
                                              settings.statistic, direction, pilot_rng);
  const std::vector<double> pilot_prime = draw_statistics(target, pair, true, settings.pilot,
                                                          settings.statistic, direction, pilot_rng);
  pilot.insert(pilot.end(), pilot_prime.begin(), pilot_prime.end());
  std::sort(pilot.begin(), pilot.end());
  std::vector<double> edges;
  for (int k = 1; k < settings.bins; ++k) {
    const double edge = pilot[pilot.size() * static_cast<size_t>(k) / static_cast<size_t>(settings.bins)];
    if (edges.empty() || edge > edges.back()) edges.push_back(edge);
  }

  const std::vector<double> on_d = draw_statistics(target, pair, false, settings.trials,
                                                   settings.statistic, direction, d_rng);
  const std::vector<double> on_prime = draw_statistics(target, pair, true, settings.trials,
                                                       settings.statistic, direction, p_rng);

  // Events as half-open intervals (lo, hi]: bins between consecutive edges and both tails.
  struct Event { double lo, hi; };
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<Event> events;
  std::vector<double> cuts{-inf};
  cuts.insert(cuts.end(), edges.begin(), edges.end());
  cuts.push_back(inf);
  for (size_t k = 0; k + 1 < cuts.size(); ++k) events.push_back({cuts[k], cuts[k + 1]});
  for (const double e : edges) {
    events.push_back({-inf, e});
    events.push_back({e, inf});
  }

  BlackBoxReport report;
  report.name = target.name;
  report.statistic = statistic_name(settings.statistic);
  report.epsilon = target.epsilon;
  report.delta = target.delta;
  report.samples = 2 * (settings.pilot + settings.trials);
  report.alpha_per_bound = settings.alpha / static_cast<double>(4 * events.size());
  report.delta_lower = 0.0;
  const double e_eps = std::exp(target.epsilon);
  for (const Event &event : events) {
    const int64_t k_d = count_in(on_d, event.lo, event.hi);
    const int64_t k_p = count_in(on_prime, event.lo, event.hi);
    for (int direction_index = 0; direction_index < 2; ++direction_index) {
      const int64_t k_from = direction_index == 0 ? k_d : k_p;
      const int64_t k_to = direction_index == 0 ? k_p : k_d;
      const double bound =
          clopper_pearson_lower(k_from, settings.trials, report.alpha_per_bound) -
          e_eps * clopper_pearson_upper(k_to, settings.trials, report.alpha_per_bound);
      if (bound > report.delta_lower) {
        report.delta_lower = bound;
        report.event = concat(direction_index == 0 ? "D vs D'" : "D' vs D", ": ", event.lo,
                              " < s <= ", event.hi);
      }
    }
  }
  report.violation = report.delta_lower > target.delta;
  report.detectable_delta = detectable_delta_black_box(target.epsilon, target.delta,
                                                       settings.trials, report.alpha_per_bound);
  return report;
}

}  // namespace dpcov::audit
