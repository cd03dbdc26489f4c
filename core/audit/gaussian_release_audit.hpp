// The exact-density audit of a release whose audited coordinates are Gaussian around a claimed
// mean: the upper triangle of a noisy second moment (Dong-Liang-Yi Gauss, one CoinPress step) or
// its eigenvalues (Dong-Liang-Yi Separate's eigenvalue step), on a replace-one pair of row sets,
// where the release's post-processing (an eigenvalue clamp) is shown not to bind.
// rows_exact_audit.hpp states the pairs and claims of the library's releases; the privacy tests
// (tests/privacy/*_exact_audit_test.cpp) audit them and their known-broken variants with it.
//
// Statistics (each direction: draws from X, loss against X', and the reverse):
// - the auditor's (run_exact_audit, alpha / 2 split over 2 directions x 3 tests):
//   conformance of the standardised noise (KS against the DKW threshold), the Gaussian pair at the
//   claimed distance (upper-triangle coordinates only: the sampler's projected sigma bounds the
//   pair's delta from below), and delta(eps) = E[(1 - e^{eps - L})_+] from each output's exact L
//   (empirical Bernstein), against the claimed (epsilon, delta);
// - the two-sample Gaussian pair (alpha / 2): the outputs' coordinates projected on the unit
//   direction u of the claimed shift, from X and from X'; an upper confidence bound s_up on their
//   common sigma (chi-square, 2 trials - 2 dof) and a lower one on the distance of their means
//   give a lower confidence bound rho_lower = shift_low^2 / (2 s_up^2) on the rho that the
//   implementation spends on this pair (the projection is a post-processing of the output, so its
//   rho is at most the release's), flagged above the claimed rho. It does not trust the claimed
//   means, so it also sees a release whose sensitivity is larger than claimed.
// The clamp: an output with an eigenvalue within 1e-9 unit^2 of a clamp end counts as a hit (the
// density argument needs none; a hit makes the audit's premise fail, reported as clamp_hits).
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "../matrix.hpp"
#include "../random/rng.hpp"
#include "loss_audit.hpp"
#include "target.hpp"

namespace dpcov::audit::gaussian_release {

// n x d rows: row 0 at 2 unit e_{changed_axis} (clipped to unit e_{changed_axis} by a release
// that bounds rows by unit), then count_k rows at unit e_k for each listed (k, count_k), the rest
// zero. Changing axis 0 to 1 moves the second moment by (e_1 e_1^T - e_2 e_2^T) unit^2 / n, a
// diagonal difference: among rows of norm unit it has the largest upper-triangle norm,
// sqrt(2) unit^2 / n (= its Frobenius norm; an off-diagonal difference counts once there).
Matrix axis_rows(int64_t n, int64_t d, double unit, int64_t changed_axis,
                 std::initializer_list<std::pair<int64_t, int64_t>> counts);

// X^T X / n of the rows scaled onto the sphere of radius `clip` where their norm exceeds it.
Matrix clipped_second_moment(const Matrix &x, double clip);

// The audited coordinates of a matrix: the upper triangle or the ascending eigenvalues.
enum class Coordinates { UpperTriangle, Eigenvalues };

std::vector<double> coordinates(Coordinates kind, const Matrix &m);

// The claim: coordinates(output) ~ N(coordinates(base[k]), sigma^2 I) on dataset k, a release
// that spends rho on the pair and is (epsilon, delta)-DP; its clamp keeps eigenvalues in
// [lower, upper].
struct Subject {
  std::string name;
  Coordinates kind = Coordinates::UpperTriangle;
  Matrix rows[2];  // X, X'
  Matrix base[2];
  double sigma = 0.0, rho = 0.0, epsilon = 0.0, delta = 0.0;
  double lower = 0.0, upper = 0.0;
  double unit = 1.0;

  // |coordinates(base') - coordinates(base)| and its unit direction.
  std::pair<double, std::vector<double>> shift() const;
};

using Release = std::function<Matrix(ConstMatrixView rows, random::Rng &rng)>;

// What the release function records besides the auditor's statistics.
struct Record {
  std::vector<double> projections[2];  // <coordinates(output), u>, from X and from X'
  int64_t clamp_hits = 0;
};

double gaussian_log_density(const std::vector<double> &x, const std::vector<double> &mean,
                            double sigma);

// The two-sample Gaussian pair: a lower confidence bound (level 1 - alpha) on the rho of the pair
// N(m, s^2), N(m', s^2) the projections are drawn from.
struct TwoSample {
  double shift = 0.0;        // |mean' - mean| observed
  double sigma_upper = 0.0;  // s_up
  double rho_lower = 0.0;
};

TwoSample two_sample_rho(const std::vector<double> &a, const std::vector<double> &b, double alpha);

struct Verdict {
  AuditReport report;
  TwoSample pair;
  Record record;
  double claimed_rho = 0.0;
  double claimed_sigma = 0.0;
  int64_t rows = 0;  // of each dataset of the pair
  bool rho_flag() const { return pair.rho_lower > claimed_rho; }
  bool conformance_flag() const {
    return ((report.forward.findings | report.backward.findings) & kSamplerMismatch) != 0;
  }
  bool flagged() const { return report.violation() || rho_flag(); }
};

// Throws Status::InvalidArgument for trials < 2 or alpha outside (0, 1).
void check_trials_and_alpha(int64_t trials, double alpha);

// The audit at total error probability alpha (alpha / 2 to the auditor, alpha / 2 to the two-sample
// bound), `trials` (>= 2) draws per direction, reproducible from `seed`. Throws
// Status::InvalidArgument for trials < 2 or alpha outside (0, 1).
Verdict run_audit(const Subject &s, const Release &release, int64_t trials, double alpha,
                  uint64_t seed);

// The smallest distance, in noise sigmas, of the bases' eigenvalues from the clamp ends and from
// each other: at 40 the clamp binds and the order of noisy eigenvalues changes with probability
// below 1e-150 at d = 3 (P(chi2(6) > 800)).
double clamp_margin(const Subject &s);

}  // namespace dpcov::audit::gaussian_release
