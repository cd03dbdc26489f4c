#include "wishart_jiang.hpp"

#include "../error.hpp"
#include "../privacy/jiang_wishart.hpp"
#include "../random/samplers.hpp"
#include "statistic.hpp"
#include "registry.hpp"

namespace dpcov::mechanisms {

Receipt plan_wishart_jiang(const Request &request) {
  Receipt receipt = base_receipt(MechanismId::WishartJiang, request, DeltaUse::Pure);
  if (!request.options.audit_only_not_private)
    fail(Status::NotPrivate,
         "wishart_jiang (Jiang-Xie-Zhang 2016 Alg. 2) is not differentially private: its noise "
         "has no mass outside the positive-definite cone (proofs/wishart_jiang.md); it runs only "
         "as an audit target with audit_only_not_private = 1");
  receipt.calibration = Calibration::Theorem;
  receipt.sensitivity_norm = SensitivityNorm::None;
  receipt.not_dp = true;
  receipt.dof = privacy::jiang_wishart_dof_not_dp(request.dim);
  receipt.scale = privacy::jiang_wishart_scale_not_dp(request.bound, request.epsilon);
  receipt.theorem = theorem_of(MechanismId::WishartJiang);
  return receipt;
}

Release release_wishart_jiang(ConstMatrixView gram, const Request &request, const Receipt &planned,
                              random::Rng &rng) {
  Release out{Matrix(), planned};
  check_gram_statistic(gram, request);
  const Matrix noise = random::wishart(rng, out.receipt.dof, scaled_identity(out.receipt.dim, out.receipt.scale));
  out.matrix = add_mirrored(gram, noise);
  record_generator(out.receipt, rng);
  return out;
}

double log_density_wishart_jiang(ConstMatrixView released, ConstMatrixView gram,
                                 const Request &request) {
  const Receipt receipt = plan_wishart_jiang(request);
  check_gram_statistic(gram, request);
  check_released(released, request.dim);
  return random::wishart_log_density(subtract_mirrored(released, gram), receipt.dof,
                                     scaled_identity(receipt.dim, receipt.scale));
}

}  // namespace dpcov::mechanisms
