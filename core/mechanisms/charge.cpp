#include "charge.hpp"

#include "../check.hpp"
#include "../error.hpp"
#include "../privacy/zcdp.hpp"
#include "../privacy/zcdp_rho_cache.hpp"

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
  // Exact numerics: the receipt's sensitivity and sigma are the grid's integers scaled to data
  // units and rounded to nearest, so their ratio can fall a few ulps below the integers' and
  // Delta^2 / (2 sigma^2) below the release's cost. The integer noise was sized for rho =
  // zcdp_rho_for_epsilon(epsilon, delta), its variance >= Delta^2 / (2 rho) exactly
  // (exact_additive.cpp), so that rho is at least the cost: charged so. A ledger replayed from a
  // file charges the same (epsilon, delta) release after release: the search's memo serves it.
  if (gaussian && r.numerics == Numerics::Exact)
    c.rho = privacy::zcdp_rho_for_epsilon_cached(r.epsilon, r.delta);
  else if (gaussian)
    c.rho = privacy::zcdp_rho_gaussian(r.sensitivity, r.sigma);
  else if (r.delta == 0.0)
    c.rho = privacy::zcdp_rho_pure(r.epsilon);
  return c;
}

}  // namespace dpcov::mechanisms
