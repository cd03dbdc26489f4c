#include "gram_estimate.hpp"

#include <cmath>

#include "../check.hpp"
#include "../error.hpp"
#include "../postprocess/identity_shift.hpp"

namespace dpcov::estimators {

namespace {

using mechanisms::MechanismId;

// w of the appended block w I: 0 where a private test passed (the sigma_min variants).
double appended_w(const mechanisms::Receipt &receipt) {
  const double w = receipt.appended_w;
  if (!(std::isfinite(w) && w >= 0.0))
    fail(std::isfinite(w) ? Status::InvalidArgument : Status::NonFinite,
         "receipt appended_w must be finite and >= 0, got ", w);
  return w;
}

// (m - d - 1) Y - w^2 I: the inverse-Wishart release's mean is (G + w^2 I) / (m - d - 1).
Matrix inverse_wishart_estimate(const Matrix &y, const mechanisms::Receipt &receipt) {
  const double m = receipt.dof;
  check::positive_finite(m, "receipt dof (the posterior degrees of freedom m)");
  const double factor = m - static_cast<double>(y.rows()) - 1.0;
  if (!(factor > 0.0))
    fail(Status::Precondition, "the inverse-Wishart release's mean (G + w^2 I) / (m - d - 1) ",
         "exists only for m > d + 1; m = ", m, ", d = ", y.rows(),
         ": no unbiased estimate of G (release with a larger posterior_dof)");
  const double w = appended_w(receipt);
  Matrix out = y;
  double *entry = out.data();
  for (int64_t k = 0; k < out.rows() * out.cols(); ++k) entry[k] *= factor;
  return postprocess::add_identity(out, -(w * w));
}

}  // namespace

GramEstimate gram_estimate(const Matrix &release, const mechanisms::Receipt &receipt) {
  if (receipt.dim != release.rows())
    fail(Status::InvalidArgument, "receipt dim = ", receipt.dim, " but the release is ",
         release.rows(), " x ", release.cols());
  switch (receipt.mechanism) {
    case MechanismId::AnalyzeGauss:
    case MechanismId::LaplaceSym:
      return {release, true};
    case MechanismId::WishartAdditive:
      return {postprocess::subtract_wishart_mean(release, receipt.dof, receipt.scale), true};
    case MechanismId::JlRidge:
    case MechanismId::JlRidgeSigmaMin: {
      const double w = appended_w(receipt);
      return {postprocess::add_identity(release, -(w * w)), true};
    }
    case MechanismId::InverseWishart:
    case MechanismId::InverseWishartSigmaMin:
      return {inverse_wishart_estimate(release, receipt), true};
    default:
      return {release, false};
  }
}

}  // namespace dpcov::estimators
