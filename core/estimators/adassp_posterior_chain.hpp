// The Markov chain behind adassp_posterior_intervals: its state, its target density and its moves
// (proofs/adassp_posterior.md, "The sampler"). Separate from the intervals so that a test can run
// each move on states drawn from the prior (the joint-distribution test of Geweke, JASA 2004) and a
// benchmark can trace the chain's blocks.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "../matrix.hpp"
#include "../mechanisms/adassp.hpp"
#include "../random/rng.hpp"

namespace dpcov::estimators::posterior {

// What the posterior reads: the release, the receipt's noise scales and public bounds.
struct Release {
  Matrix xtx;
  std::vector<double> xty;
  double yty = 0.0;
  double n = 0.0;
  double sigma_diag = 0.0, sigma_off = 0.0, sigma_cross = 0.0, sigma_label = 0.0;
  double trace_max = 0.0, sigma_max = 0.0;
  int64_t intercept = -1;
  std::vector<double> prior_sd;  // of each beta_j: 2 R_j
};

Release make_release(const Matrix &xtx, const std::vector<double> &xty, double yty, int64_t n,
                     const mechanisms::AdasspReceipt &receipt, int64_t intercept);

// The chain runs on (G, u = G beta, sigma): X'y~ pins u down whatever G is, so a move of G at fixed
// u moves beta along the ridge G beta = u that a chain on (G, beta) would cross only in small
// steps. The density in these coordinates is that of (G, beta, sigma) divided by det G.
struct State {
  Matrix gram;
  std::vector<double> u;
  double sigma = 0.0;
};

// The free entries of G (upper triangle, column by column, without the intercept's diagonal)
// with the standard deviation of the released noise on each.
struct GramCoordinates {
  std::vector<std::pair<int64_t, int64_t>> entries;
  std::vector<double> scales;
};

GramCoordinates gram_coordinates(const Release &r);

// The log posterior density of a state in (G, u, sigma) up to a constant, including the released
// X'X~'s Gaussian factor; -inf outside the prior's support.
double log_posterior(const Release &r, const State &s);

// The score of the release's likelihood at a state, d log p(release | state) / d release: over
// the free entries of X'X~ (in `coords`' order), then X'y~ and y'y~; and the covariance of
// (X'y~, y'y~) at the state, (p + 1) x (p + 1). The posterior's sensitivity to its release
// (adassp_posterior.cpp, "sampling share"). `score` is empty where that covariance is not
// positive definite.
struct ReleaseScore {
  std::vector<double> score;
  Matrix statistics_cov;
};

ReleaseScore release_score(const Release &r, const GramCoordinates &coords, const State &s);

// beta = G^-1 u of a state in the support.
std::vector<double> coefficients(const State &s);

// The moves a sweep can make, applied in this order; each leaves the posterior invariant
// (tests/statistical/adassp_posterior_invariance_test.cpp).
enum Move : unsigned {
  kMoveGram = 1u,      // elliptical slice on the free entries of G
  kMoveU = 2u,         // elliptical slice on u from its Gaussian conditional without y'y~
  kMoveSigma = 4u,     // slice sampling of sigma
  kMoveRidge = 8u,     // u's length against sigma at a fixed mean of y'y
  kMoveScales = 16u,   // a group move of each scale G_ii at fixed beta
  kMoveEntries = 32u,  // slice sampling of each off-diagonal entry of G at fixed beta
  kMoveAll = 63u,
};

// The moves of the library's sweep.
inline constexpr unsigned kMoveSweep = kMoveAll;

void sweep(const Release &r, const GramCoordinates &coords, State &s, random::Rng &rng,
           unsigned moves = kMoveSweep);

// A feasible start: the released X'X~ with its eigenvalues raised to one noise standard
// deviation and G_cc = n, its free scales G_ii multiplied by e^spread and sigma at `sigma_share`
// of B_Y, moved towards a diagonal interior point until feasible.
State initial_state(const Release &r, double spread, double sigma_share);

}  // namespace dpcov::estimators::posterior
