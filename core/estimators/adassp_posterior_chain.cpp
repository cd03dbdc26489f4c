#include "adassp_posterior_chain.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>

#include "../linalg/blas.hpp"
#include "adassp_posterior.hpp"
#include "../random/normal.hpp"
#include "../random/uniform.hpp"

namespace dpcov::estimators::posterior {

namespace {

size_t at(int64_t i) { return static_cast<size_t>(i); }

constexpr double kMinusInf = -std::numeric_limits<double>::infinity();
// An elliptical or interval slice shrinks towards the current point, which is always inside the
// slice, so it ends; the cap only bounds the work when rounding keeps it from getting there.
constexpr int kMaxShrinks = 200;
// Stepping out covers a factor e^40 in a scale: the feasible scales span far less (the trace bound
// above, the prior on beta below), so the cap only bounds the work.
constexpr int kMaxSteps = 40;

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

// The Cholesky factor of a, false where a is not positive definite or not finite (a state far
// out in a move's stepping out can overflow): the state is then outside the support.
bool factor(const Matrix &a, Matrix &l) {
  for (int64_t j = 0; j < a.cols(); ++j)
    for (int64_t i = 0; i < a.rows(); ++i)
      if (!std::isfinite(a(i, j))) return false;
  return linalg::cholesky(a, l);
}

// The inverse of a from its Cholesky factor l.
Matrix inverse_from_cholesky(const Matrix &l) {
  const int64_t p = l.rows();
  Matrix out(p, p);
  for (int64_t j = 0; j < p; ++j) {
    std::vector<double> e(at(p), 0.0);
    e[at(j)] = 1.0;
    e = cholesky_solve(l, e);
    for (int64_t i = 0; i < p; ++i) out(i, j) = e[at(i)];
  }
  return out;
}

// The law of (X'y~, y'y~) at a state: under y = X beta + e, e ~ N(0, s^2 I): E X'y = G beta,
// E y'y = beta'G beta + n s^2, Cov(X'y) = s^2 G, Cov(X'y, y'y) = 2 s^2 G beta,
// Var(y'y) = 4 s^2 beta'G beta + 2 n s^4; the released noise adds s_c^2 I and s_y^2. Writes the
// covariance and the released statistics minus their mean.
void statistics_law(const Release &r, const State &s, const std::vector<double> &beta, Matrix &cov,
                    std::vector<double> &res) {
  const int64_t p = s.gram.rows();
  const std::vector<double> &gb = s.u;
  double bgb = 0.0;
  for (int64_t i = 0; i < p; ++i) bgb += beta[at(i)] * gb[at(i)];
  const double s2 = s.sigma * s.sigma;
  cov = Matrix(p + 1, p + 1);
  res.assign(at(p + 1), 0.0);
  for (int64_t j = 0; j < p; ++j) {
    for (int64_t i = 0; i < p; ++i) cov(i, j) = s2 * s.gram(i, j);
    cov(j, j) += r.sigma_cross * r.sigma_cross;
    cov(j, p) = cov(p, j) = 2.0 * s2 * gb[at(j)];
    res[at(j)] = r.xty[at(j)] - gb[at(j)];
  }
  cov(p, p) = 4.0 * s2 * bgb + 2.0 * r.n * s2 * s2 + r.sigma_label * r.sigma_label;
  res[at(p)] = r.yty - bgb - r.n * s2;
}

// log N((X'y~, y'y~); mean, cov) up to a constant, with the law of statistics_law.
double log_likelihood_statistics(const Release &r, const State &s,
                                 const std::vector<double> &beta) {
  const int64_t p = s.gram.rows();
  Matrix cov, l;
  std::vector<double> res;
  statistics_law(r, s, beta, cov, res);
  if (!factor(cov, l)) return kMinusInf;
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
// support (G positive definite with trace <= n B_X^2; G_cc = n and sigma in (0, sigma_max] are
// kept by the sampler). The density of (G, beta, sigma) is divided by det G, the Jacobian of
// beta -> u = G beta at fixed G: log_det_from_cholesky is log det G itself, not its half.
double log_target(const Release &r, const State &s) {
  double trace = 0.0;
  for (int64_t i = 0; i < s.gram.rows(); ++i) trace += s.gram(i, i);
  Matrix l;
  if (!(trace <= r.trace_max) || !factor(s.gram, l)) return kMinusInf;
  const std::vector<double> beta = cholesky_solve(l, s.u);
  double prior = 0.0;
  for (size_t j = 0; j < beta.size(); ++j)
    prior -= 0.5 * (beta[j] / r.prior_sd[j]) * (beta[j] / r.prior_sd[j]);
  return log_likelihood_statistics(r, s, beta) + prior + log_scale_prior(r, s.gram) -
         linalg::log_det_from_cholesky(l);
}

// The released X'X~'s Gaussian factor over the free entries of G, which log_target leaves out.
double log_gram_likelihood(const Release &r, const Matrix &gram) {
  double out = 0.0;
  for (int64_t j = 0; j < gram.rows(); ++j)
    for (int64_t i = 0; i <= j; ++i) {
      if (i == j && i == r.intercept) continue;
      const double z = (r.xtx(i, j) - gram(i, j)) / (i == j ? r.sigma_diag : r.sigma_off);
      out -= 0.5 * z * z;
    }
  return out;
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

void step_gram(const Release &r, const GramCoordinates &c, State &s, random::Rng &rng) {
  std::vector<double> x(c.entries.size()), mean(c.entries.size()), nu(c.entries.size());
  for (size_t k = 0; k < x.size(); ++k) {
    x[k] = s.gram(c.entries[k].first, c.entries[k].second);
    mean[k] = r.xtx(c.entries[k].first, c.entries[k].second);
    nu[k] = c.scales[k] * random::standard_normal(rng);
  }
  State trial = s;
  const auto loglik = [&](const std::vector<double> &v) {
    set_gram(trial.gram, c, v);
    return log_target(r, trial);
  };
  double current = loglik(x);
  elliptical_slice(x, mean, nu, loglik, current, rng);
  set_gram(s.gram, c, x);
}

// u given (G, sigma) by elliptical slice sampling whose Gaussian is the exact conditional of u
// without y'y~: the law of X'y~ given u, N(u, Sigma_b) with Sigma_b = sigma^2 G + s_c^2 I, times
// the prior on beta = G^-1 u, N(0, Lambda), both Gaussian in u: precision
// P = Sigma_b^-1 + G^-1 Lambda^-1 G^-1, mean P^-1 Sigma_b^-1 X'y~. What is left of the target is
// y'y~'s conditional law, nearly flat where y'y~ is noisy. A Gaussian centred on X'y~ alone
// (the law of X'y~ without the prior) is far wider than u's posterior where the noise on X'y~
// is large against G beta, and the ellipse then crossed the posterior in short arcs.
void step_u(const Release &r, State &s, random::Rng &rng) {
  const int64_t p = s.gram.rows();
  Matrix cov(p, p);
  for (int64_t j = 0; j < p; ++j) {
    for (int64_t i = 0; i < p; ++i) cov(i, j) = s.sigma * s.sigma * s.gram(i, j);
    cov(j, j) += r.sigma_cross * r.sigma_cross;
  }
  Matrix gl, bl, pl;
  if (!factor(s.gram, gl) || !factor(cov, bl)) return;
  const Matrix gram_inv = inverse_from_cholesky(gl);
  Matrix precision = inverse_from_cholesky(bl);
  for (int64_t j = 0; j < p; ++j)
    for (int64_t i = 0; i < p; ++i)
      for (int64_t k = 0; k < p; ++k)
        precision(i, j) += gram_inv(k, i) * gram_inv(k, j) / (r.prior_sd[at(k)] * r.prior_sd[at(k)]);
  if (!factor(precision, pl)) return;
  std::vector<double> mean = cholesky_solve(pl, cholesky_solve(bl, r.xty)), nu(at(p));
  for (auto &v : nu) v = random::standard_normal(rng);
  for (int64_t i = p - 1; i >= 0; --i) {  // nu = L_P'^-1 z ~ N(0, P^-1)
    for (int64_t k = i + 1; k < p; ++k) nu[at(i)] -= pl(k, i) * nu[at(k)];
    nu[at(i)] /= pl(i, i);
  }
  State trial = s;
  const auto loglik = [&](const std::vector<double> &v) {
    trial.u = v;
    std::vector<double> d(at(p));
    for (int64_t i = 0; i < p; ++i) d[at(i)] = v[at(i)] - r.xty[at(i)];
    const std::vector<double> w = cholesky_solve(bl, d), beta = cholesky_solve(gl, v);
    double quad = 0.0;
    for (int64_t i = 0; i < p; ++i)
      quad += d[at(i)] * w[at(i)] + beta[at(i)] * beta[at(i)] / (r.prior_sd[at(i)] * r.prior_sd[at(i)]);
    return log_target(r, trial) + 0.5 * quad;
  };
  double current = loglik(s.u);
  elliptical_slice(s.u, mean, nu, loglik, current, rng);
}

// Slice sampling (Neal 2003, shrinkage only) on sigma's whole prior support (0, sigma_max].
void step_sigma(const Release &r, State &s, random::Rng &rng) {
  State trial = s;
  const double level = log_target(r, s) + std::log(random::uniform01(rng));
  double lo = 0.0, hi = r.sigma_max;
  for (int step = 0; step < kMaxShrinks; ++step) {
    trial.sigma = lo + (hi - lo) * random::uniform01(rng);
    if (log_target(r, trial) > level) {
      s.sigma = trial.sigma;
      return;
    }
    (trial.sigma < s.sigma ? lo : hi) = trial.sigma;
  }
}

// Draws t for a one-parameter group move (Liu and Sabatti, JASA 2000) from `density`, the log
// density of the moved state plus the log Jacobian of the move, with respect to dt (the Haar
// measure of the additive group): slice sampling (Neal 2003) stepping out by width 1 at most
// kMaxSteps times, split at random between the two sides as reversibility requires, then
// shrinking towards 0 (the current state). Returns 0 if rounding keeps the shrinkage from
// ending.
double group_slice(const std::function<double(double)> &density, random::Rng &rng) {
  const double level = density(0.0) + std::log(random::uniform01(rng));
  double lo = -random::uniform01(rng), hi = lo + 1.0;
  int left = static_cast<int>(kMaxSteps * random::uniform01(rng)), right = kMaxSteps - 1 - left;
  for (; left > 0 && density(lo) > level; --left) lo -= 1.0;
  for (; right > 0 && density(hi) > level; --right) hi += 1.0;
  for (int step = 0; step < kMaxShrinks; ++step) {
    const double t = lo + (hi - lo) * random::uniform01(rng);
    if (density(t) > level) return t;
    (t < 0.0 ? lo : hi) = t;
  }
  return 0.0;
}

// u = G beta: the moves of G at fixed beta carry u along.
std::vector<double> gram_times(const Matrix &g, const std::vector<double> &beta) {
  std::vector<double> out(beta.size(), 0.0);
  for (int64_t j = 0; j < g.cols(); ++j)
    for (int64_t i = 0; i < g.rows(); ++i) out[at(i)] += g(i, j) * beta[at(j)];
  return out;
}

// G with row and column i multiplied by e^t (G_ii by e^2t).
void scale_row(Matrix &g, const Matrix &from, int64_t i, double t) {
  const double f = std::exp(t);
  for (int64_t k = 0; k < g.rows(); ++k) {
    g(i, k) = from(i, k) * f;
    g(k, i) = from(k, i) * f;
  }
  g(i, i) = from(i, i) * f * f;
}

// Scale moves: where the noise on X'X~ is several times X'X, the likelihood hardly pins a scale
// G_ii down, and the elliptical step, which moves all the free entries of G at once around the
// released X'X~, changes a scale only slowly. The move G -> S G S, S = diag(1, .., e^t at i, ..,
// 1), is made at fixed beta (u = G beta follows G), a group move (Liu and Sabatti, JASA 2000):
// the action S . (G, beta) = (S G S, beta) has, in (G, u), the Jacobian e^((p + 1) t) on G's
// entries (G_ii scales by e^2t, the p - 1 others of its row by e^t) times det(S G S G^-1) = e^2t
// on u, so t is drawn from the density of the moved state times e^((p + 3) t). Made at fixed u
// instead, together with u's exact step below, it let a scale drift to 10^-300: in (G, u) the
// density carries 1 / det G, and at fixed u near 0 the move's density is flat in t down to a
// singular G, a funnel the chain random-walked into; at fixed beta it is e^2t there.
void step_scales(const Release &r, State &s, random::Rng &rng) {
  const int64_t p = s.gram.rows();
  for (int64_t i = 0; i < p; ++i) {
    if (i == r.intercept) continue;
    const std::vector<double> beta = coefficients(s);
    const Matrix start = s.gram;
    State trial = s;
    const auto moved = [&](double t, State &out) {
      scale_row(out.gram, start, i, t);
      out.u = gram_times(out.gram, beta);
    };
    const auto density = [&](double t) {
      moved(t, trial);
      return log_gram_likelihood(r, trial.gram) + log_target(r, trial) +
             static_cast<double>(p + 3) * t;
    };
    moved(group_slice(density, rng), s);
  }
}

// Each off-diagonal entry G_ij alone at fixed beta, by slice sampling G_ij + t: in (G, beta) a
// translation, so t is drawn from the density of (G, beta), that of (G, u) times det G. The
// elliptical step moves every entry at once on an ellipse through the released X'X~ and, where
// the noise on X'X~ is large against G, the positive definite set cuts that ellipse into short
// arcs: the correlations then hardly moved (4 effective draws in 2000 at d = 10). The step
// width, half of sqrt(G_ii G_jj) (the range of G_ij is within +-sqrt(G_ii G_jj)), depends only
// on entries the move holds fixed.
void step_entries(const Release &r, State &s, random::Rng &rng) {
  const int64_t p = s.gram.rows();
  for (int64_t j = 1; j < p; ++j)
    for (int64_t i = 0; i < j; ++i) {
      const std::vector<double> beta = coefficients(s);
      const double start = s.gram(i, j), width = 0.5 * std::sqrt(s.gram(i, i) * s.gram(j, j));
      State trial = s;
      const auto moved = [&](double t, State &out) {
        out.gram(i, j) = out.gram(j, i) = start + width * t;
        out.u = gram_times(out.gram, beta);
      };
      const auto density = [&](double t) {
        moved(t, trial);
        Matrix l;
        if (!factor(trial.gram, l)) return kMinusInf;
        return log_posterior(r, trial) + linalg::log_det_from_cholesky(l);
      };
      moved(group_slice(density, rng), s);
    }
}

// The move along the ridge that y'y~ leaves: its mean beta'G beta + n sigma^2 = |z|^2 + w^2 with
// z = L^-1 u (G = L L') and w = sqrt(n) sigma, so at fixed G the chain's other moves, each
// holding one of u and sigma, trade the explained part for the error variance only slowly.
// In the plane of z's direction and w, (z, w) = rho (cos phi z/|z|, sin phi): a rotation keeps
// the mean; in these coordinates the measure of (z, w) is |rho cos phi|^(p-1) rho d(rho) d(phi)
// times the direction's, so phi is slice sampled at fixed rho and direction from the density of
// the rotated state times |cos phi|^(p-1) (u = L z and sigma = w / sqrt(n) are linear in z and
// w at fixed G: constant Jacobians). On the state it scales u by cos phi / cos phi_0 and sets
// sigma = rho sin phi / sqrt(n); sigma outside (0, sigma_max] is outside the support.
void step_ridge(const Release &r, State &s, random::Rng &rng) {
  Matrix l;
  if (!factor(s.gram, l)) return;
  const std::vector<double> beta = cholesky_solve(l, s.u);
  double q = 0.0;
  for (size_t i = 0; i < beta.size(); ++i) q += beta[i] * s.u[i];
  const double z = std::sqrt(std::max(q, 0.0)), w = std::sqrt(r.n) * s.sigma;
  if (!(z > 0.0)) return;
  const double rho = std::hypot(z, w), phi0 = std::atan2(w, z);
  const double pm1 = static_cast<double>(s.gram.rows() - 1);
  State trial = s;
  const auto moved = [&](double t, State &out) {
    const double f = std::cos(phi0 + t) * rho / z;
    for (size_t i = 0; i < s.u.size(); ++i) out.u[i] = s.u[i] * f;
    out.sigma = rho * std::sin(phi0 + t) / std::sqrt(r.n);
    return f;
  };
  const auto density = [&](double t) {
    const double f = moved(t, trial);
    if (!(trial.sigma > 0.0 && trial.sigma <= r.sigma_max) || f == 0.0) return kMinusInf;
    return log_target(r, trial) + pm1 * std::log(std::abs(std::cos(phi0 + t)));
  };
  const double t = group_slice(density, rng);
  if (t != 0.0) moved(t, s);
}

}  // namespace

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
  r.sigma_max = sigma_prior_bound(receipt);
  r.intercept = intercept;
  for (int64_t j = 0; j < receipt.dim; ++j)
    r.prior_sd.push_back(2.0 * relevant_half_range(receipt, intercept, j));
  return r;
}

GramCoordinates gram_coordinates(const Release &r) {
  const int64_t p = r.xtx.rows();
  GramCoordinates c;
  for (int64_t j = 0; j < p; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      if (i == j && i == r.intercept) continue;
      c.entries.emplace_back(i, j);
      c.scales.push_back(i == j ? r.sigma_diag : r.sigma_off);
    }
  return c;
}

double log_posterior(const Release &r, const State &s) {
  return log_target(r, s) + log_gram_likelihood(r, s.gram);
}

ReleaseScore release_score(const Release &r, const GramCoordinates &coords, const State &s) {
  ReleaseScore out;
  for (size_t k = 0; k < coords.entries.size(); ++k) {
    const auto [i, j] = coords.entries[k];
    out.score.push_back((s.gram(i, j) - r.xtx(i, j)) / (coords.scales[k] * coords.scales[k]));
  }
  std::vector<double> res;
  statistics_law(r, s, coefficients(s), out.statistics_cov, res);
  Matrix l;
  if (!factor(out.statistics_cov, l)) {
    out.score.clear();
    return out;
  }
  for (double v : cholesky_solve(l, res)) out.score.push_back(-v);
  return out;
}

std::vector<double> coefficients(const State &s) {
  Matrix l;
  linalg::cholesky(s.gram, l);  // the chain stays where G is positive definite
  return cholesky_solve(l, s.u);
}

void sweep(const Release &r, const GramCoordinates &coords, State &s, random::Rng &rng,
           unsigned moves) {
  if (moves & kMoveGram) step_gram(r, coords, s, rng);
  if (moves & kMoveU) step_u(r, s, rng);
  if (moves & kMoveSigma) step_sigma(r, s, rng);
  if (moves & kMoveRidge) step_ridge(r, s, rng);
  if (moves & kMoveScales) step_scales(r, s, rng);
  if (moves & kMoveEntries) step_entries(r, s, rng);
}

// A feasible start: the released X'X~ with its eigenvalues raised to one noise standard
// deviation and G_cc = n, its free scales G_ii multiplied by e^spread and sigma at `sigma_share`
// of B_Y (chains started apart, so that R-hat sees a chain that has not forgotten its start),
// moved towards a diagonal interior point until feasible.
State initial_state(const Release &r, double spread, double sigma_share) {
  const int64_t p = r.xtx.rows();
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

}  // namespace dpcov::estimators::posterior
