#include "inverse_gauss.hpp"

#include "../error.hpp"
#include "../linalg/blas.hpp"
#include "../privacy/inverse_gram_sensitivity.hpp"
#include "../random/samplers.hpp"
#include "analyze_gauss.hpp"
#include "statistic.hpp"

namespace dpcov::mechanisms {

namespace {

// G^{-1}, after checking the public bound on the actual input. On the domain the guarantee covers,
// lambda_min(G) >= theta^2 always holds and the check never fires, so it reveals nothing there;
// outside it there is no guarantee, and refusing is better than releasing a noisy inverse of a
// matrix the noise was not calibrated for.
Matrix checked_inverse(ConstMatrixView gram, const Receipt &receipt) {
  const Matrix g = Matrix::from(gram);
  const double lambda_min = linalg::eigvalsh(g).front();
  if (!(lambda_min >= receipt.lambda_min_bound))
    fail(DPCOV_E_PRECONDITION, "precondition lambda_min(G) >= theta^2 of inverse_gauss (Sheffet ",
         "Thm B.5) fails on the input: lambda_min(G) = ", lambda_min,
         ", theta^2 = lambda_min_bound = ", receipt.lambda_min_bound);
  Matrix inverse = linalg::spd_inverse(g);
  linalg::symmetrize_from_upper(inverse);
  return inverse;
}

}  // namespace

Receipt plan_inverse_gauss(const Request &request) {
  Receipt receipt = base_receipt(MechanismId::InverseGauss, request, DeltaUse::Approximate);
  const Options &options = request.options;
  if (options.lambda_min_bound == 0.0)
    fail(DPCOV_E_PRECONDITION, "inverse_gauss needs the public bound lambda_min(G) >= theta^2: ",
         "set lambda_min_bound = theta^2 > 0");
  receipt.lambda_min_bound = options.lambda_min_bound;
  receipt.lambda_min_scope = options.lambda_min_scope;
  receipt.sensitivity_norm = SensitivityNorm::L2;
  receipt.sensitivity = privacy::inverse_gram_l2_sensitivity(
      options.neighbour, request.bound, options.lambda_min_bound, options.lambda_min_scope);
  calibrate_gaussian(receipt, request,
                     "Sheffet 2019 (arXiv 1507.00056) Thm B.5, sigma by Balle-Wang 2018 Thm 8 "
                     "(analytic Gaussian); proofs/inverse_gauss.md",
                     "Sheffet 2019 (arXiv 1507.00056) Thm B.5, sigma by Dwork-Roth 2014 Thm A.1 "
                     "(classical Gaussian, eps < 1); proofs/inverse_gauss.md");
  return receipt;
}

Release release_inverse_gauss(ConstMatrixView gram, const Request &request, random::Rng &rng) {
  Release out{Matrix(), plan_inverse_gauss(request)};
  check_gram_statistic(gram, request);
  const Matrix inverse = checked_inverse(gram, out.receipt);
  Matrix noise(request.dim, request.dim);
  random::symmetric_gaussian_noise(rng, out.receipt.sigma, noise);
  out.matrix = add_mirrored(inverse.view(), noise);
  record_generator(out.receipt, rng);
  return out;
}

double log_density_inverse_gauss(ConstMatrixView released, ConstMatrixView gram,
                                 const Request &request) {
  const Receipt receipt = plan_inverse_gauss(request);
  check_gram_statistic(gram, request);
  check_released(released, request.dim);
  const Matrix inverse = checked_inverse(gram, receipt);
  return random::symmetric_gaussian_log_density(subtract_mirrored(released, inverse.view()),
                                                receipt.sigma);
}

}  // namespace dpcov::mechanisms
