// CoinPress mean estimation: Biswas, Dong, Kamath & Ullman, "CoinPress: Practical Private Mean
// and Covariance Estimation" (NeurIPS 2020), MVMRec (t steps of MVM), rho-zCDP under
// replace-one with n public (proofs/coinpress_mean.md).
//
// For rows x_1..x_n of a Gaussian-like distribution with mean mu, Cov <= s^2 I and a public prior
// ||mu - c_0|| <= r_0, step i projects every row onto the ball B(c_{i-1}, R_i) and releases
// c_i = mean of the projected rows + N(0, sigma_i^2 I); the prior radius then shrinks to r_i, a
// function of public values only, and the next ball is centred on the released c_i. The estimate
// is c_t. Each step is a Gaussian mechanism on rows clipped to a ball that depends only on earlier
// releases, so the steps compose adaptively to sum_i rho_i-zCDP. Every radius and sigma is
// public and fixed by the plan.
#pragma once

#include <cstdint>
#include <vector>

#include "../matrix.hpp"
#include "../random/rng.hpp"
#include "row_pass.hpp"

namespace dpcov::mechanisms {

struct CoinpressMeanRequest {
  int64_t dim = 0;       // d >= 1
  int64_t n = 0;         // rows, >= 1 (public)
  double rho = 0.0;      // total zCDP budget, finite and > 0
  double radius = 0.0;   // r_0 >= 0, finite: the public prior ||mu - c_0|| <= r_0
  double scale = 1.0;    // s > 0, finite: the public prior Cov <= s^2 I
  int64_t steps = 3;     // t in [1, privacy::kCoinpressMaxSteps]
  double beta = 0.01;    // tail probability of gamma, in (0, 1) (the code's 0.01)
  double delta = 1e-6;   // delta of the (epsilon, delta) the receipt reports, in (0, 1)
};

struct CoinpressMeanReceipt {
  int64_t dim = 0;
  int64_t n = 0;
  int64_t steps = 0;
  double rho = 0.0;      // the total budget; the shares sum to at most rho
  double radius = 0.0;   // r_0
  double scale = 0.0;
  double beta = 0.0;
  double tail_radius = 0.0;  // gamma = coinpress_clip_radius(d, beta)
  double epsilon = 0.0;  // rho-zCDP as (epsilon, delta)-DP (privacy::zcdp_epsilon)
  double delta = 0.0;
  std::vector<double> step_rho;
  std::vector<double> step_clip_radius;  // R_i
  std::vector<double> step_sigma;        // sigma_i
  bool seed_fixed = false;  // release only

  bool operator==(const CoinpressMeanReceipt &) const = default;
};

struct CoinpressMeanRelease {
  std::vector<double> mean;  // c_t, d values
  Matrix centres;            // t x d: row i is c_{i+1}, the centre released by step i + 1
  CoinpressMeanReceipt receipt;
};

// The release as t passes over the rows (row_pass.hpp): pass i sums the rows projected onto the
// ball B(c_{i-1}, R_i); finish_pass() draws step i's noise from the merged sums of all n rows and
// moves the centre. coinpress_mean_release() is this with one partial of all rows per pass.
class CoinpressMeanPasses {
 public:
  // `plan` from coinpress_mean_plan(); `centre` the public c_0 (d finite values).
  CoinpressMeanPasses(const CoinpressMeanReceipt &plan, std::vector<double> centre,
                      random::Rng &rng);
  bool done() const { return done_; }
  // Status::InvalidArgument when done().
  const RowPass &pass() const;
  // Throws as check_pass_sums() (before any draw) and Status::Numerical (a centre that
  // overflows, after the draw).
  void finish_pass(const RowPartial &merged);
  // c_t; Status::InvalidArgument before done().
  const std::vector<double> &mean() const;
  // t x d: row i is the centre released by step i + 1 (rows not yet released are 0).
  const Matrix &centres() const { return centres_; }

 private:
  void set_pass(size_t step);

  CoinpressMeanReceipt plan_;
  random::Rng *rng_;
  std::vector<double> centre_;
  Matrix centres_;
  RowPass pass_;
  bool done_ = false;
};

// Every constant of a release, without data or randomness. Throws Status::InvalidArgument,
// Status::NonFinite, Status::Dimension or Status::Numerical naming the argument out of range.
CoinpressMeanReceipt coinpress_mean_plan(const CoinpressMeanRequest &request);

// The release on the n x d `rows` (any layout; finite, else Status::NonFinite) from the public
// starting centre `centre` (d finite values). The rows are not modified. Throws as
// coinpress_mean_plan(), and Status::Dimension if `rows` is not n x d or `centre` not d long.
CoinpressMeanRelease coinpress_mean_release(ConstMatrixView rows, const std::vector<double> &centre,
                                            const CoinpressMeanRequest &request, random::Rng &rng);

// The statistic a step adds noise to: (1/n) sum_j f_j (x_j - centre), the mean offset from
// `centre` of the rows projected onto the ball B(centre, clip_radius) (f_j <= 1 brings the
// computed norm of f_j (x_j - centre) to at most clip_radius). Its L2 sensitivity is
// 2 clip_radius / n. The release adds the noise to this offset and only then the public centre, so
// that no rounding of the data-dependent value happens at the centre's magnitude before the noise.
// Exposed for the audit, which recomputes each step's density from it.
std::vector<double> coinpress_mean_projected_offset(ConstMatrixView rows,
                                                    const std::vector<double> &centre,
                                                    double clip_radius);

// Adds 2^-shift (x - centre) f for each of `rows` to the 1 x d sum and compensation (Neumaier):
// the sums of a CoinpressMeanStep pass. `centre` holds d finite values.
void coinpress_mean_add_offsets(ConstMatrixView rows, const std::vector<double> &centre,
                                double clip_radius, int shift, Matrix &sum, Matrix &carry);

}  // namespace dpcov::mechanisms
