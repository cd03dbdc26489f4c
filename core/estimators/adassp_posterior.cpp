#include "adassp_posterior.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "../check.hpp"
#include "adassp_posterior_chain.hpp"
#include "chain_convergence.hpp"
#include "sampling_share.hpp"

namespace dpcov::estimators {

namespace {

size_t at(int64_t i) { return static_cast<size_t>(i); }

// Chains, their starts' spread (free scales from e^-3/4 to e^3/4 times the start's) and the limits
// of convergence; proofs/adassp_posterior.md, "Convergence", gives the measurements behind them.
constexpr int kChains = 4;
constexpr double kStartSpread = 1.0;
constexpr int kMaxDoublings = 2;

bool converged(const ChainConvergence &c) {
  return c.rhat < kMaxRhat && c.ess_bulk >= kMinEss;
}

double quantile(std::vector<double> sorted, double q) {
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const size_t k = static_cast<size_t>(pos);
  if (k + 1 >= sorted.size()) return sorted.back();
  return sorted[k] + (pos - static_cast<double>(k)) * (sorted[k + 1] - sorted[k]);
}

// The summary of the pooled kept draws of every chain, coefficient by coefficient.
PosteriorIntervals summarise(const std::vector<std::vector<double>> &pooled, double level) {
  PosteriorIntervals out;
  for (std::vector<double> c : pooled) {
    std::sort(c.begin(), c.end());
    const double m = static_cast<double>(c.size());
    double mean = 0.0, ss = 0.0;
    for (double v : c) mean += v / m;
    for (double v : c) ss += (v - mean) * (v - mean);
    const double below = static_cast<double>(std::lower_bound(c.begin(), c.end(), 0.0) -
                                             c.begin()) / m;
    out.coefficients.push_back(quantile(c, 0.5));
    out.std_errors.push_back(std::sqrt(ss / (m - 1.0)));
    out.p_values.push_back(std::min(1.0, 2.0 * std::min(below, 1.0 - below)));
    out.ci_lower.push_back(quantile(c, (1.0 - level) / 2.0));
    out.ci_upper.push_back(quantile(c, (1.0 + level) / 2.0));
  }
  return out;
}

// One chain: its state and every draw of beta so far (draws[j][t]).
struct Chain {
  posterior::State state;
  std::vector<std::vector<double>> draws;
  std::vector<posterior::ReleaseScore> scores;  // one per draw
};

void advance(const posterior::Release &r, const posterior::GramCoordinates &coords,
             int64_t sweeps, Chain &c, random::Rng &rng) {
  for (int64_t t = 0; t < sweeps; ++t) {
    posterior::sweep(r, coords, c.state, rng);
    const std::vector<double> beta = posterior::coefficients(c.state);
    for (size_t j = 0; j < beta.size(); ++j) c.draws[j].push_back(beta[j]);
    c.scores.push_back(posterior::release_score(r, coords, c.state));
  }
}

// Coefficient j's kept draws (the second half of every chain), chain by chain.
std::vector<std::vector<double>> kept(const std::vector<Chain> &chains, int64_t j) {
  std::vector<std::vector<double>> out;
  for (const Chain &c : chains) {
    const std::vector<double> &d = c.draws[at(j)];
    out.emplace_back(d.begin() + static_cast<std::ptrdiff_t>(d.size() / 2), d.end());
  }
  return out;
}

// kChains chains started apart, 2 ceil(draws / kChains) sweeps each (the sweeps one chain of
// 2 draws used to take), their second halves kept; while a coefficient's chains disagree
// (chain_convergence above kMaxRhat or below kMinEss) every chain is doubled in length, at most
// kMaxDoublings times, so the cost is bounded by 2^kMaxDoublings times the first round's.
PosteriorIntervals run_chains(const posterior::Release &r,
                              const posterior::GramCoordinates &coords, double level,
                              int64_t draws, random::Rng &rng) {
  const int64_t p = r.xtx.rows();
  std::vector<Chain> chains;
  for (int k = 0; k < kChains; ++k) {
    const double at_k = (static_cast<double>(k) + 0.5) / kChains;  // in (0, 1)
    chains.push_back({posterior::initial_state(r, kStartSpread * (2.0 * at_k - 1.0), at_k),
                      std::vector<std::vector<double>>(at(p)), {}});
  }
  int64_t sweeps = 2 * ((draws + kChains - 1) / kChains);
  std::vector<ChainConvergence> diagnostics(at(p));
  for (int round = 0; round <= kMaxDoublings; ++round) {
    for (Chain &c : chains) advance(r, coords, sweeps, c, rng);
    bool all = true;
    for (int64_t j = 0; j < p; ++j) {
      diagnostics[at(j)] = chain_convergence(kept(chains, j));
      all = all && converged(diagnostics[at(j)]);
    }
    if (all) break;
    sweeps = static_cast<int64_t>(chains.front().draws.front().size());  // doubles the length
  }
  std::vector<std::vector<double>> pooled(at(p));
  for (int64_t j = 0; j < p; ++j)
    for (const auto &c : kept(chains, j)) pooled[at(j)].insert(pooled[at(j)].end(), c.begin(), c.end());
  std::vector<posterior::ReleaseScore> scores;
  for (const Chain &c : chains)
    scores.insert(scores.end(), c.scores.begin() + static_cast<std::ptrdiff_t>(c.scores.size() / 2),
                  c.scores.end());
  PosteriorIntervals out = summarise(pooled, level);
  out.sampling_share = sampling_shares(pooled, scores, coords, kChains);
  for (const ChainConvergence &d : diagnostics) {
    out.rhat.push_back(d.rhat);
    out.ess_bulk.push_back(d.ess_bulk);
    out.converged.push_back(converged(d) ? 1 : 0);
  }
  out.sweeps = static_cast<int64_t>(chains.size() * chains.front().draws.front().size());
  return out;
}

void validate(const Matrix &xtx, const std::vector<double> &xty, double yty, int64_t n,
              const mechanisms::AdasspReceipt &receipt, int64_t intercept, double level,
              int64_t draws) {
  const int64_t p = receipt.dim;
  if (!receipt.label_square)
    fail(Status::InvalidArgument, "posterior intervals need the released y'y");
  if (p < 1 || xtx.rows() != p || xtx.cols() != p || static_cast<int64_t>(xty.size()) != p)
    fail(Status::Dimension, "the released X'X must be ", p, " x ", p, " and X'y of length ", p);
  check::all_finite(xtx.view(), "released X'X");
  check::symmetric(xtx.view(), "released X'X");
  for (double v : xty) check::finite(v, "released X'y");
  check::finite(yty, "released y'y");
  if (n <= p) fail(Status::InvalidArgument, "n must exceed p = ", p, ", got ", n);
  if (intercept < -1 || intercept >= p)
    fail(Status::InvalidArgument, "intercept column must be -1 or in [0, ", p, "), got ",
         intercept);
  if (!(level > 0.0 && level < 1.0))
    fail(Status::InvalidArgument, "level must be in (0, 1), got ", level);
  // The same rule as the bootstrap's: each end of the interval is an order statistic, and the
  // chain's time and memory are bounded.
  const double tail = 0.5 * (1.0 - level) * static_cast<double>(draws + 1);
  if (draws < 1 || draws > check::kMaxSimulationDraws || tail < 1.0)
    fail(Status::InvalidArgument, "draws must be >= ",
         static_cast<int64_t>(std::ceil(2.0 / (1.0 - level))) - 1, " at level ", level,
         " and at most DPCOV_MAX_SIMULATION_DRAWS = ", check::kMaxSimulationDraws, ", got ",
         draws);
  for (double v : {receipt.sigma_gram, receipt.sigma_gram_off_diagonal, receipt.sigma_cross,
                   receipt.sigma_label_square, receipt.bound_x, receipt.bound_y})
    if (!(std::isfinite(v) && v > 0.0))
      fail(Status::InvalidArgument, "the receipt's noise scales and bounds must be finite > 0");
  if (intercept >= 0 && !(receipt.bound_x > 1.0))
    fail(Status::InvalidArgument, "with an intercept B_X must exceed 1, got ", receipt.bound_x);
}

}  // namespace

double min_sampling_share(double level) {
  if (!(level > 0.0 && level < 1.0))
    fail(Status::InvalidArgument, "level must be in (0, 1), got ", level);
  const double z_level = normal_quantile(0.5 * (1.0 + level));
  const double z_centre = normal_quantile(1.0 - 0.1 * (1.0 - level));
  return (z_level / z_centre) * (z_level / z_centre);
}

double relevant_half_range(const mechanisms::AdasspReceipt &receipt, int64_t intercept_column,
                           int64_t j) {
  if (j == intercept_column) return receipt.bound_y;
  const double b2 = receipt.bound_x * receipt.bound_x - (intercept_column >= 0 ? 1.0 : 0.0);
  return receipt.bound_y / std::sqrt(b2);
}

double sigma_prior_bound(const mechanisms::AdasspReceipt &receipt) {
  return 1.5 * receipt.bound_y;
}

PosteriorIntervals adassp_posterior_intervals(const Matrix &xtx_released,
                                              const std::vector<double> &xty_released,
                                              double yty_released, int64_t n,
                                              const mechanisms::AdasspReceipt &receipt,
                                              int64_t intercept_column, double level,
                                              int64_t draws, random::Rng &rng) {
  validate(xtx_released, xty_released, yty_released, n, receipt, intercept_column, level, draws);
  // The label in units of 2^k near B_Y: y / 2^k has its bound in [1, 2), X'y and y'y and their
  // noise scales are divided by 2^k and 4^k exactly, and the posterior is the same law with every
  // coefficient divided by 2^k. There its sums neither overflow nor underflow, whatever the
  // label's units.
  const int k = std::ilogb(receipt.bound_y);
  mechanisms::AdasspReceipt unit = receipt;
  unit.bound_y = std::ldexp(receipt.bound_y, -k);
  unit.sensitivity_cross = std::ldexp(receipt.sensitivity_cross, -k);
  unit.sigma_cross = std::ldexp(receipt.sigma_cross, -k);
  unit.sensitivity_label_square = std::ldexp(receipt.sensitivity_label_square, -2 * k);
  unit.sigma_label_square = std::ldexp(receipt.sigma_label_square, -2 * k);
  std::vector<double> xty(xty_released);
  for (double &v : xty) v = std::ldexp(v, -k);
  const posterior::Release r = posterior::make_release(
      xtx_released, xty, std::ldexp(yty_released, -2 * k), n, unit, intercept_column);
  PosteriorIntervals q = run_chains(r, posterior::gram_coordinates(r), level, draws, rng);
  for (auto *v : {&q.coefficients, &q.std_errors, &q.ci_lower, &q.ci_upper})
    for (double &x : *v) x = std::ldexp(x, k);
  return q;
}

}  // namespace dpcov::estimators
