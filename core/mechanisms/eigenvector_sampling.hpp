// What iterative eigenvector sampling (Amin, Dick, Kulesza, Munoz Medina, Vassilvitskii, NeurIPS
// 2019, Alg. 1; iev.hpp) and its Kapralov-Talwar rank-one variant (kt_rank1.hpp) share: the plan,
// the sampling loop, and the densities an auditor evaluates on neighbouring datasets.
// proofs/iev.md, proofs/kt_rank1.md.
//
// A release draws lambda_hat_i = lambda_i(G) + Lap(b) for the top k eigenvalues, then k unit
// vectors theta_i, step i from the Bingham density proportional to exp(kappa_i theta^T C_i theta):
// - IEV (Deflation::Project): theta_i on the unit sphere of the orthogonal complement of
//   theta_1..theta_{i-1}, C_i = G compressed to that complement;
// - KT (Deflation::RankOne): theta_i on S^{d-1}, C_i = G - sum_{j<i} lambda_hat_j theta_j theta_j^T.
// The release is sum_i lambda_hat_i theta_i theta_i^T with its eigenvalues clipped to [0, n B^2].
//
// Both hold C_i as a dense matrix and draw from it without diagonalising it
// (random/bingham_dense.hpp): IEV as a block in a basis of Householder reflections, compressed in
// O(q^2) per step, KT in G's coordinates, updated in O(d^2).
//
// Timing side channel: the number of proposals the Bingham rejection sampler needs depends on the
// spectrum of each C_i, hence on the data; the receipt reports the totals. A caller that must hide
// it has to pad the running time. A release that exhausts the sampler's proposal cap (10^6 in a row,
// which does not happen for valid input) throws Status::NoConvergence, which is data-dependent too.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "../matrix.hpp"
#include "../random/rng.hpp"
#include "receipt.hpp"
#include "request.hpp"

namespace dpcov::mechanisms {

enum class Deflation {
  Project,  // IEV: restrict to the orthogonal complement of the vectors drawn so far
  RankOne,  // KT: subtract lambda_hat_i theta_i theta_i^T
};

// The receipt of `mechanism` (MechanismId::Iev or MechanismId::KtRank1) for `request`: budget
// split, eigenvalue scale, exponent, rank, clip; no data, no randomness. Throws the status of the
// first argument out of range.
Receipt plan_eigenvector_sampling(MechanismId mechanism, const Request &request);

// Everything a release draws, in step order; the released matrix is a function of it.
struct EigenvectorTranscript {
  std::vector<double> lambda_hat;     // the k noisy eigenvalues, before clipping
  std::vector<double> step_epsilons;  // eps_i of each eigenvector step
  std::vector<double> kappas;         // the Bingham exponent kappa_i of each step
  Matrix thetas;                      // d x k; column i is theta_i
  std::vector<int64_t> proposals;     // Bingham proposals of each step (>= 1)
};

struct EigenvectorRelease {
  Release release;
  EigenvectorTranscript transcript;
};

// Checks the statistic, samples with the constants of `planned` (the plan of `request`,
// computed once by the caller). The receipt's proposal and rejection totals are filled.
EigenvectorRelease release_eigenvector_sampling(MechanismId mechanism, ConstMatrixView gram,
                                                const Request &request, const Receipt &planned,
                                                random::Rng &rng);

// ln density of the released eigenvalues given G: sum_{i<k} [-|lambda_hat_i - lambda_i(G)| / b -
// ln(2 b)], lambda_i(G) in decreasing order, b the planned Laplace scale.
double eigenvalue_log_density(MechanismId mechanism, std::span<const double> lambda_hat,
                              ConstMatrixView gram, const Request &request);

// ln of the unnormalised Bingham density of step `step` at the unit vector `theta` (d values),
// kappa_step theta^T C_step theta, with C_step built from `gram` and the earlier steps of
// `transcript` as in the header comment. For IEV theta must be orthogonal to the earlier thetas
// (within 1e-10; Status::InvalidArgument otherwise): the density lives on their complement.
// Between neighbouring datasets this changes by at most bingham_step_epsilon() / 2 (replace-one)
// or bingham_step_epsilon() (add/remove); the normalisers account for the rest (proofs/iev.md).
double step_log_unnormalised_density(MechanismId mechanism, ConstMatrixView gram,
                                     const EigenvectorTranscript &transcript, int64_t step,
                                     const double *theta);

}  // namespace dpcov::mechanisms
