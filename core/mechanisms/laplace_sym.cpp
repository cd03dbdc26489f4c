#include "laplace_sym.hpp"

#include "../privacy/gram_sensitivity.hpp"
#include "../privacy/laplace_scale.hpp"
#include "../random/samplers.hpp"
#include "statistic.hpp"
#include "registry.hpp"

namespace dpcov::mechanisms {

Receipt plan_laplace_sym(const Request &request) {
  Receipt receipt = base_receipt(MechanismId::LaplaceSym, request, DeltaUse::Pure);
  receipt.sensitivity_norm = SensitivityNorm::L1;
  switch (request.options.calibration) {
    case Calibration::Default:
    case Calibration::LaplaceUpperTriangle:
      receipt.calibration = Calibration::LaplaceUpperTriangle;
      receipt.sensitivity = privacy::gram_upper_triangle_l1_sensitivity(
          request.options.neighbour, request.dim, request.bound);
      receipt.theorem = theorem_of(MechanismId::LaplaceSym);
      break;
    case Calibration::LaplacePublished:
      receipt.calibration = Calibration::LaplacePublished;
      receipt.sensitivity = privacy::gram_l1_sensitivity_published(request.dim, request.bound);
      receipt.theorem =
          "Jiang-Xie-Zhang 2016 Alg. 1 and Lemma 2 as published: L1 sensitivity 2dB^2 (valid, "
          "loose); proofs/laplace_sym.md";
      break;
    default: fail_calibration(MechanismId::LaplaceSym, request.options.calibration);
  }
  receipt.scale = privacy::laplace_scale(receipt.sensitivity, request.epsilon);
  return receipt;
}

Release release_laplace_sym(ConstMatrixView gram, const Request &request, const Receipt &planned,
                            random::Rng &rng) {
  Release out{Matrix(), planned};
  check_gram_statistic(gram, request);
  Matrix noise(request.dim, request.dim);
  random::symmetric_laplace_noise(rng, out.receipt.scale, noise);
  out.matrix = add_mirrored(gram, noise);
  record_generator(out.receipt, rng);
  return out;
}

double log_density_laplace_sym(ConstMatrixView released, ConstMatrixView gram,
                               const Request &request) {
  const Receipt receipt = plan_laplace_sym(request);
  check_gram_statistic(gram, request);
  check_released(released, request.dim);
  return random::symmetric_laplace_log_density(subtract_mirrored(released, gram), receipt.scale);
}

}  // namespace dpcov::mechanisms
