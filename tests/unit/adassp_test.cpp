// AdaSSP in the kernel (core/mechanisms/adassp.hpp, core/privacy/adassp_constants.hpp): constants
// against values computed with mpmath (proofs/check/adassp.py checks 200 more points), the
// PSD-safe solve, fits that never fail, and the law of the noise.
//
// Statistical assertions: fixed seeds; each variance ratio over 4000 draws has standard deviation
// sqrt(2 / 4000) = 0.022, and the accepted band [0.85, 1.15] is 6.7 of them: a false failure has
// probability < 1e-10 per assertion. A wrong off-diagonal scale (sigma instead of sigma / sqrt 2,
// the mutation below) gives a ratio of 2.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "core/linalg/blas.hpp"
#include "core/mechanisms/adassp.hpp"
#include "core/privacy/adassp_constants.hpp"
#include "core/privacy/analytic_gaussian.hpp"

namespace dpcov::mechanisms {
namespace {

using privacy::Neighbour;

// mpmath, 50 digits (proofs/check/adassp.py prints them): sqrt(3) sigma_AG(eps, 1e-6, 1).
TEST(AdasspConstants, JointSigmaMatchesMpmath) {
  const struct {
    double eps, expected;
  } pins[] = {{0.5, 13.956204596621723}, {1.0, 7.3173584819777326}, {2.0, 3.8632982267716522},
              {4.0, 2.0672348327354537}};
  for (const auto &p : pins) {
    const double sigma = privacy::adassp_joint_sigma(p.eps, 1e-6, 1.0, 3);
    EXPECT_GE(sigma, std::sqrt(3.0) * privacy::analytic_gaussian_sigma(p.eps, 1e-6, 1.0) * (1 - 1e-15));
    EXPECT_GE(sigma, p.expected * (1 - 1e-15));
    EXPECT_LE(sigma, p.expected * (1 + 3e-9));
  }
}

// With y'y released (four shares): sqrt(4) sigma_AG(eps, 1e-6, 1), mpmath, 50 digits.
TEST(AdasspConstants, JointSigmaWithLabelSquareMatchesMpmath) {
  const struct {
    double eps, expected;
  } pins[] = {{0.5, 16.115236961450089}, {1.0, 8.4493577786536706}, {2.0, 4.4609525423728346},
              {4.0, 2.3870371743159704}};
  for (const auto &p : pins) {
    const double sigma = privacy::adassp_joint_sigma(p.eps, 1e-6, 1.0, 4);
    EXPECT_GE(sigma, p.expected * (1 - 1e-15));
    EXPECT_LE(sigma, p.expected * (1 + 3e-9));
  }
  EXPECT_EQ(privacy::adassp_label_square_sensitivity(3.0), 9.0);
  EXPECT_THROW(privacy::adassp_joint_sigma(1.0, 1e-6, 1.0, 5), Error);
}

// zCDP charge of a fit at (eps, 1e-6), three or four statistics, any bounds: mu^2 / 2 with
// mu = 1 / sigma_AG(eps, 1e-6, 1), mpmath, 50 digits (proofs/check/adassp.py prints them; it
// checks the rho of the library's own sigmas at 200 random points). The sigmas sit up to 3e-9
// above the exact calibration, so rho sits up to 6e-9 below the pin.
TEST(AdasspConstants, ZcdpRhoMatchesMpmath) {
  const struct {
    double eps, expected;
  } pins[] = {{0.5, 0.0077011681135938292}, {1.0, 0.028014481912630339},
              {2.0, 0.10050201972261245}, {4.0, 0.35100364841619819}};
  for (const auto &p : pins)
    for (const bool label_square : {false, true})
      for (const Neighbour nb : {Neighbour::ReplaceOne, Neighbour::AddRemove}) {
        AdasspOptions options;
        options.neighbour = nb;
        options.release_label_square = label_square;
        const AdasspReceipt r = plan_adassp(4, 3.0, 0.5, p.eps, 1e-6, options);
        EXPECT_LE(r.zcdp_rho, p.expected * (1 + 1e-14));
        EXPECT_GE(r.zcdp_rho, p.expected * (1 - 1e-8));
      }
  const double s[3] = {1.0, 2.0, 3.0}, sigma[3] = {2.0, 4.0, 6.0};
  EXPECT_EQ(privacy::adassp_zcdp_rho(s, sigma, 3), 0.375);
  EXPECT_EQ(privacy::adassp_zcdp_rho(s, sigma, 2), 0.25);
  EXPECT_THROW(privacy::adassp_zcdp_rho(s, sigma, 1), Error);
  EXPECT_THROW(privacy::adassp_zcdp_rho(s, sigma, 5), Error);
}

// Without the lambda_min step (proofs/adassp.md, "Without the lambda_min step"): X'X and X'y at
// sqrt(2) sigma_AG(eps, 1e-6, 1) Delta_k (mpmath, 50 digits; proofs/check/adassp.py prints
// them), or with y'y at sqrt(3) sigma_AG Delta_k; the same zCDP charge, the exact delta within
// the claim, no lambda_min constants and the ridge at eta.
TEST(AdasspConstants, WithoutLambdaMinTheStatisticsShareMuSquared) {
  const struct {
    double eps, expected;
  } pins[] = {{0.5, 11.395193335869451}, {1.0, 5.9745981819573143},
              {2.0, 3.1543697932632008}, {4.0, 1.6878901729031976}};
  for (const auto &p : pins) {
    const double sigma = privacy::adassp_joint_sigma(p.eps, 1e-6, 1.0, 2);
    EXPECT_GE(sigma, p.expected * (1 - 1e-15)) << p.eps;
    EXPECT_LE(sigma, p.expected * (1 + 3e-9)) << p.eps;
  }
  for (const bool label_square : {false, true})
    for (const Neighbour nb : {Neighbour::ReplaceOne, Neighbour::AddRemove}) {
      AdasspOptions options;
      options.neighbour = nb;
      options.release_label_square = label_square;
      const AdasspReceipt with = plan_adassp(4, 3.0, 0.5, 1.0, 1e-6, options);
      options.release_lambda_min = false;
      const AdasspReceipt r = plan_adassp(4, 3.0, 0.5, 1.0, 1e-6, options);
      const int64_t c = label_square ? 3 : 2;
      SCOPED_TRACE(testing::Message() << "y'y " << label_square << " neighbour " << int(nb));
      EXPECT_FALSE(r.lambda_min_released);
      EXPECT_TRUE(with.lambda_min_released);
      EXPECT_EQ(r.sensitivity_lambda_min, 0.0);
      EXPECT_EQ(r.sigma_lambda_min, 0.0);
      EXPECT_EQ(r.lambda_min_shift, 0.0);
      EXPECT_EQ(r.sigma_gram, privacy::adassp_joint_sigma(1.0, 1e-6, r.sensitivity_gram, c));
      EXPECT_EQ(r.sigma_cross, privacy::adassp_joint_sigma(1.0, 1e-6, r.sensitivity_cross, c));
      // sqrt(c / (c + 1)) of the default's noise: 0.816 or 0.866.
      EXPECT_NEAR(r.sigma_gram / with.sigma_gram, std::sqrt(double(c) / double(c + 1)), 1e-8);
      EXPECT_NEAR(r.sigma_cross / with.sigma_cross, std::sqrt(double(c) / double(c + 1)), 1e-8);
      if (label_square) {
        EXPECT_NEAR(r.sigma_label_square / with.sigma_label_square, std::sqrt(0.75), 1e-8);
      }
      EXPECT_LE(r.delta_exact, 1e-6);
      EXPECT_GT(r.delta_exact, 0.999e-6);
      EXPECT_NEAR(r.zcdp_rho, with.zcdp_rho, 1e-8 * with.zcdp_rho);
      EXPECT_EQ(r.noise_norm_bound, privacy::adassp_noise_norm_bound(r.sigma_gram, 4, 0.05));
    }
  AdasspOptions paper;
  paper.calibration = AdasspCalibration::Paper;
  paper.release_lambda_min = false;
  EXPECT_THROW(plan_adassp(4, 1.0, 1.0, 1.0, 1e-6, paper), Error);
}

TEST(AdasspConstants, JointCalibrationIsBelowThePapersAtTheMeasuredSettings) {
  for (double eps : {0.5, 1.0, 2.0, 4.0})
    for (double delta : {1e-5, 1e-6, 1e-9})
      EXPECT_LT(privacy::adassp_joint_sigma(eps, delta, 1.0, 3),
                privacy::adassp_paper_sigma(eps, delta, 1.0))
          << "eps " << eps << " delta " << delta;
}

TEST(AdasspConstants, JointReleaseMeetsDelta) {
  for (Neighbour nb : {Neighbour::ReplaceOne, Neighbour::AddRemove})
    for (double eps : {0.1, 1.0, 8.0}) {
      const double s[3] = {privacy::adassp_lambda_min_sensitivity(2.0),
                           privacy::adassp_gram_sensitivity(nb, 2.0),
                           privacy::adassp_cross_sensitivity(nb, 2.0, 3.0)};
      const double sigma[3] = {privacy::adassp_joint_sigma(eps, 1e-6, s[0], 3),
                               privacy::adassp_joint_sigma(eps, 1e-6, s[1], 3),
                               privacy::adassp_joint_sigma(eps, 1e-6, s[2], 3)};
      EXPECT_LE(privacy::adassp_joint_delta(eps, s, sigma, 3), 1e-6);
    }
}

TEST(AdasspConstants, BadArgumentsThrow) {
  EXPECT_THROW(privacy::adassp_lambda_min_sensitivity(0.0), Error);
  EXPECT_THROW(privacy::adassp_lambda_min_shift(1.0, 0.0), Error);
  EXPECT_THROW(privacy::adassp_lambda_min_shift(1.0, 1.0), Error);
  EXPECT_THROW(privacy::adassp_noise_norm_bound(1.0, 0, 0.05), Error);
  EXPECT_THROW(privacy::adassp_paper_sigma(1.0, 0.0, 1.0), Error);
  EXPECT_THROW(privacy::adassp_ridge(0.0, 1.0), Error);
}

TEST(AdasspSolve, IndefiniteSystemIsSolvedWithTheFloor) {
  Matrix m(2, 2);
  m(0, 0) = 2.0;
  m(1, 1) = -3.0;
  int64_t floored = -1;
  const std::vector<double> theta = adassp_solve(m, {2.0, 1.0}, 0.5, 0.25, floored);
  EXPECT_EQ(floored, 1);
  EXPECT_DOUBLE_EQ(theta[0], 2.0 / 2.5);
  EXPECT_DOUBLE_EQ(theta[1], 1.0 / 0.25);
}

TEST(AdasspSolve, PositiveDefiniteSystemIsTheRidgeSolution) {
  Matrix m(2, 2);
  m(0, 0) = 4.0;
  m(0, 1) = m(1, 0) = 1.0;
  m(1, 1) = 3.0;
  int64_t floored = -1;
  const std::vector<double> theta = adassp_solve(m, {1.0, 2.0}, 1.0, 0.5, floored);
  EXPECT_EQ(floored, 0);
  // (M + I) theta = b: [[5, 1], [1, 4]] theta = [1, 2].
  EXPECT_NEAR(theta[0], 2.0 / 19.0, 1e-15);
  EXPECT_NEAR(theta[1], 9.0 / 19.0, 1e-15);
}

// A degenerate data set (every row the same vector: X'X has rank one, lambda_min = 0) at a small
// epsilon: every fit returns finite coefficients, with the default settings, 300 times.
TEST(AdasspFit, NeverFailsForWantOfPositiveDefiniteness) {
  const int64_t p = 5;
  Matrix xtx(p, p);
  std::vector<double> xty(p);
  for (int64_t i = 0; i < p; ++i) {
    for (int64_t j = 0; j < p; ++j) xtx(i, j) = 3.0 * 0.2;
    xty[static_cast<size_t>(i)] = 3.0 * 0.4;
  }
  const AdasspReceipt plan = plan_adassp(p, 1.0, 1.0, 0.1, 1e-6, AdasspOptions{});
  random::Rng rng = random::Rng::from_seed(99);
  for (int trial = 0; trial < 300; ++trial) {
    const AdasspFit fit = fit_adassp(xtx, xty, 0.0, plan, rng);
    for (double c : fit.coefficients) ASSERT_TRUE(std::isfinite(c));
    ASSERT_GE(fit.receipt.ridge, 0.0);
  }
}

// The noise has the law the proof and the density use: diagonal N(0, s^2), off-diagonal
// N(0, s^2 / 2), X'y noise N(0, s_c^2), lambda_min noise N(0, s_l^2).
TEST(AdasspFit, NoiseHasTheStatedVariances) {
  const int64_t p = 3;
  Matrix xtx = Matrix::identity(p);
  const std::vector<double> xty(p, 0.0);
  const AdasspReceipt plan = plan_adassp(p, 1.0, 1.0, 1.0, 1e-6, AdasspOptions{});
  random::Rng rng = random::Rng::from_seed(7);
  const int trials = 4000;
  double diag = 0.0, off = 0.0, cross = 0.0, lambda = 0.0;
  for (int t = 0; t < trials; ++t) {
    const AdasspFit fit = fit_adassp(xtx, xty, 0.0, plan, rng);
    diag += std::pow(fit.xtx(1, 1) - 1.0, 2);
    off += std::pow(fit.xtx(0, 2), 2);
    cross += std::pow(fit.xty[2], 2);
    lambda += std::pow(fit.lambda_min_noisy - 1.0, 2);
  }
  const auto ratio = [&](double sum, double sigma) { return sum / trials / (sigma * sigma); };
  EXPECT_NEAR(ratio(diag, plan.sigma_gram), 1.0, 0.15);
  EXPECT_NEAR(ratio(off, plan.sigma_gram / std::sqrt(2.0)), 1.0, 0.15);
  EXPECT_NEAR(ratio(cross, plan.sigma_cross), 1.0, 0.15);
  EXPECT_NEAR(ratio(lambda, plan.sigma_lambda_min), 1.0, 0.15);
  // Mutation: had the off-diagonal scale been sigma_gram, the ratio against it would be 0.5.
  EXPECT_GT(std::fabs(ratio(off, plan.sigma_gram) - 1.0), 0.15);
}

// Without the lambda_min step the fit draws X'X, X'y (and y'y) only, at the plan's scales, and
// its ridge is eta in every fit: no released value lowers it. Same bands as above.
TEST(AdasspFit, WithoutLambdaMinTheRidgeIsEtaAndTheNoiseItsPlans) {
  const int64_t p = 3;
  Matrix xtx = Matrix::identity(p);
  for (int64_t i = 0; i < p; ++i) xtx(i, i) = 1e6;  // a lambda_min far above eta
  const std::vector<double> xty(p, 0.0);
  AdasspOptions options;
  options.release_lambda_min = false;
  options.release_label_square = true;
  const AdasspReceipt plan = plan_adassp(p, 1.0, 1.0, 1.0, 1e-6, options);
  random::Rng rng = random::Rng::from_seed(8);
  const int trials = 4000;
  double diag = 0.0, off = 0.0, cross = 0.0, label = 0.0;
  for (int t = 0; t < trials; ++t) {
    const AdasspFit fit = fit_adassp(xtx, xty, 2.0, plan, rng);
    ASSERT_EQ(fit.receipt.ridge, plan.noise_norm_bound);
    ASSERT_EQ(fit.receipt.released_lambda_min, 0.0);
    ASSERT_EQ(fit.lambda_min_noisy, 0.0);
    ASSERT_FALSE(fit.receipt.lambda_min_released);
    diag += std::pow(fit.xtx(1, 1) - 1e6, 2);
    off += std::pow(fit.xtx(0, 2), 2);
    cross += std::pow(fit.xty[2], 2);
    label += std::pow(fit.yty - 2.0, 2);
  }
  const auto ratio = [&](double sum, double sigma) { return sum / trials / (sigma * sigma); };
  EXPECT_NEAR(ratio(diag, plan.sigma_gram), 1.0, 0.15);
  EXPECT_NEAR(ratio(off, plan.sigma_gram_off_diagonal), 1.0, 0.15);
  EXPECT_NEAR(ratio(cross, plan.sigma_cross), 1.0, 0.15);
  EXPECT_NEAR(ratio(label, plan.sigma_label_square), 1.0, 0.15);
  // The density has no lambda_min term: the value passed for it is not read.
  const AdasspFit fit = fit_adassp(xtx, xty, 2.0, plan, rng);
  EXPECT_EQ(log_density_adassp(0.0, fit.xtx, fit.xty, fit.yty, xtx, xty, 2.0, plan),
            log_density_adassp(123.0, fit.xtx, fit.xty, fit.yty, xtx, xty, 2.0, plan));
}

TEST(AdasspFit, LogDensityIsMinusInfinityOffTheSymmetricSupport) {
  const AdasspReceipt plan = plan_adassp(2, 1.0, 1.0, 1.0, 1e-6, AdasspOptions{});
  Matrix xtx = Matrix::identity(2);
  Matrix released = xtx;
  released(0, 1) = 0.5;
  EXPECT_EQ(log_density_adassp(1.0, released, {0.0, 0.0}, 0.0, xtx, {0.0, 0.0}, 0.0, plan), -INFINITY);
  released(1, 0) = 0.5;
  EXPECT_TRUE(std::isfinite(log_density_adassp(1.0, released, {0.0, 0.0}, 0.0, xtx, {0.0, 0.0}, 0.0, plan)));
}

}  // namespace
}  // namespace dpcov::mechanisms
