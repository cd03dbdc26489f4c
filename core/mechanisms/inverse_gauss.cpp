#include "inverse_gauss.hpp"

#include <limits>

#include "../error.hpp"
#include "../linalg/blas.hpp"
#include "../privacy/inverse_gram_sensitivity.hpp"
#include "../random/samplers.hpp"
#include "analyze_gauss.hpp"
#include "statistic.hpp"
#include "registry.hpp"

namespace dpcov::mechanisms {

// The rounding allowance of a computed lambda_min: LAPACK's symmetric eigensolvers return
// eigenvalues within p(d) u ||G||_2 of the exact ones (LAPACK Users' Guide, section 4.7), p(d) a
// modest function of d; 4 d u ||G||_F bounds that with room to spare (||G||_2 <= ||G||_F).
double eigenvalue_allowance(const Matrix &g) {
  const auto count = g.rows() * g.rows();
  return 4.0 * static_cast<double>(g.rows()) * std::numeric_limits<double>::epsilon() *
         linalg::nrm2(count, g.data(), 1);
}

namespace {

// G^{-1}, refused only where the computed lambda_min(G) proves the exact one below the release
// floor (privacy::inverse_gram_release_floor): no dataset of a pair the guarantee covers is
// refused, so on those pairs the refusal is a constant and reveals nothing. Outside them it is an
// output the guarantee does not cover (mechanism.h says so). The message names only public
// values: lambda_min(G) itself is the data's.
Matrix checked_inverse(ConstMatrixView gram, const Request &request, const Receipt &receipt) {
  const Matrix g = Matrix::from(gram);
  const double lambda_min = linalg::eigvalsh(g).front();
  const double floor = privacy::inverse_gram_release_floor(request.bound, receipt.lambda_min_bound,
                                                           receipt.lambda_min_scope);
  if (!(lambda_min >= floor - eigenvalue_allowance(g))) {
    if (receipt.lambda_min_scope == privacy::LambdaMinScope::Domain)
      fail(Status::Precondition, "inverse_gauss (domain scope): the input is outside the domain ",
           "the public bound lambda_min(G) >= theta^2 = ", receipt.lambda_min_bound,
           " describes, so no guarantee covers it (Sheffet Thm B.5; proofs/inverse_gauss.md)");
    fail(Status::Precondition,
         "inverse_gauss (input scope): lambda_min(G) is below theta^2 - B^2 = ", floor,
         ", so the input is neither a dataset meeting the public bound theta^2 = ",
         receipt.lambda_min_bound, " nor a neighbour of one, and no guarantee covers it (Sheffet ",
         "Thm B.5; proofs/inverse_gauss.md)");
  }
  Matrix inverse = linalg::spd_inverse(g);
  linalg::symmetrize_from_upper(inverse);
  return inverse;
}
}  // namespace

Receipt plan_inverse_gauss(const Request &request) {
  Receipt receipt = base_receipt(MechanismId::InverseGauss, request, DeltaUse::Approximate);
  const Options &options = request.options;
  if (options.lambda_min_bound == 0.0)
    fail(Status::Precondition, "inverse_gauss needs the public bound lambda_min(G) >= theta^2: ",
         "set lambda_min_bound = theta^2 > 0");
  receipt.lambda_min_bound = options.lambda_min_bound;
  receipt.lambda_min_scope = options.lambda_min_scope;
  receipt.sensitivity_norm = SensitivityNorm::L2;
  receipt.sensitivity = privacy::inverse_gram_l2_sensitivity(
      options.neighbour, request.bound, options.lambda_min_bound, options.lambda_min_scope);
  calibrate_gaussian(receipt, request, theorem_of(MechanismId::InverseGauss),
                     "Sheffet 2019 (arXiv 1507.00056) Thm B.5, sigma by Dwork-Roth 2014 Thm A.1 "
                     "(classical Gaussian, eps < 1); proofs/inverse_gauss.md");
  return receipt;
}

Release release_inverse_gauss(ConstMatrixView gram, const Request &request, const Receipt &planned,
                              random::Rng &rng) {
  Release out{Matrix(), planned};
  check_gram_statistic(gram, request);
  const Matrix inverse = checked_inverse(gram, request, out.receipt);
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
  const Matrix inverse = checked_inverse(gram, request, receipt);
  return random::symmetric_gaussian_log_density(subtract_mirrored(released, inverse.view()),
                                                receipt.sigma);
}

}  // namespace dpcov::mechanisms
