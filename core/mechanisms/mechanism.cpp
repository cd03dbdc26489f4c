#include "mechanism.hpp"

#include "../error.hpp"
#include "analyze_gauss.hpp"
#include "glasso_output.hpp"
#include "iev.hpp"
#include "inverse_gauss.hpp"
#include "inverse_wishart.hpp"
#include "jl_ridge.hpp"
#include "kt_rank1.hpp"
#include "laplace_sym.hpp"
#include "ols_ptr.hpp"
#include "registry.hpp"
#include "wishart_additive.hpp"
#include "wishart_jiang.hpp"

namespace dpcov::mechanisms {

MechanismId mechanism_id(int32_t value) {
  const RegistryEntry *entry = find_entry(value);
  if (entry == nullptr) fail(Status::InvalidArgument, "unknown mechanism id ", value);
  if (entry->family != Family::Gram)
    fail(Status::InvalidArgument, entry->name, " (mechanism id ", value,
         ") does not take a Gram matrix: it has entry points of its own (", entry->header, ")");
  return static_cast<MechanismId>(value);
}

Receipt plan(MechanismId mechanism, const Request &request) {
  switch (mechanism) {
    case MechanismId::AnalyzeGauss: return plan_analyze_gauss(request);
    case MechanismId::LaplaceSym: return plan_laplace_sym(request);
    case MechanismId::WishartAdditive: return plan_wishart_additive(request);
    case MechanismId::InverseGauss: return plan_inverse_gauss(request);
    case MechanismId::WishartJiang: return plan_wishart_jiang(request);
    case MechanismId::Iev: return plan_iev(request);
    case MechanismId::KtRank1: return plan_kt_rank1(request);
    case MechanismId::JlRidge: return plan_jl_ridge(request);
    case MechanismId::JlRidgeSigmaMin: return plan_jl_ridge_sigma_min(request);
    case MechanismId::InverseWishart: return plan_inverse_wishart(request);
    case MechanismId::InverseWishartSigmaMin: return plan_inverse_wishart_sigma_min(request);
    case MechanismId::OlsJl: return plan_ols_jl(request);
    case MechanismId::GlassoOutputWishart: return plan_glasso_output(request);
  }
  fail(Status::InvalidArgument, "unknown mechanism id ", static_cast<int32_t>(mechanism));
}

Release release(MechanismId mechanism, ConstMatrixView gram, const Request &request,
                random::Rng &rng) {
  return release(mechanism, gram, request, plan(mechanism, request), rng);
}

Release release(MechanismId mechanism, ConstMatrixView gram, const Request &request,
                const Receipt &planned, random::Rng &rng) {
  if (planned.mechanism != mechanism || planned.dim != request.dim || planned.n != request.n ||
      planned.neighbour != request.options.neighbour)
    fail(Status::Internal, "a release was handed a plan of another request");
  switch (mechanism) {
    case MechanismId::AnalyzeGauss: return release_analyze_gauss(gram, request, planned, rng);
    case MechanismId::LaplaceSym: return release_laplace_sym(gram, request, planned, rng);
    case MechanismId::WishartAdditive: return release_wishart_additive(gram, request, planned, rng);
    case MechanismId::InverseGauss: return release_inverse_gauss(gram, request, planned, rng);
    case MechanismId::WishartJiang: return release_wishart_jiang(gram, request, planned, rng);
    case MechanismId::Iev: return release_iev(gram, request, planned, rng);
    case MechanismId::KtRank1: return release_kt_rank1(gram, request, planned, rng);
    case MechanismId::JlRidge: return release_jl_ridge(gram, request, planned, rng);
    case MechanismId::JlRidgeSigmaMin: return release_jl_ridge_sigma_min(gram, request, planned, rng);
    case MechanismId::InverseWishart: return release_inverse_wishart(gram, request, planned, rng);
    case MechanismId::InverseWishartSigmaMin:
      return release_inverse_wishart_sigma_min(gram, request, planned, rng);
    case MechanismId::OlsJl: return release_ols_jl(gram, request, planned, rng);
    case MechanismId::GlassoOutputWishart: return release_glasso_output(gram, request, planned, rng);
  }
  fail(Status::InvalidArgument, "unknown mechanism id ", static_cast<int32_t>(mechanism));
}

double log_density(MechanismId mechanism, ConstMatrixView released, ConstMatrixView gram,
                   const Request &request) {
  switch (mechanism) {
    case MechanismId::AnalyzeGauss: return log_density_analyze_gauss(released, gram, request);
    case MechanismId::LaplaceSym: return log_density_laplace_sym(released, gram, request);
    case MechanismId::WishartAdditive:
      return log_density_wishart_additive(released, gram, request);
    case MechanismId::InverseGauss: return log_density_inverse_gauss(released, gram, request);
    case MechanismId::WishartJiang: return log_density_wishart_jiang(released, gram, request);
    case MechanismId::Iev: return log_density_iev(released, gram, request);
    case MechanismId::KtRank1: return log_density_kt_rank1(released, gram, request);
    case MechanismId::JlRidge: return log_density_jl_ridge(released, gram, request);
    case MechanismId::InverseWishart:
      return log_density_inverse_wishart(released, gram, request);
    case MechanismId::GlassoOutputWishart:
      return log_density_glasso_output(released, gram, request);
    case MechanismId::JlRidgeSigmaMin:
    case MechanismId::InverseWishartSigmaMin:
    case MechanismId::OlsJl:
      plan(mechanism, request);
      fail(Status::InvalidArgument, "the density of a ", mechanism_name(mechanism),
           " release depends on its released test value s2: use the tested log-density");
  }
  fail(Status::InvalidArgument, "unknown mechanism id ", static_cast<int32_t>(mechanism));
}

double log_density_tested(MechanismId mechanism, ConstMatrixView released, double test_value,
                          ConstMatrixView gram, const Request &request) {
  switch (mechanism) {
    case MechanismId::JlRidgeSigmaMin:
      return log_density_jl_ridge_sigma_min(released, test_value, gram, request);
    case MechanismId::InverseWishartSigmaMin:
      return log_density_inverse_wishart_sigma_min(released, test_value, gram, request);
    case MechanismId::OlsJl: return log_density_ols_jl(released, test_value, gram, request);
    default:
      fail(Status::InvalidArgument, mechanism_name(mechanism), " has no private test value; ",
           "use the plain log-density");
  }
}

}  // namespace dpcov::mechanisms
