#include "charge.hpp"

#include "../check.hpp"
#include "../error.hpp"
#include "../privacy/zcdp.hpp"
#include "../privacy/upward.hpp"

namespace dpcov::mechanisms {

privacy::Charge charge_of(const Receipt &r) {
  if (r.not_dp)
    fail(Status::NotPrivate, "the receipt is of a mechanism that is not differentially private: ",
         "it has no cost a ledger could charge");
  check::positive_finite(r.epsilon, "receipt epsilon");
  check::finite(r.delta, "receipt delta");
  if (!(r.delta >= 0.0 && r.delta < 1.0))
    fail(Status::InvalidArgument, "receipt delta must be in [0, 1), got ", r.delta);
  check::finite(r.sigma, "receipt sigma");
  check::finite(r.sensitivity, "receipt sensitivity");
  privacy::Charge c{r.epsilon, r.delta, 0.0};
  // The Gaussian mechanisms: N(0, sigma^2) on each upper-triangle entry of a statistic whose L2
  // sensitivity is Delta. Their delta is not charged under zCDP: rho covers them entirely.
  const bool gaussian = (r.mechanism == MechanismId::AnalyzeGauss ||
                         r.mechanism == MechanismId::InverseGauss) &&
                        r.sensitivity_norm == SensitivityNorm::L2 && r.sigma > 0.0 &&
                        r.sensitivity > 0.0;
  // Exact numerics: the integer noise N_Z(0, s2) is Delta^2 / (2 s2)-zCDP (Canonne-Kamath-Steinke
  // 2020 Thm 14); its variance is sized by (epsilon, delta) directly
  // (privacy/discrete_gaussian_smoothing.hpp), so rho must come from the integers, not from a
  // conversion of the budget. The receipt's sensitivity and sigma are those integers times the
  // same grid^2, each after at most three roundings to nearest, so Delta^2 / (2 sigma^2) from them
  // is within a relative 12 u < 2^-48 of the integers' ratio: rounded up by that much.
  if (gaussian && r.numerics == Numerics::Exact)
    c.rho = privacy::upward::mul_up(privacy::zcdp_rho_gaussian(r.sensitivity, r.sigma),
                                    1.0 + 0x1.0p-48);
  else if (gaussian)
    c.rho = privacy::zcdp_rho_gaussian(r.sensitivity, r.sigma);
  else if (r.delta == 0.0)
    c.rho = privacy::zcdp_rho_pure(r.epsilon);
  return c;
}

privacy::Charge charge_of_release(const RegistryEntry &entry, int32_t privacy_model, double rho,
                                  double epsilon, double delta, const Receipt *gram) {
  // A receipt that claims another model than its mechanism's would be charged by the wrong rule.
  if (privacy_model != static_cast<int32_t>(entry.privacy))
    fail(Status::InvalidArgument, "receipt privacy_model ", privacy_model, " is not ",
         static_cast<int32_t>(entry.privacy), ", the registry's for ", entry.name);
  if (entry.privacy == PrivacyModel::NotPrivate)
    fail(Status::NotPrivate, "the receipt is of ", entry.name,
         ", which is not differentially private: it has no cost a ledger could charge");
  if (entry.family == Family::Gram) {
    if (gram == nullptr)
      fail(Status::InvalidArgument, "a receipt of ", entry.name, " is charged from its full receipt");
    return charge_of(*gram);
  }
  // A pure epsilon-DP release (the private bound) states no rho: it is epsilon^2 / 2-zCDP
  // (Bun-Steinke 2016, Prop. 1.4), rounded up here, so no caller computes it.
  if (entry.privacy == PrivacyModel::Pure) {
    check::positive_finite(epsilon, "receipt epsilon");
    if (delta != 0.0)
      fail(Status::InvalidArgument, "receipt delta of ", entry.name, ", which is epsilon-DP, must ",
           "be 0, got ", delta);
    return privacy::Charge{epsilon, 0.0, privacy::zcdp_rho_pure(epsilon)};
  }
  return privacy::zcdp_charge(rho, epsilon, delta);
}

}  // namespace dpcov::mechanisms
