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
  if (mechanism != MechanismId::InverseGauss &&
      (options.lambda_min_bound != 0.0 ||
       options.lambda_min_scope != privacy::LambdaMinScope::Domain))
    fail(Status::InvalidArgument, "lambda_min_bound and lambda_min_scope apply only to ",
         "inverse_gauss; leave them 0 for ", mechanism_name(mechanism));
  if (mechanism != MechanismId::Iev && mechanism != MechanismId::KtRank1 &&
      (options.budget_split != BudgetSplit::Default || options.beta != 0.0 || options.rank != 0))
    fail(Status::InvalidArgument, "budget_split, beta and rank apply only to iev and kt_rank1; ",
         "leave them 0 for ", mechanism_name(mechanism));
  if (mechanism != MechanismId::JlRidge && mechanism != MechanismId::JlRidgeSigmaMin &&
      mechanism != MechanismId::OlsJl && options.projection_rows != 0)
    fail(Status::InvalidArgument, "projection_rows applies only to jl_ridge, jl_ridge_sigma_min ",
         "and ols_jl; leave it 0 for ", mechanism_name(mechanism));
  if (mechanism != MechanismId::InverseWishart &&
      mechanism != MechanismId::InverseWishartSigmaMin && options.posterior_dof != 0)
    fail(Status::InvalidArgument, "posterior_dof applies only to inverse_wishart and ",
         "inverse_wishart_sigma_min; leave it 0 for ", mechanism_name(mechanism));
  if (mechanism != MechanismId::WishartJiang && mechanism != MechanismId::GlassoOutputWishart &&
      options.audit_only_not_private)
    fail(Status::InvalidArgument, "audit_only_not_private applies only to wishart_jiang and ",
         "glasso_output_wishart; leave it 0 for ", mechanism_name(mechanism));
  if (mechanism != MechanismId::GlassoOutputWishart && options.glasso_rho != 0.0)
    fail(Status::InvalidArgument, "glasso_rho applies only to glasso_output_wishart; leave it 0 ",
         "for ", mechanism_name(mechanism));
}

void fail_calibration(MechanismId mechanism, Calibration calibration) {
  fail(Status::InvalidArgument, "calibration ", static_cast<int32_t>(calibration),
       " does not apply to ", mechanism_name(mechanism));
}

}  // namespace dpcov::mechanisms
