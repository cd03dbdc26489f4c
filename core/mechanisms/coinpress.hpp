// CoinPress covariance estimation: Biswas, Dong, Kamath & Ullman, "CoinPress: Practical Private
// Mean and Covariance Estimation" (NeurIPS 2020), Alg. 3 (t steps of Alg. 2), rho-zCDP under
// replace-one with n public (proofs/coinpress.md).
//
// For rows x_1..x_n of a zero-mean Gaussian-like distribution with I <= Sigma <= K I, each step
// whitens the rows with the current private transform A (w = A x), clips them to the norm gamma,
// releases Z = W^T W / n + N(0, sigma^2) (symmetric), projects Z onto the positive semidefinite
// cone and, except at the last step, sets A := (Z + eta I)^{-1/2} A. The estimate is
// A^{-1} Z A^{-T} with the last Z. Every step is a Gaussian mechanism on data clipped to a radius
// that depends only on earlier releases, so the steps compose adaptively to sum_i rho_i-zCDP.
//
// The update multiplies A on the left, as the paper does (rows transformed as A x). The authors'
// code forms X A (rows A^T x) and returns A^{-1} Z A^{-1}, the same thing only while A is
// symmetric; after the first step A is a product of noisy, non-commuting matrices, so even at
// Sigma = I the code whitens less well and amplifies the last step's noise (its error at d = 10,
// n = 3000 is 0.31 against 0.25 here). Its "PSD projection" rebuilds U |Lambda| U^T from an SVD,
// i.e. flips negative eigenvalues instead of zeroing them. Both are utility, not privacy.
#pragma once

#include <cstdint>
#include <vector>

#include "../matrix.hpp"
#include "../random/rng.hpp"
#include "row_pass.hpp"

namespace dpcov::mechanisms {

struct CoinpressRequest {
  int64_t dim = 0;       // d >= 1
  int64_t n = 0;         // rows, >= 1 (public)
  double rho = 0.0;      // total zCDP budget, finite and > 0
  double k_bound = 0.0;  // K >= 1, finite: the public prior I <= Sigma <= K I
  int64_t steps = 3;     // t in [1, privacy::kCoinpressMaxSteps]
  double beta = 0.1;     // clipping failure probability of gamma, in (0, 1)
  double delta = 1e-6;   // delta of the (epsilon, delta) the receipt reports, in (0, 1)
  // Run the two departures of the authors' code from the paper (below), to reproduce its
  // committed results (bench/coinpress_table); the privacy is the same. Not in the C ABI.
  bool authors_code = false;
};

struct CoinpressReceipt {
  int64_t dim = 0;
  int64_t n = 0;
  int64_t steps = 0;
  double rho = 0.0;      // the total budget; the shares sum to at most rho
  double k_bound = 0.0;
  double beta = 0.0;
  double clip_radius = 0.0;  // gamma
  double eta = 0.0;
  double epsilon = 0.0;  // rho-zCDP as (epsilon, delta)-DP (privacy::zcdp_epsilon)
  double delta = 0.0;
  std::vector<double> step_rho;
  std::vector<double> step_sigma;
  bool seed_fixed = false;  // release only

  bool operator==(const CoinpressReceipt &) const = default;
};

struct CoinpressRelease {
  Matrix covariance;  // d x d, exactly symmetric, positive semidefinite
  CoinpressReceipt receipt;
};

// Every constant of a release, without data or randomness. Throws Status::InvalidArgument,
// Status::NonFinite or Status::Dimension naming the argument out of range.
CoinpressReceipt coinpress_plan(const CoinpressRequest &request);

// The release on the n x d `rows` (any layout; finite, else Status::NonFinite). The rows are not
// modified. Throws as coinpress_plan(), Status::Dimension if `rows` is not n x d, and
// Status::Numerical if an eigendecomposition fails.
CoinpressRelease coinpress_release(ConstMatrixView rows, const CoinpressRequest &request,
                                   random::Rng &rng);

// The steps behind coinpress_release, for the exact per-step audit
// (core/audit/coinpress_steps_audit.hpp): step i's noisy second moment Y_i = W_i^T W_i / n + E_i
// has a Gaussian density given Y_1..Y_{i-1}, which fix A_{i-1}, and the release is a
// post-processing of Y_1..Y_t. The Y_i are unreleased noisy intermediates: audits and tests only,
// never published (not in the C ABI).

// The constants each step runs with: coinpress_steps(plan) gives a release's (gamma at every step,
// the plan's sigma_i, eta, K); the audit's tests change them to build known-broken releases.
struct CoinpressSteps {
  std::vector<double> clip_radius;  // gamma_i, one per step
  std::vector<double> sigma;        // sigma_i, one per step
  double eta = 0.0;
  double k_bound = 1.0;
  bool authors_code = false;
};
CoinpressSteps coinpress_steps(const CoinpressReceipt &plan);

// The steps as passes over the rows (row_pass.hpp), for rows streamed, re-read or spread over
// processes: pass i sums the rows whitened by A_{i-1} and clipped to gamma_i; finish_pass()
// draws step i's noise and sets A_i, which the next pass publishes (a post-processing of the
// noisy Y_1..Y_i, covered by the composition of the steps). With a `centre` (d finite values,
// the release of a CoinPress mean of the same rows), every pass centres each row on it first
// (coinpress_centred_rows; proofs/coinpress_mean.md, "Centring"). The generator (and
// `transcript`, if not null: Y_1..Y_t appended) must outlive the object.
class CoinpressPasses {
 public:
  CoinpressPasses(const CoinpressSteps &steps, int64_t dim, int64_t n, random::Rng &rng,
                  std::vector<Matrix> *transcript = nullptr, std::vector<double> centre = {});
  bool done() const { return done_; }
  // Status::InvalidArgument when done().
  const RowPass &pass() const;
  // Throws as check_pass_sums() (before any draw) and Status::Numerical.
  void finish_pass(const RowPartial &merged);
  // The estimate A^{-1} Z A^{-T}; Status::InvalidArgument before done().
  const Matrix &estimate() const;

 private:
  CoinpressSteps steps_;
  int64_t n_;
  random::Rng *rng_;
  std::vector<Matrix> *transcript_;
  // A and its inverse, kept side by side so that the estimate needs no inversion.
  Matrix a_;
  Matrix a_inverse_;
  RowPass pass_;
  bool done_ = false;
  Matrix estimate_;
};

// The rows x_i - c (n x d), each a function of x_i and the public c alone. A row whose difference
// overflows (entries near the largest double on opposite sides of c) is centred halved,
// x_i / 2 - c / 2: the same direction, finite, and far beyond any clip radius, so that it is
// clipped as its unhalved image would be. Subtracted plainly, its infinite entries failed the
// release on a dataset and not on its neighbour without the row.
Matrix coinpress_centred_rows(ConstMatrixView rows, const std::vector<double> &centre);

// The rows A x_i (x_i^T A for the authors' code), each clipped to norm <= gamma (n x d).
Matrix coinpress_whitened_rows(ConstMatrixView rows, const Matrix &a, double gamma,
                               bool authors_code);

// The estimate of a release with these steps (clip_radius and sigma of the same length t >= 1) on
// the n x d `rows` (finite, checked by the caller), and, if `transcript` is not null, Y_1..Y_t
// appended to it (before the PSD projection).
Matrix coinpress_run(ConstMatrixView rows, const CoinpressSteps &steps, random::Rng &rng,
                     std::vector<Matrix> *transcript);

// A step's statistic W^T W / n (exactly symmetric), W the rows A x (x^T A for the authors' code)
// clipped to norm gamma: the mean of Y_i given A = A_{i-1}.
Matrix coinpress_step_moment(ConstMatrixView rows, const Matrix &a, double gamma,
                             bool authors_code = false);

// A_i = (proj_PSD(Y_i) + eta I)^{-1/2} A_{i-1}, as the release computes it (the paper's form).
Matrix coinpress_next_transform(const Matrix &a, const Matrix &noisy_moment, double eta);

}  // namespace dpcov::mechanisms
