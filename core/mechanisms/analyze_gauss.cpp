#include "analyze_gauss.hpp"

#include "../privacy/analytic_gaussian.hpp"
#include "../privacy/classical_gaussian.hpp"
#include "../privacy/gram_sensitivity.hpp"
#include "../random/samplers.hpp"
#include "statistic.hpp"
#include "registry.hpp"

namespace dpcov::mechanisms {

void calibrate_gaussian(Receipt &receipt, const Request &request, const char *theorem_analytic,
                        const char *theorem_classical) {
  switch (request.options.calibration) {
    case Calibration::Default:
    case Calibration::AnalyticGaussian:
      receipt.calibration = Calibration::AnalyticGaussian;
      receipt.unit_sigma = request.analytic_unit_sigma > 0.0
                               ? request.analytic_unit_sigma
                               : privacy::analytic_gaussian_unit_sigma(request.epsilon, request.delta);
      receipt.sigma = privacy::analytic_gaussian_sigma_at(receipt.unit_sigma, receipt.sensitivity);
      receipt.theorem = theorem_analytic;
      break;
    case Calibration::ClassicalGaussian:
      receipt.calibration = Calibration::ClassicalGaussian;
      receipt.sigma =
          privacy::classical_gaussian_sigma(request.epsilon, request.delta, receipt.sensitivity);
      receipt.theorem = theorem_classical;
      break;
    default: fail_calibration(receipt.mechanism, request.options.calibration);
  }
}

Receipt plan_analyze_gauss(const Request &request) {
  Receipt receipt = base_receipt(MechanismId::AnalyzeGauss, request, DeltaUse::Approximate);
  receipt.sensitivity_norm = SensitivityNorm::L2;
  receipt.sensitivity = privacy::gram_l2_sensitivity(request.options.neighbour, request.bound);
  calibrate_gaussian(receipt, request, theorem_of(MechanismId::AnalyzeGauss),
                     "Dwork-Talwar-Thakurta-Zhang 2014 Alg. 1, sigma by Dwork-Roth 2014 Thm A.1 "
                     "(classical Gaussian, eps < 1); proofs/analyze_gauss.md");
  return receipt;
}

Release release_analyze_gauss(ConstMatrixView gram, const Request &request, const Receipt &planned,
                              random::Rng &rng) {
  Release out{Matrix(), planned};
  check_gram_statistic(gram, request);
  Matrix noise(request.dim, request.dim);
  random::symmetric_gaussian_noise(rng, out.receipt.sigma, noise);
  out.matrix = add_mirrored(gram, noise);
  record_generator(out.receipt, rng);
  return out;
}

double log_density_analyze_gauss(ConstMatrixView released, ConstMatrixView gram,
                                 const Request &request) {
  const Receipt receipt = plan_analyze_gauss(request);
  check_gram_statistic(gram, request);
  check_released(released, request.dim);
  return random::symmetric_gaussian_log_density(subtract_mirrored(released, gram), receipt.sigma);
}

}  // namespace dpcov::mechanisms
