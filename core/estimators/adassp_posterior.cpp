#include "adassp_posterior.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>

#include "../check.hpp"
#include "../linalg/blas.hpp"
#include "../random/normal.hpp"
#include "../random/uniform.hpp"
#include "chain_convergence.hpp"

namespace dpcov::estimators {

namespace {

size_t at(int64_t i) { return static_cast<size_t>(i); }

constexpr double kMinusInf = -std::numeric_limits<double>::infinity();
// An elliptical or interval slice shrinks towards the current point, which is always inside the
// slice, so it ends; the cap only bounds the work when rounding keeps it from getting there.
constexpr int kMaxShrinks = 200;
// Stepping out covers a factor e^40 in a scale: the feasible scales span far less (the trace bound
// above, the prior on beta below), so the cap only bounds the work.
constexpr int kMaxSteps = 40;
// Chains, their starts' spread (free scales from e^-3/4 to e^3/4 times the start's) and the limits
// of convergence; proofs/adassp_posterior.md, "Convergence", gives the measurements behind them.
constexpr int kChains = 4;
constexpr double kStartSpread = 1.0;
constexpr int kMaxDoublings = 2;

bool converged(const ChainConvergence &c) {
  return c.rhat < kMaxRhat && c.ess_bulk >= kMinEss;
}

struct Release {
  Matrix xtx;
  std::vector<double> xty;
  double yty = 0.0;
  double n = 0.0;
  double sigma_diag = 0.0, sigma_off = 0.0, sigma_cross = 0.0, sigma_label = 0.0;
  double trace_max = 0.0, sigma_max = 0.0;
  int64_t intercept = -1;
};

// The chain runs on (G, u = G beta, sigma): X'y~ pins u down whatever G is, so a move of G at fixed
// u moves beta along the ridge G beta = u that a chain on (G, beta) would cross only in small
// steps. The density in these coordinates is that of (G, beta, sigma) divided by det G.
struct State {
  Matrix gram;
  std::vector<double> u;
  double sigma = 0.0;
};

// Solves G x = rhs through the Cholesky factor l of G.
std::vector<double> cholesky_solve(const Matrix &l, std::vector<double> x) {
  const int64_t p = l.rows();
  for (int64_t i = 0; i < p; ++i) {
    for (int64_t k = 0; k < i; ++k) x[at(i)] -= l(i, k) * x[at(k)];
    x[at(i)] /= l(i, i);
  }
  for (int64_t i = p - 1; i >= 0; --i) {
    for (int64_t k = i + 1; k < p; ++k) x[at(i)] -= l(k, i) * x[at(k)];
    x[at(i)] /= l(i, i);
  }
  return x;
}

// log N((X'y~, y'y~); mean, cov) up to a constant, where under y = X beta + e, e ~ N(0, s^2 I):
// E X'y = G beta, E y'y = beta'G beta + n s^2, Cov(X'y) = s^2 G, Cov(X'y, y'y) = 2 s^2 G beta,
// Var(y'y) = 4 s^2 beta'G beta + 2 n s^4; the released noise adds s_c^2 I and s_y^2.
double log_likelihood_statistics(const Release &r, const State &s,
                                 const std::vector<double> &beta) {
  const int64_t p = s.gram.rows();
  const std::vector<double> &gb = s.u;
  double bgb = 0.0;
  for (int64_t i = 0; i < p; ++i) bgb += beta[at(i)] * gb[at(i)];
  const double s2 = s.sigma * s.sigma;
  Matrix cov(p + 1, p + 1);
  std::vector<double> res(at(p + 1));
  for (int64_t j = 0; j < p; ++j) {
    for (int64_t i = 0; i < p; ++i) cov(i, j) = s2 * s.gram(i, j);
    cov(j, j) += r.sigma_cross * r.sigma_cross;
    cov(j, p) = cov(p, j) = 2.0 * s2 * gb[at(j)];
    res[at(j)] = r.xty[at(j)] - gb[at(j)];
  }
  cov(p, p) = 4.0 * s2 * bgb + 2.0 * r.n * s2 * s2 + r.sigma_label * r.sigma_label;
  res[at(p)] = r.yty - bgb - r.n * s2;
  Matrix l;
  if (!linalg::cholesky(cov, l)) return kMinusInf;
  double quad = 0.0;
  for (int64_t i = 0; i <= p; ++i) {  // forward substitution L z = res
    double z = res[at(i)];
    for (int64_t k = 0; k < i; ++k) z -= l(i, k) * res[at(k)];
    res[at(i)] = z / l(i, i);
    quad += res[at(i)] * res[at(i)];
  }
  return -0.5 * quad - 0.5 * linalg::log_det_from_cholesky(l);
}

// The prior on G is uniform in its scales D_i = G_ii and its correlation matrix C. In the entries
// of G that is a density prod_i D_i^-((p-1)/2), since G = D^(1/2) C D^(1/2) has Lebesgue measure
// prod_i D_i^((p-1)/2) dD dC: a prior uniform in G would weight each scale by D_i^((p-1)/2) and
// drive the scales far above the data's where the noise on X'X~ is several times X'X
// (beta = G^-1 u then shrinks towards 0). It is proper (bounded scales, compact C). The
// intercept's scale is n.
double log_scale_prior(const Release &r, const Matrix &gram) {
  const int64_t p = gram.rows();
  double log_scales = 0.0;
  for (int64_t i = 0; i < p; ++i)
    if (i != r.intercept) log_scales += std::log(gram(i, i));
  return -0.5 * static_cast<double>(p - 1) * log_scales;
}

// The log posterior density of a state in (G, u, sigma), up to a constant, without the released
// X'X~'s Gaussian factor (the elliptical slice step's prior for G): -inf outside the prior's
// support (G positive definite with trace <= n B_X^2; G_cc = n and sigma in (0, B_Y] are kept by
// the sampler).
double log_target(const Release &r, const std::vector<double> &prior_sd, const State &s) {
  double trace = 0.0;
  for (int64_t i = 0; i < s.gram.rows(); ++i) trace += s.gram(i, i);
  Matrix l;
  if (!(trace <= r.trace_max) || !linalg::cholesky(s.gram, l)) return kMinusInf;
  const std::vector<double> beta = cholesky_solve(l, s.u);
  double prior = 0.0;
  for (size_t j = 0; j < beta.size(); ++j)
    prior -= 0.5 * (beta[j] / prior_sd[j]) * (beta[j] / prior_sd[j]);
  return log_likelihood_statistics(r, s, beta) + prior + log_scale_prior(r, s.gram) -
         0.5 * linalg::log_det_from_cholesky(l);
}

// The free entries of G (upper triangle, column by column, without the intercept's diagonal)
// with the standard deviation of the released noise on each.
struct GramCoordinates {
  std::vector<std::pair<int64_t, int64_t>> entries;
  std::vector<double> scales;
};

GramCoordinates gram_coordinates(const Release &r, int64_t p) {
  GramCoordinates c;
  for (int64_t j = 0; j < p; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      if (i == j && i == r.intercept) continue;
      c.entries.emplace_back(i, j);
      c.scales.push_back(i == j ? r.sigma_diag : r.sigma_off);
    }
  return c;
}

// One elliptical slice sampling step (Murray, Adams and MacKay, AISTATS 2010) for x with prior
// N(mean, S), nu one draw of N(0, S), and log-likelihood `loglik`, from a current x whose loglik
// is finite.
void elliptical_slice(std::vector<double> &x, const std::vector<double> &mean,
                      const std::vector<double> &nu,
                      const std::function<double(const std::vector<double> &)> &loglik,
                      double &current, random::Rng &rng) {
  const size_t k = x.size();
  std::vector<double> proposal(k);
  const double level = current + std::log(random::uniform01(rng));
  double theta = 2.0 * std::numbers::pi * random::uniform01(rng);
  double lo = theta - 2.0 * std::numbers::pi, hi = theta;
  for (int step = 0; step < kMaxShrinks; ++step) {
    for (size_t i = 0; i < k; ++i)
      proposal[i] = mean[i] + (x[i] - mean[i]) * std::cos(theta) + nu[i] * std::sin(theta);
    const double value = loglik(proposal);
    if (value > level) {
      x = proposal;
      current = value;
      return;
    }
    (theta < 0.0 ? lo : hi) = theta;
    theta = lo + (hi - lo) * random::uniform01(rng);
  }
}

void set_gram(Matrix &g, const GramCoordinates &c, const std::vector<double> &v) {
  for (size_t k = 0; k < v.size(); ++k) g(c.entries[k].first, c.entries[k].second) =
      g(c.entries[k].second, c.entries[k].first) = v[k];
}

void step_gram(const Release &r, const GramCoordinates &c, const std::vector<double> &prior_sd,
               State &s, random::Rng &rng) {
  std::vector<double> x(c.entries.size()), mean(c.entries.size()), nu(c.entries.size());
  for (size_t k = 0; k < x.size(); ++k) {
    x[k] = s.gram(c.entries[k].first, c.entries[k].second);
    mean[k] = r.xtx(c.entries[k].first, c.entries[k].second);
    nu[k] = c.scales[k] * random::standard_normal(rng);
  }
  State trial = s;
  const auto loglik = [&](const std::vector<double> &v) {
    set_gram(trial.gram, c, v);
    return log_target(r, prior_sd, trial);
  };
  double current = loglik(x);
  elliptical_slice(x, mean, nu, loglik, current, rng);
  set_gram(s.gram, c, x);
}

// u with the step's prior N(X'y~, sigma^2 G + s_c^2 I), the law of X'y~ given u: the likelihood
// left over is nearly flat, so the step moves u across its whole posterior at once.
void step_u(const Release &r, const std::vector<double> &prior_sd, State &s, random::Rng &rng) {
  const int64_t p = s.gram.rows();
  Matrix cov(p, p), l;
  for (int64_t j = 0; j < p; ++j) {
    for (int64_t i = 0; i < p; ++i) cov(i, j) = s.sigma * s.sigma * s.gram(i, j);
    cov(j, j) += r.sigma_cross * r.sigma_cross;
  }
  if (!linalg::cholesky(cov, l)) return;
  std::vector<double> z(at(p)), nu(at(p), 0.0);
  for (auto &v : z) v = random::standard_normal(rng);
  for (int64_t i = 0; i < p; ++i)
    for (int64_t k = 0; k <= i; ++k) nu[at(i)] += l(i, k) * z[at(k)];
  State trial = s;
  const auto loglik = [&](const std::vector<double> &v) {
    trial.u = v;
    std::vector<double> d(at(p));
    for (int64_t i = 0; i < p; ++i) d[at(i)] = v[at(i)] - r.xty[at(i)];
    const std::vector<double> w = cholesky_solve(l, d);
    double quad = 0.0;
    for (int64_t i = 0; i < p; ++i) quad += d[at(i)] * w[at(i)];
    return log_target(r, prior_sd, trial) + 0.5 * quad;
  };
  double current = loglik(s.u);
  elliptical_slice(s.u, r.xty, nu, loglik, current, rng);
}

// Slice sampling (Neal 2003, shrinkage only) on sigma's whole prior support (0, B_Y].
void step_sigma(const Release &r, const std::vector<double> &prior_sd, State &s,
                random::Rng &rng) {
  State trial = s;
  const double level = log_target(r, prior_sd, s) + std::log(random::uniform01(rng));
  double lo = 0.0, hi = r.sigma_max;
  for (int step = 0; step < kMaxShrinks; ++step) {
    trial.sigma = lo + (hi - lo) * random::uniform01(rng);
    if (log_target(r, prior_sd, trial) > level) {
      s.sigma = trial.sigma;
      return;
    }
    (trial.sigma < s.sigma ? lo : hi) = trial.sigma;
  }
}

// Scale moves along the slow direction of the chain: where the noise on X'X~ is several times
// X'X, the likelihood hardly pins a scale G_ii down, and the elliptical step, which moves all the
// free entries of G at once around the released X'X~, changes a scale only slowly. The move
// G -> S G S with S = diag(1, .., e^t at i, .., 1) at fixed (u, sigma) is a group move (Liu and
// Sabatti, JASA 2000): it leaves the posterior invariant when t is drawn from the density of
// the moved state times the Jacobian e^((p + 1) t) (G_ii scales by e^2t, the p - 1 entries of
// its row by e^t) with respect to dt. t is slice sampled (Neal 2003, stepping out by width 1 at
// most kMaxSteps times, split at random between the two sides as reversibility requires).
void step_scales(const Release &r, const std::vector<double> &prior_sd, State &s,
                 random::Rng &rng) {
  const int64_t p = s.gram.rows();
  for (int64_t i = 0; i < p; ++i) {
    if (i == r.intercept) continue;
    State trial = s;
    const auto density = [&](double t) {
      const double f = std::exp(t);
      for (int64_t k = 0; k < p; ++k) {
        trial.gram(i, k) = s.gram(i, k) * f;
        trial.gram(k, i) = s.gram(k, i) * f;
      }
      trial.gram(i, i) = s.gram(i, i) * f * f;
      double gauss = 0.0;  // the released X'X~'s Gaussian factor, which the target leaves out
      for (int64_t k = 0; k < p; ++k) {
        const double sd = k == i ? r.sigma_diag : r.sigma_off;
        const double z = (r.xtx(i, k) - trial.gram(i, k)) / sd;
        gauss -= 0.5 * z * z;
      }
      return log_target(r, prior_sd, trial) + gauss + static_cast<double>(p + 1) * t;
    };
    const double level = density(0.0) + std::log(random::uniform01(rng));
    double lo = -random::uniform01(rng), hi = lo + 1.0;
    int left = static_cast<int>(kMaxSteps * random::uniform01(rng)), right = kMaxSteps - 1 - left;
    for (; left > 0 && density(lo) > level; --left) lo -= 1.0;
    for (; right > 0 && density(hi) > level; --right) hi += 1.0;
    for (int step = 0; step < kMaxShrinks; ++step) {
      const double t = lo + (hi - lo) * random::uniform01(rng);
      if (density(t) > level) {
        s.gram = trial.gram;
        break;
      }
      (t < 0.0 ? lo : hi) = t;
    }
  }
}

// A feasible start: the released X'X~ with its eigenvalues raised to one noise standard
// deviation and G_cc = n, its free scales G_ii multiplied by e^spread and sigma at `sigma_share`
// of B_Y (chains started apart, so that R-hat sees a chain that has not forgotten its start),
// moved towards a diagonal interior point until feasible.
State initial_state(const Release &r, int64_t p, double spread, double sigma_share) {
  State s;
  const linalg::SymmetricEigen e = linalg::eigh(r.xtx);
  s.gram = Matrix(p, p);
  for (int64_t k = 0; k < p; ++k) {
    const double w = std::max(e.values[at(k)], r.sigma_diag);
    for (int64_t j = 0; j < p; ++j)
      for (int64_t i = 0; i < p; ++i) s.gram(i, j) += w * e.vectors(i, k) * e.vectors(j, k);
  }
  for (int64_t j = 0; j < p; ++j)
    for (int64_t i = 0; i < p; ++i)
      s.gram(i, j) *= std::exp(0.5 * spread * ((i == r.intercept ? 0 : 1) + (j == r.intercept ? 0 : 1)));
  Matrix interior(p, p);
  const double share = (r.trace_max - (r.intercept >= 0 ? r.n : 0.0)) /
                       (2.0 * static_cast<double>(r.intercept >= 0 ? p - 1 : p));
  for (int64_t i = 0; i < p; ++i) interior(i, i) = i == r.intercept ? r.n : share;
  if (r.intercept >= 0) s.gram(r.intercept, r.intercept) = r.n;
  const auto feasible = [&](const Matrix &g) {
    double trace = 0.0;
    for (int64_t i = 0; i < p; ++i) trace += g(i, i);
    Matrix l;
    return trace <= r.trace_max && linalg::cholesky(g, l);
  };
  for (int tries = 0; tries < 64 && !feasible(s.gram); ++tries)
    for (int64_t j = 0; j < p; ++j)
      for (int64_t i = 0; i < p; ++i) s.gram(i, j) = 0.5 * (s.gram(i, j) + interior(i, j));
  if (!feasible(s.gram)) s.gram = interior;
  s.u.assign(at(p), 0.0);
  s.sigma = sigma_share * r.sigma_max;
  return s;
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
  State state;
  std::vector<std::vector<double>> draws;
};

void advance(const Release &r, const GramCoordinates &coords, const std::vector<double> &prior_sd,
             int64_t sweeps, Chain &c, random::Rng &rng) {
  const int64_t p = r.xtx.rows();
  for (int64_t sweep = 0; sweep < sweeps; ++sweep) {
    step_gram(r, coords, prior_sd, c.state, rng);
    step_scales(r, prior_sd, c.state, rng);
    step_u(r, prior_sd, c.state, rng);
    step_sigma(r, prior_sd, c.state, rng);
    Matrix l;
    linalg::cholesky(c.state.gram, l);  // the chain stays where G is positive definite
    const std::vector<double> beta = cholesky_solve(l, c.state.u);
    for (int64_t j = 0; j < p; ++j) c.draws[at(j)].push_back(beta[at(j)]);
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
PosteriorIntervals run_chains(const Release &r, const GramCoordinates &coords,
                              const std::vector<double> &prior_sd, double level, int64_t draws,
                              random::Rng &rng) {
  const int64_t p = r.xtx.rows();
  std::vector<Chain> chains;
  for (int k = 0; k < kChains; ++k) {
    const double at_k = (static_cast<double>(k) + 0.5) / kChains;  // in (0, 1)
    chains.push_back({initial_state(r, p, kStartSpread * (2.0 * at_k - 1.0), at_k),
                      std::vector<std::vector<double>>(at(p))});
  }
  int64_t sweeps = 2 * ((draws + kChains - 1) / kChains);
  std::vector<ChainConvergence> diagnostics(at(p));
  for (int round = 0; round <= kMaxDoublings; ++round) {
    for (Chain &c : chains) advance(r, coords, prior_sd, sweeps, c, rng);
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
  PosteriorIntervals out = summarise(pooled, level);
  for (const ChainConvergence &d : diagnostics) {
    out.rhat.push_back(d.rhat);
    out.ess_bulk.push_back(d.ess_bulk);
    out.converged.push_back(converged(d) ? 1 : 0);
  }
  out.sweeps = static_cast<int64_t>(chains.size() * chains.front().draws.front().size());
  return out;
}

Release make_release(const Matrix &xtx, const std::vector<double> &xty, double yty, int64_t n,
                     const mechanisms::AdasspReceipt &receipt, int64_t intercept) {
  Release r;
  r.xtx = xtx;
  r.xty = xty;
  r.yty = yty;
  r.n = static_cast<double>(n);
  r.sigma_diag = receipt.sigma_gram;
  r.sigma_off = receipt.sigma_gram_off_diagonal;
  r.sigma_cross = receipt.sigma_cross;
  r.sigma_label = receipt.sigma_label_square;
  r.trace_max = r.n * receipt.bound_x * receipt.bound_x;
  r.sigma_max = receipt.bound_y;
  r.intercept = intercept;
  return r;
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

double relevant_half_range(const mechanisms::AdasspReceipt &receipt, int64_t intercept_column,
                           int64_t j) {
  if (j == intercept_column) return receipt.bound_y;
  const double b2 = receipt.bound_x * receipt.bound_x - (intercept_column >= 0 ? 1.0 : 0.0);
  return receipt.bound_y / std::sqrt(b2);
}

PosteriorIntervals adassp_posterior_intervals(const Matrix &xtx_released,
                                              const std::vector<double> &xty_released,
                                              double yty_released, int64_t n,
                                              const mechanisms::AdasspReceipt &receipt,
                                              int64_t intercept_column, double level,
                                              int64_t draws, random::Rng &rng) {
  validate(xtx_released, xty_released, yty_released, n, receipt, intercept_column, level, draws);
  const int64_t p = receipt.dim;
  const Release r = make_release(xtx_released, xty_released, yty_released, n, receipt,
                                 intercept_column);
  const GramCoordinates coords = gram_coordinates(r, p);
  std::vector<double> prior_sd(at(p));
  for (int64_t j = 0; j < p; ++j)
    prior_sd[at(j)] = 2.0 * relevant_half_range(receipt, intercept_column, j);
  return run_chains(r, coords, prior_sd, level, draws, rng);
}

}  // namespace dpcov::estimators
