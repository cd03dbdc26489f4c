// The receipt shared by every mechanism (C form: dpcov_receipt in dpcov/receipt.h). A plan and a
// release for the same request produce equal receipts, except seed_fixed, which only a release
// knows.
#pragma once

#include <cstdint>

#include "../matrix.hpp"
#include "../privacy/inverse_gram_sensitivity.hpp"
#include "../privacy/neighbour.hpp"
#include "../random/rng.hpp"
#include "dpcov/mechanism.h"
#include "dpcov/receipt.h"

namespace dpcov::mechanisms {

enum class MechanismId : int32_t {
  AnalyzeGauss = DPCOV_MECHANISM_ANALYZE_GAUSS,
  LaplaceSym = DPCOV_MECHANISM_LAPLACE_SYM,
  WishartAdditive = DPCOV_MECHANISM_WISHART_ADDITIVE,
  InverseGauss = DPCOV_MECHANISM_INVERSE_GAUSS,
  WishartJiang = DPCOV_MECHANISM_WISHART_JIANG,
  Iev = DPCOV_MECHANISM_IEV,
  KtRank1 = DPCOV_MECHANISM_KT_RANK1,
  JlRidge = DPCOV_MECHANISM_JL_RIDGE,
  JlRidgeSigmaMin = DPCOV_MECHANISM_JL_RIDGE_SIGMA_MIN,
  InverseWishart = DPCOV_MECHANISM_INVERSE_WISHART,
  InverseWishartSigmaMin = DPCOV_MECHANISM_INVERSE_WISHART_SIGMA_MIN,
  OlsJl = DPCOV_MECHANISM_OLS_JL,
  GlassoOutputWishart = DPCOV_MECHANISM_GLASSO_OUTPUT_WISHART,
};

enum class Calibration : int32_t {
  Default = DPCOV_CALIBRATION_DEFAULT,
  AnalyticGaussian = DPCOV_CALIBRATION_ANALYTIC_GAUSSIAN,
  ClassicalGaussian = DPCOV_CALIBRATION_CLASSICAL_GAUSSIAN,
  LaplaceUpperTriangle = DPCOV_CALIBRATION_LAPLACE_UPPER_TRIANGLE,
  LaplacePublished = DPCOV_CALIBRATION_LAPLACE_PUBLISHED,
  Theorem = DPCOV_CALIBRATION_THEOREM,
  BinghamPublished = DPCOV_CALIBRATION_BINGHAM_PUBLISHED,
  BinghamSensitivity = DPCOV_CALIBRATION_BINGHAM_SENSITIVITY,
};

// IEV and KT: how eps / 2 is split over the eigenvector steps (Default: uniform in a request, no
// split in a receipt).
enum class BudgetSplit : int32_t {
  Default = DPCOV_BUDGET_SPLIT_DEFAULT,
  Uniform = DPCOV_BUDGET_SPLIT_UNIFORM,
  Adaptive = DPCOV_BUDGET_SPLIT_ADAPTIVE,
};

enum class SensitivityNorm : int32_t {
  None = DPCOV_SENSITIVITY_NONE,
  L1 = DPCOV_SENSITIVITY_L1,
  L2 = DPCOV_SENSITIVITY_L2,
};

enum class Generator : int32_t {
  None = DPCOV_GENERATOR_NONE,
  Pcg64 = DPCOV_GENERATOR_PCG64,
  ChaCha20 = DPCOV_GENERATOR_CHACHA20,
};

enum class Numerics : int32_t {
  Idealized = DPCOV_NUMERICS_IDEALIZED,
  Exact = DPCOV_NUMERICS_EXACT,
};

struct Receipt {
  MechanismId mechanism = MechanismId::AnalyzeGauss;
  privacy::Neighbour neighbour = privacy::Neighbour::ReplaceOne;
  Calibration calibration = Calibration::Default;
  bool not_dp = false;
  bool seed_fixed = false;
  SensitivityNorm sensitivity_norm = SensitivityNorm::None;
  privacy::LambdaMinScope lambda_min_scope = privacy::LambdaMinScope::Domain;
  int64_t dim = 0;
  int64_t n = 0;
  double bound = 0.0;
  double epsilon = 0.0;
  double delta = 0.0;
  double sensitivity = 0.0;
  double sigma = 0.0;
  double scale = 0.0;
  double dof = 0.0;
  double lambda_min_bound = 0.0;
  // A static string: paper, theorem and proof file. Shorter than DPCOV_RECEIPT_THEOREM_SIZE.
  const char *theorem = "";
  // IEV and KT (eigenvector_sampling.hpp); 0 / Default for other mechanisms.
  double epsilon_eigenvalues = 0.0;
  double epsilon_step = 0.0;  // uniform split only
  BudgetSplit budget_split = BudgetSplit::Default;
  int64_t rank = 0;
  double beta = 0.0;  // adaptive split only
  double tau = 0.0;   // adaptive split only
  double exponent_factor = 0.0;
  double clip_upper = 0.0;
  // Release only (a plan leaves them 0): data-dependent, a timing side channel.
  int64_t bingham_proposals = 0;
  int64_t bingham_rejections = 0;
  // Sheffet's Johnson-Lindenstrauss, inverse-Wishart and OLS mechanisms (projection.hpp); 0 for
  // other mechanisms. The inverse-Wishart degrees of freedom m go in `dof`.
  int64_t projection_rows = 0;  // r
  double threshold_w2 = 0.0;    // w^2 of Thm 3.1 / 5.1 at the release's share of the budget
  double appended_w = 0.0;      // w of the appended block w I (release only for the tested ones)
  double test_epsilon = 0.0;    // share of the private sigma_min test (the release gets the rest)
  double test_delta = 0.0;
  double test_scale = 0.0;      // Laplace scale b of the test
  double test_shift = 0.0;      // b ln(1/delta)
  // Release only (a plan leaves them 0): the released test value s2, and whether s2 > w^2.
  double test_value = 0.0;
  bool test_passed = false;
  // Wang-Huai-Xu graphical lasso (the private pipeline and glasso_output_wishart): the public
  // penalty rho; else 0.
  double glasso_rho = 0.0;
  // Release only (a plan leaves None): the engine of the generator the noise came from, the
  // weaker one when two generators were used (a sketch's and the release's).
  Generator generator = Generator::None;
  // Whether the released values are distributed exactly as the proof assumes (integer samplers)
  // or only up to floating-point rounding of continuous noise (Mironov 2012).
  Numerics numerics = Numerics::Idealized;

  bool operator==(const Receipt &) const = default;
};

// Records in a release's receipt that its noise came from `rng`: seed_fixed if either this or an
// earlier recorded generator had a seed, and the weaker engine of the two.
inline void record_generator(Receipt &receipt, const random::Rng &rng) {
  const Generator used =
      rng.engine() == random::Engine::ChaCha20 ? Generator::ChaCha20 : Generator::Pcg64;
  receipt.seed_fixed = receipt.seed_fixed || rng.seed_fixed();
  if (receipt.generator == Generator::None || used == Generator::Pcg64) receipt.generator = used;
}

// A released matrix (d x d, exactly symmetric) with its receipt.
struct Release {
  Matrix matrix;
  Receipt receipt;
};

}  // namespace dpcov::mechanisms
