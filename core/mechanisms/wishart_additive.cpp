#include "wishart_additive.hpp"

#include "../privacy/additive_wishart.hpp"
#include "../random/samplers.hpp"
#include "statistic.hpp"
#include "registry.hpp"

namespace dpcov::mechanisms {

Receipt plan_wishart_additive(const Request &request) {
  Receipt receipt = base_receipt(MechanismId::WishartAdditive, request, DeltaUse::Approximate);
  receipt.calibration = Calibration::Theorem;
  receipt.sensitivity_norm = SensitivityNorm::None;
  // Sheffet's proof covers replace-one through the matrix with the row zeroed, which also covers
  // add/remove: the constants do not depend on the relation.
  receipt.dof = privacy::additive_wishart_dof(request.dim, request.epsilon, request.delta);
  receipt.scale = privacy::additive_wishart_scale(request.bound);
  receipt.theorem = theorem_of(MechanismId::WishartAdditive);
  return receipt;
}

Release release_wishart_additive(ConstMatrixView gram, const Request &request,
                                 const Receipt &planned, random::Rng &rng) {
  Release out{Matrix(), planned};
  check_gram_statistic(gram, request);
  const Matrix noise = random::wishart(rng, out.receipt.dof, scaled_identity(out.receipt.dim, out.receipt.scale));
  out.matrix = add_mirrored(gram, noise);
  record_generator(out.receipt, rng);
  return out;
}

double log_density_wishart_additive(ConstMatrixView released, ConstMatrixView gram,
                                    const Request &request) {
  const Receipt receipt = plan_wishart_additive(request);
  check_gram_statistic(gram, request);
  check_released(released, request.dim);
  return random::wishart_log_density(subtract_mirrored(released, gram), receipt.dof,
                                     scaled_identity(receipt.dim, receipt.scale));
}

}  // namespace dpcov::mechanisms
