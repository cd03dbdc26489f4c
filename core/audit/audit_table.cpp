#include "audit_table.hpp"

#include "../mechanisms/ols_ptr.hpp"
#include "../mechanisms/registry.hpp"
#include "claimed_laws.hpp"
#include "mechanism_audit.hpp"

namespace dpcov::audit {

namespace {

using mechanisms::MechanismId;

constexpr int32_t id_of(MechanismId mechanism) {
  return static_cast<int32_t>(mechanism);
}

constexpr StandardCase exact_case(NeighbourKind neighbour, DatasetKind data) {
  return {neighbour, data, false, Statistic::TopEigenvalue};
}

constexpr StandardCase black_box_case(Statistic statistic) {
  return {NeighbourKind::MaxL2Change, DatasetKind::SphereRows, true, statistic};
}

using enum NeighbourKind;
using enum DatasetKind;

const MechanismAudit kTable[] = {
    {.id = id_of(MechanismId::AnalyzeGauss), .cases = {exact_case(MaxL2Change, RandomRows)}},
    {.id = id_of(MechanismId::LaplaceSym), .cases = {exact_case(MaxL1Change, RandomRows)}},
    {.id = id_of(MechanismId::WishartAdditive),
     .cases = {exact_case(LeastEigenvector, RandomRows)}},
    {.id = id_of(MechanismId::InverseGauss), .cases = {exact_case(LeastEigenvector, SphereRows)}},
    {.id = id_of(MechanismId::JlRidge),
     .cases = {exact_case(LeastEigenvector, RandomRows)},
     .claimed_law = jl_ridge_law},
    {.id = id_of(MechanismId::JlRidgeSigmaMin),
     .cases = {exact_case(LeastEigenvector, SphereRows)},
     .claimed_law = jl_ridge_sigma_min_law},
    {.id = id_of(MechanismId::InverseWishart),
     .cases = {exact_case(LeastEigenvector, RandomRows)},
     .claimed_law = inverse_wishart_law},
    {.id = id_of(MechanismId::InverseWishartSigmaMin),
     .cases = {exact_case(LeastEigenvector, SphereRows)},
     .claimed_law = inverse_wishart_sigma_min_law},
    {.id = id_of(MechanismId::WishartJiang), .cases = {exact_case(LeastEigenvector, RandomRows)}},
    {.id = id_of(MechanismId::GlassoOutputWishart),
     .cases = {exact_case(LeastEigenvector, RandomRows)}},
    // At the rows where its private test is undecided: refusals and releases both occur.
    {.id = id_of(MechanismId::OlsJl),
     .cases = {exact_case(LeastEigenvector, SphereRows)},
     .claimed_law = ols_jl_law,
     .log_refusal = mechanisms::log_refusal_probability_ols_jl,
     .standard_rows = ols_jl_threshold_rows},
    {.id = id_of(MechanismId::Iev),
     .cases = {black_box_case(Statistic::TopEigenvalue),
               black_box_case(Statistic::TopEigenvectorAlignment)},
     .case_count = 2},
    {.id = id_of(MechanismId::KtRank1), .cases = {black_box_case(Statistic::TopEigenvalue)}},
};

}  // namespace

std::span<const MechanismAudit> audit_table() {
  return kTable;
}

const MechanismAudit *find_audit(int32_t id) {
  for (const MechanismAudit &audit : audit_table())
    if (audit.id == id) return &audit;
  return nullptr;
}

int64_t standard_rows(mechanisms::MechanismId mechanism, const mechanisms::Request &request) {
  // A mechanism whose lambda_min bound the audit takes from its pair is planned once the pair
  // gives it; its other arguments are checked now.
  const bool approximate = mechanisms::entry_of(static_cast<int32_t>(mechanism)).privacy ==
                           mechanisms::PrivacyModel::Approximate;
  if (bound_from_pair(mechanism, request))
    static_cast<void>(mechanisms::base_receipt(
        mechanism, request,
        approximate ? mechanisms::DeltaUse::Approximate : mechanisms::DeltaUse::Pure));
  else
    static_cast<void>(mechanisms::plan(mechanism, request));
  const MechanismAudit *audit = find_audit(static_cast<int32_t>(mechanism));
  return audit != nullptr && audit->standard_rows != nullptr ? audit->standard_rows(request)
                                                             : request.n;
}

}  // namespace dpcov::audit
