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

namespace {

// What each Gram-input mechanism does, by id: the one place the library maps a mechanism to its
// code. A propose-test-release mechanism's density needs its released test value, so it has
// log_density_tested and no log_density.
struct GramOps {
  MechanismId id;
  Receipt (*plan)(const Request &);
  Release (*release)(ConstMatrixView, const Request &, const Receipt &, random::Rng &);
  double (*log_density)(ConstMatrixView, ConstMatrixView, const Request &);
  double (*log_density_tested)(ConstMatrixView, double, ConstMatrixView, const Request &);
  // Whether a derived value of the plan reads n (plan_at_rows plans again at the rows' n): IEV
  // and KT clip the released spectrum to n B^2 under replace-one, the graphical-lasso output
  // perturbation scales its noise with 1 / n.
  bool plan_reads_n;
};

// Sized by its initializer: a Gram mechanism added is one row, with no count to move.
constexpr GramOps kGramOps[] = {
    {MechanismId::AnalyzeGauss, plan_analyze_gauss, release_analyze_gauss,
     log_density_analyze_gauss, nullptr, false},
    {MechanismId::LaplaceSym, plan_laplace_sym, release_laplace_sym, log_density_laplace_sym,
     nullptr, false},
    {MechanismId::WishartAdditive, plan_wishart_additive, release_wishart_additive,
     log_density_wishart_additive, nullptr, false},
    {MechanismId::InverseGauss, plan_inverse_gauss, release_inverse_gauss,
     log_density_inverse_gauss, nullptr, false},
    {MechanismId::WishartJiang, plan_wishart_jiang, release_wishart_jiang,
     log_density_wishart_jiang, nullptr, false},
    {MechanismId::Iev, plan_iev, release_iev, log_density_iev, nullptr, true},
    {MechanismId::KtRank1, plan_kt_rank1, release_kt_rank1, log_density_kt_rank1, nullptr, true},
    {MechanismId::JlRidge, plan_jl_ridge, release_jl_ridge, log_density_jl_ridge, nullptr, false},
    {MechanismId::JlRidgeSigmaMin, plan_jl_ridge_sigma_min, release_jl_ridge_sigma_min, nullptr,
     log_density_jl_ridge_sigma_min, false},
    {MechanismId::InverseWishart, plan_inverse_wishart, release_inverse_wishart,
     log_density_inverse_wishart, nullptr, false},
    {MechanismId::InverseWishartSigmaMin, plan_inverse_wishart_sigma_min,
     release_inverse_wishart_sigma_min, nullptr, log_density_inverse_wishart_sigma_min, false},
    {MechanismId::OlsJl, plan_ols_jl, release_ols_jl, nullptr, log_density_ols_jl, false},
    {MechanismId::GlassoOutputWishart, plan_glasso_output, release_glasso_output,
     log_density_glasso_output, nullptr, true},
};

const GramOps &ops_of(MechanismId mechanism) {
  for (const GramOps &ops : kGramOps)
    if (ops.id == mechanism) return ops;
  fail(Status::InvalidArgument, "unknown mechanism id ", static_cast<int32_t>(mechanism));
}

}  // namespace

Receipt plan(MechanismId mechanism, const Request &request) {
  return ops_of(mechanism).plan(request);
}

bool plan_reads_n(MechanismId mechanism) { return ops_of(mechanism).plan_reads_n; }

Receipt plan_at_rows(MechanismId mechanism, const Receipt &planned, const Request &request) {
  if (planned.mechanism != mechanism || planned.dim != request.dim ||
      planned.bound != request.bound || planned.neighbour != request.options.neighbour)
    fail(Status::Internal, "a release was handed a plan of another request");
  if (planned.n == request.n) return planned;
  if (plan_reads_n(mechanism)) return plan(mechanism, request);
  Receipt at_rows = planned;
  at_rows.n = request.n;
  return at_rows;
}

Receipt plan_at_bound(MechanismId mechanism, const Receipt &planned, const Request &request) {
  if (planned.mechanism != mechanism || planned.dim != request.dim ||
      planned.epsilon != request.epsilon || planned.neighbour != request.options.neighbour ||
      (planned.unit_sigma > 0.0 && planned.delta != request.delta))
    fail(Status::Internal, "a plan was moved to the bound of another request");
  Request known = request;
  known.analytic_unit_sigma = planned.unit_sigma;
  return plan(mechanism, known);
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
  return ops_of(mechanism).release(gram, request, planned, rng);
}

double log_density(MechanismId mechanism, ConstMatrixView released, ConstMatrixView gram,
                   const Request &request) {
  const GramOps &ops = ops_of(mechanism);
  if (ops.log_density == nullptr) {
    ops.plan(request);
    fail(Status::InvalidArgument, "the density of a ", mechanism_name(mechanism),
         " release depends on its released test value s2: use the tested log-density");
  }
  return ops.log_density(released, gram, request);
}

double log_density_tested(MechanismId mechanism, ConstMatrixView released, double test_value,
                          ConstMatrixView gram, const Request &request) {
  const GramOps &ops = ops_of(mechanism);
  if (ops.log_density_tested == nullptr)
    fail(Status::InvalidArgument, mechanism_name(mechanism), " has no private test value; ",
         "use the plain log-density");
  return ops.log_density_tested(released, test_value, gram, request);
}

}  // namespace dpcov::mechanisms
