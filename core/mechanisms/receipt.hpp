// The receipt shared by every mechanism (C form: dpcov_receipt in dpcov/receipt.h, converted in
// capi/receipt_writer.cpp; the enum values equal the C ones, pinned in capi/). A plan and a
// release for the same request produce equal receipts, except seed_fixed, which only a release
// knows.
#pragma once

#include <cstdint>

#include "../matrix.hpp"
#include "../privacy/inverse_gram_sensitivity.hpp"
#include "../privacy/neighbour.hpp"
#include "../random/rng.hpp"

namespace dpcov::mechanisms {

enum class MechanismId : int32_t {
  AnalyzeGauss = 1,
  LaplaceSym = 2,
  WishartAdditive = 3,
  InverseGauss = 4,
  WishartJiang = 5,
  Iev = 6,
  KtRank1 = 7,
  JlRidge = 8,
  JlRidgeSigmaMin = 9,
  InverseWishart = 10,
  InverseWishartSigmaMin = 11,
  OlsJl = 12,
  GlassoOutputWishart = 13,
};

enum class Calibration : int32_t {
  Default = 0,
  AnalyticGaussian = 1,
  ClassicalGaussian = 2,
  LaplaceUpperTriangle = 3,
  LaplacePublished = 4,
  Theorem = 5,
  BinghamPublished = 6,
  BinghamSensitivity = 7,
};

// IEV and KT: how eps / 2 is split over the eigenvector steps (Default: uniform in a request, no
// split in a receipt).
enum class BudgetSplit : int32_t {
  Default = 0,
  Uniform = 1,
  Adaptive = 2,
};

enum class SensitivityNorm : int32_t {
  None = 0,
  L1 = 1,
  L2 = 2,
};

enum class Generator : int32_t {
  None = 0,
  Pcg64 = 1,
  ChaCha20 = 2,
};

enum class Numerics : int32_t {
  Idealized = 0,
  Exact = 1,
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
  // The analytic Gaussian's sigma per unit of sensitivity (analytic_gaussian_unit_sigma); 0 for
  // other calibrations. Kept so that the plan moved to another bound scales it (plan_at_bound).
  double unit_sigma = 0.0;
  double scale = 0.0;
  double dof = 0.0;
  double lambda_min_bound = 0.0;
  // A static string: paper, theorem and proof file. Shorter than the C receipt's theorem array.
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
  // Privacy units: k, the most rows a unit contributes, when n counts units and the bound is the
  // unit bound (proofs/unit_gram_sensitivity.md); 0 when every row is its own unit.
  int64_t max_rows_per_unit = 0;
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
