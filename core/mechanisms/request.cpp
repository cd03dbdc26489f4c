#include "request.hpp"

#include "../check.hpp"
#include "../data/row_bound.hpp"
#include "registry.hpp"

namespace dpcov::mechanisms {

const char *mechanism_name(MechanismId mechanism) {
  return entry_of(static_cast<int32_t>(mechanism)).name;
}

Receipt base_receipt(MechanismId mechanism, const Request &request, DeltaUse delta_use) {
  check::dimension(request.dim, "dimension d");
  if (request.n < 0) fail(Status::Dimension, "n must be >= 0, got ", request.n);
  data::check_row_bound(request.bound, "bound B");
  if (!(request.bound >= kSmallestGramBound))
    fail(Status::InvalidArgument, mechanism_name(mechanism),
         " needs a bound B >= 2^-500 (about 3.05e-151), got B = ", request.bound,
         ": below it the Gram's entries near B^2 round in the subnormals by as much as its ",
         "sensitivity B^2 (proofs/analyze_gauss.md, Small bounds); rows scaled up by 2^k release ",
         "a Gram that scales back down by 2^-2k exactly");
  check::epsilon(request.epsilon);
  if (delta_use == DeltaUse::Approximate || request.delta != 0.0) check::delta(request.delta);
  check_options_apply(mechanism, request.options);

  Receipt receipt;
  receipt.mechanism = mechanism;
  receipt.neighbour = request.options.neighbour;
  receipt.dim = request.dim;
  receipt.n = request.n;
  receipt.bound = request.bound;
  receipt.epsilon = request.epsilon;
  receipt.delta = delta_use == DeltaUse::Approximate ? request.delta : 0.0;
  return receipt;
}

void check_options_apply(MechanismId mechanism, const Options &options) {
  // The registry says which options each mechanism reads; the messages name the ones that do.
  const int32_t takes = entry_of(static_cast<int32_t>(mechanism)).options;
  const auto refuse = [&](int32_t option, const char *what) {
    fail(Status::InvalidArgument, what, " only to ", names_taking(option), "; leave ",
         option == kOptionLambdaMin || option == kOptionSpectral ? "them" : "it", " 0 for ",
         mechanism_name(mechanism));
  };
  if (!(takes & kOptionLambdaMin) && (options.lambda_min_bound != 0.0 ||
                                      options.lambda_min_scope != privacy::LambdaMinScope::Domain))
    refuse(kOptionLambdaMin, "lambda_min_bound and lambda_min_scope apply");
  if (!(takes & kOptionSpectral) &&
      (options.budget_split != BudgetSplit::Default || options.beta != 0.0 || options.rank != 0))
    refuse(kOptionSpectral, "budget_split, beta and rank apply");
  if (!(takes & kOptionProjectionRows) && options.projection_rows != 0)
    refuse(kOptionProjectionRows, "projection_rows applies");
  if (!(takes & kOptionPosteriorDof) && options.posterior_dof != 0)
    refuse(kOptionPosteriorDof, "posterior_dof applies");
  if (!(takes & kOptionAuditUnlock) && options.audit_only_not_private)
    refuse(kOptionAuditUnlock, "audit_only_not_private applies");
  if (!(takes & kOptionGlassoRho) && options.glasso_rho != 0.0)
    refuse(kOptionGlassoRho, "glasso_rho applies");
  // Theorem names the one calibration a mechanism without a choice has, as Default does.
  if (!(takes & kOptionCalibration) && options.calibration != Calibration::Default &&
      options.calibration != Calibration::Theorem)
    refuse(kOptionCalibration, concat("calibration ", static_cast<int32_t>(options.calibration),
                                      " (a choice of calibration) applies").c_str());
}

void fail_calibration(MechanismId mechanism, Calibration calibration) {
  fail(Status::InvalidArgument, "calibration ", static_cast<int32_t>(calibration),
       " does not apply to ", mechanism_name(mechanism));
}

}  // namespace dpcov::mechanisms
