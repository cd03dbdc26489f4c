// Dong, Liang & Yi, "Differentially Private Covariance Revisited" (NeurIPS 2022): the covariance
// X^T X / n of n rows of norm <= r, rho-zCDP under replace-one with n public
// (proofs/dong_liang_yi.md). Three variants, as in the authors' code (adaptive/algos.py):
// - Gauss: X^T X / n + symmetric N(0, sigma^2), sigma = r^2 / (n sqrt(rho));
// - Separate (Alg. 1): the eigenvalues of X^T X / n plus N(0, 2 r^4 / (n^2 rho)) each (rho / 2),
//   with the eigenvectors of a Gauss release at rho / 2;
// - AdaptivePaper (Alg. 3 as the code runs it): a private trace (rho / 8) bounds the error of
//   each branch; the sparse vector technique (rho / 8) over the histogram of row norms picks the
//   clipping radius r~ = r 2^{1-j} where the clipping bias first exceeds the noise bound; then
//   Gauss or Separate, whichever has the smaller bound, on the rows clipped to r~ (3 rho / 4);
// - Adaptive (the default): the same three steps with dpcov's rules: a first look at the histogram
//   of row norms with Gaussian noise (rho / 512) that settles r~ = r when most rows are near the
//   bound; otherwise a private trace (rho / 128) and a second look (15 rho / 512), averaged with
//   the first, and r~ = r 2^-q minimising the expected squared error (bias from the noisy
//   histogram, noise from the bounds scaled by their looseness); then the release at
//   511 rho / 512 (settled) or 123 rho / 128 in two halves: a Gauss release at half of it first,
//   then either a second one averaged with it (Gauss) or the noisy eigenvalues paired with its
//   eigenvectors (Separate), whichever has the smaller expected error estimated from tr~ (the
//   first half's trace when settled) and the first half (privacy::dly_adaptive_split, dly_first_look_margin,
//   dly_histogram_sigma, dly_bound_looseness, dly_flat_spectrum_factor, dly_spread_noise,
//   dly_bulk_margins).
// Every variant clips its rows to r first (part of the mechanism) and clamps the released
// eigenvalues to [0, r^2] (r~^2 for the adaptive variants; post-processing, the code's
// b_fleig = True).
#pragma once

#include <cstdint>

#include "../matrix.hpp"
#include "../random/rng.hpp"
#include "row_pass.hpp"

namespace dpcov::mechanisms {

enum class DlyVariant : int32_t { Gauss = 0, Separate = 1, Adaptive = 2, AdaptivePaper = 3 };

struct DlyRequest {
  DlyVariant variant = DlyVariant::Adaptive;
  int64_t dim = 0;      // d >= 1
  int64_t n = 0;        // rows, >= 1 (public)
  double rho = 0.0;     // total zCDP budget, finite and > 0
  double radius = 1.0;  // r: the public bound on row norms, finite and > 0
  double beta = 0.1;    // failure probability of Adaptive's error bounds, in (0, 1)
  double delta = 1e-6;  // delta of the (epsilon, delta) the receipt reports, in (0, 1)
};

struct DlyReceipt {
  DlyVariant variant = DlyVariant::Adaptive;
  int64_t dim = 0;
  int64_t n = 0;
  double rho = 0.0;
  double radius = 0.0;
  double beta = 0.0;
  double epsilon = 0.0;  // rho-zCDP as (epsilon, delta)-DP (privacy::zcdp_epsilon)
  double delta = 0.0;
  // The budget of the final Gauss or Separate release (Adaptive: the plan states the budget when
  // the first look does not settle the radius, the smaller; a settled release reports its own).
  double rho_covariance = 0.0;
  double trace_sigma = 0.0;       // Adaptive and AdaptivePaper only; 0 in a settled release
  double svt_epsilon = 0.0;       // AdaptivePaper only
  double histogram_sigma = 0.0;   // Adaptive only: the second look's; 0 in a settled release
  double first_look_sigma = 0.0;  // Adaptive only
  int64_t svt_queries = 0;        // Adaptive and AdaptivePaper only
  // Adaptive variants: outputs of the private steps (covered by the budget), release only (-1 and 0
  // in a plan). Gauss and Separate: data-independent, the same in the plan and the release.
  int32_t branch = -1;              // the DlyVariant of the final release (Gauss or Separate)
  double clip_radius = 0.0;         // r~ (= r except for Adaptive)
  double sigma_matrix = 0.0;        // Gauss noise sigma of the final release (at r~)
  double sigma_eigenvalues = 0.0;   // Separate's eigenvalue noise sigma (at r~), else 0
  int32_t first_look_settled = -1;  // Adaptive release: 1 if the first look settled r~ = r, else 0
  bool seed_fixed = false;

  bool operator==(const DlyReceipt &) const = default;
};

struct DlyRelease {
  Matrix covariance;  // d x d, exactly symmetric, eigenvalues in [0, r~^2]
  DlyReceipt receipt;
};

// Every data-independent constant, without data or randomness. Throws Status::InvalidArgument,
// Status::NonFinite or Status::Dimension naming the argument out of range.
DlyReceipt dly_plan(const DlyRequest &request);

// The release on the n x d `rows` (any layout; finite). Rows of norm > r are scaled to norm r.
// It runs on the rows in units of a power of two 2^e with r 2^-e in [1, 2) and scales its
// output back by 4^e, so that the second moment and its noise are normal doubles at every r
// (proofs/dong_liang_yi.md, "Floating point").
// Throws as dly_plan(), Status::Dimension if `rows` is not n x d, Status::NonFinite, and
// Status::Numerical if an eigendecomposition fails.
DlyRelease dly_release(ConstMatrixView rows, const DlyRequest &request, random::Rng &rng);

// The release as passes over the rows (row_pass.hpp), for rows streamed, re-read or spread over
// processes: pass 0 sums the rows clipped to r (and, for the adaptive variants, their norm
// histogram); the adaptive variants then draw their private steps and, when they choose a radius
// r~ < r, ask for pass 1, the rows clipped to r~. dly_release() is this with one partial of all
// rows. The generator is drawn from in finish_pass(); it must outlive the object. Throws as
// dly_plan() on construction.
class DlyPasses {
 public:
  DlyPasses(const DlyRequest &request, random::Rng &rng);
  bool done() const { return done_; }
  // The next pass (public values only: the plan's radii and r~, which the receipt releases).
  // Status::InvalidArgument when done().
  const RowPass &pass() const;
  // Draws the noise of the pass whose merged sums over all n rows are `merged`, and decides the
  // next pass. Throws as check_pass_sums() (before any draw) and Status::Numerical.
  void finish_pass(const RowPartial &merged);
  // Status::InvalidArgument before done().
  const DlyRelease &release() const;

 private:
  void choose_radius(const Matrix &s, const std::vector<double> &counts);
  void final_release(const Matrix &s);
  DlyRelease dpcov_branch_release(const Matrix &s);
  DlyRelease fixed_branch_release(const Matrix &s);

  DlyRequest request_;
  DlyReceipt receipt_;  // the plan in the caller's units
  int exponent_ = 0;    // e = ilogb(r): the release runs in units of 2^e
  DlyRequest unit_;     // the request at r 2^-e, in [1, 2)
  DlyReceipt unit_receipt_;
  random::Rng *rng_;
  RowPass pass_;
  bool done_ = false;
  double scale_ = 1.0;       // r~ / r
  double u_ = 1.0;           // where the branch's errors are evaluated, in units of r
  double trace_unit_ = 1.0;  // tr~ / r^2
  DlyRelease result_;
};

// Adaptive's branch choice, exposed so that bench/dly_estimates can set its estimates against the
// errors they predict (proofs/dong_liang_yi.md, "Branch"). Post-processing only: from the first
// half `first` = S~ + E_1 of the release (E_1 symmetric, iid N(0, sigma^2) upper triangle), the
// expected Frobenius errors of Gauss (`first` averaged with a second half, eigenvalues clamped)
// and of Separate (`first`'s eigenvectors with the eigenvalues at sigma, clamped to [0, upper]).
// Adaptive takes Separate when its estimate is the smaller. The estimates are in units of `unit`,
// an even power of two within a factor of four of sigma, so that they are finite at every sigma
// the release allows.
struct DlyBranchErrors {
  double gauss;
  double separate;
  double unit;
};
DlyBranchErrors dly_branch_errors(const Matrix &first, double sigma, double upper,
                                  double separate_bound);

// The paper's Separate error bound at the radius u r, for the release at rho_covariance on data
// of (private) trace trace_unit r^2, times privacy::dly_bound_looseness().separate.
double dly_separate_bound(const DlyRequest &request, double rho_covariance, double trace_unit,
                          double u);

}  // namespace dpcov::mechanisms
