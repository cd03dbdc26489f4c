#include "ledger.hpp"

#include <cmath>

#include "../check.hpp"
#include "../error.hpp"
#include "advanced_composition.hpp"
#include "upward.hpp"
#include "zcdp.hpp"
#include "zcdp_rho_cache.hpp"

namespace dpcov::privacy {

Charge charge_of(const dpcov_receipt &r) {
  if (r.not_dp != 0)
    fail(DPCOV_E_NOT_PRIVATE, "the receipt is of a mechanism that is not differentially private: ",
         "it has no cost a ledger could charge");
  check::positive_finite(r.epsilon, "receipt epsilon");
  check::finite(r.delta, "receipt delta");
  if (!(r.delta >= 0.0 && r.delta < 1.0))
    fail(DPCOV_E_INVALID_ARGUMENT, "receipt delta must be in [0, 1), got ", r.delta);
  check::finite(r.sigma, "receipt sigma");
  check::finite(r.sensitivity, "receipt sensitivity");
  Charge c{r.epsilon, r.delta, 0.0};
  // The Gaussian mechanisms: N(0, sigma^2) on each upper-triangle entry of a statistic whose L2
  // sensitivity is Delta. Their delta is not charged under zCDP: rho covers them entirely.
  const bool gaussian = (r.mechanism == DPCOV_MECHANISM_ANALYZE_GAUSS ||
                         r.mechanism == DPCOV_MECHANISM_INVERSE_GAUSS) &&
                        r.sensitivity_norm == DPCOV_SENSITIVITY_L2 && r.sigma > 0.0 &&
                        r.sensitivity > 0.0;
  // Exact numerics: the receipt's sensitivity and sigma are the grid's integers scaled to data
  // units and rounded to nearest, so their ratio can fall a few ulps below the integers' and
  // Delta^2 / (2 sigma^2) below the release's cost. The integer noise was sized for rho =
  // zcdp_rho_for_epsilon(epsilon, delta), its variance >= Delta^2 / (2 rho) exactly
  // (exact_additive.cpp), so that rho is at least the cost: charged so. A ledger replayed from a
  // file charges the same (epsilon, delta) release after release: the search's memo serves it.
  if (gaussian && r.numerics == DPCOV_NUMERICS_EXACT)
    c.rho = zcdp_rho_for_epsilon_cached(r.epsilon, r.delta);
  else if (gaussian)
    c.rho = zcdp_rho_gaussian(r.sensitivity, r.sigma);
  else if (r.delta == 0.0)
    c.rho = zcdp_rho_pure(r.epsilon);
  return c;
}

Charge zcdp_charge(double rho, double epsilon, double delta) {
  check::positive_finite(rho, "rho");
  // epsilon = 0 is the conversion of a rho so small against ln(1/delta) that the release is
  // (0, delta)-DP (zcdp_epsilon): a valid release, which the ledger used to refuse.
  check::finite(epsilon, "epsilon");
  if (!(epsilon >= 0.0)) fail(DPCOV_E_INVALID_ARGUMENT, "epsilon must be >= 0, got ", epsilon);
  check::finite(delta, "delta");
  if (!(delta >= 0.0 && delta < 1.0))
    fail(DPCOV_E_INVALID_ARGUMENT, "delta must be in [0, 1), got ", delta);
  return Charge{epsilon, delta, rho};
}

Ledger::Ledger(Accounting accounting, double epsilon_cap, double delta_cap)
    : accounting_(accounting), epsilon_cap_(epsilon_cap), delta_cap_(delta_cap) {
  if (accounting != Accounting::Basic && accounting != Accounting::Zcdp &&
      accounting != Accounting::Advanced)
    fail(DPCOV_E_INVALID_ARGUMENT, "accounting must be DPCOV_ACCOUNTING_BASIC (0), ",
         "DPCOV_ACCOUNTING_ZCDP (1) or DPCOV_ACCOUNTING_ADVANCED (2), got ",
         static_cast<int32_t>(accounting));
  check::positive_finite(epsilon_cap, "epsilon_cap");
  check::finite(delta_cap, "delta_cap");
  if (!(delta_cap >= 0.0 && delta_cap < 1.0))
    fail(DPCOV_E_INVALID_ARGUMENT, "delta_cap must be in [0, 1), got ", delta_cap);
  if (accounting == Accounting::Zcdp) {
    if (delta_cap == 0.0)
      fail(DPCOV_E_INVALID_ARGUMENT, "zCDP accounting needs delta_cap > 0 (it converts rho to ",
           "(epsilon, delta_cap))");
    rho_cap_ = zcdp_rho_cap(epsilon_cap, delta_cap);
  }
}

Ledger::Totals Ledger::after(const Charge &c) const {
  Totals t = totals_;
  if (accounting_ == Accounting::Zcdp) {
    if (c.rho <= 0.0)
      fail(DPCOV_E_INVALID_ARGUMENT, "zCDP accounting covers Gaussian and pure-epsilon ",
           "mechanisms only; this (epsilon, delta) release needs basic accounting");
    t.rho = upward::add_up(t.rho, c.rho);
    t.epsilon = zcdp_epsilon_bun_steinke(t.rho, delta_cap_);
    t.delta = delta_cap_;
    return t;
  }
  if (accounting_ == Accounting::Advanced) {
    // Every release counts at the per-release budget, which the first charge fixes.
    const bool first = charges_ == 0;
    const CompositionCost cost = advanced_composition_cost(
        charges_ + 1, epsilon_cap_, delta_cap_, first ? c.epsilon : epsilon_each_,
        first ? c.delta : delta_each_);
    t.epsilon = cost.epsilon;
    t.delta = cost.delta;
    return t;
  }
  t.epsilon = upward::add_up(t.epsilon, c.epsilon);
  t.delta = upward::add_up(t.delta, c.delta);
  return t;
}

void Ledger::check_advanced(const Charge &c) const {
  if (charges_ == 0) {
    if (advanced_composition_max_releases(epsilon_cap_, delta_cap_, c.epsilon, c.delta) < 1)
      fail(DPCOV_E_PRECONDITION, "the ledger's cap would be exceeded: one release of (epsilon ",
           c.epsilon, ", delta ", c.delta, ") is over the cap (", epsilon_cap_, ", ", delta_cap_,
           "); nothing was released");
    return;
  }
  if (c.epsilon > epsilon_each_ || c.delta > delta_each_)
    fail(DPCOV_E_PRECONDITION, "the ledger's cap would be exceeded: under advanced composition ",
         "every release spends at most the first one's (epsilon ", epsilon_each_, ", delta ",
         delta_each_, "), this one asks (", c.epsilon, ", ", c.delta, "); nothing was released");
  if (charges_ >= max_releases_)
    fail(DPCOV_E_PRECONDITION, "the ledger's cap would be exceeded: advanced composition fits ",
         max_releases_, " releases of (epsilon ", epsilon_each_, ", delta ", delta_each_,
         ") in the cap (", epsilon_cap_, ", ", delta_cap_, "), all spent; nothing was released");
}

void Ledger::check(const Charge &c) const {
  if (accounting_ == Accounting::Advanced) return check_advanced(c);
  const Totals t = after(c);
  if (accounting_ == Accounting::Zcdp) {
    if (t.rho > rho_cap_)
      fail(DPCOV_E_PRECONDITION, "the ledger's cap would be exceeded: rho ", t.rho, " > ",
           rho_cap_, " (epsilon ", t.epsilon, " > cap ", epsilon_cap_, " at delta ", delta_cap_,
           "); nothing was released");
    return;
  }
  if (t.epsilon > epsilon_cap_ || t.delta > delta_cap_)
    fail(DPCOV_E_PRECONDITION, "the ledger's cap would be exceeded: epsilon ", t.epsilon,
         " (cap ", epsilon_cap_, "), delta ", t.delta, " (cap ", delta_cap_,
         "); nothing was released");
}

void Ledger::charge(const Charge &c) {
  check(c);
  totals_ = after(c);
  if (accounting_ == Accounting::Advanced && charges_ == 0) {
    epsilon_each_ = c.epsilon;
    delta_each_ = c.delta;
    max_releases_ = advanced_composition_max_releases(epsilon_cap_, delta_cap_, c.epsilon, c.delta);
  }
  ++charges_;
}


dpcov_ledger_spent Ledger::spent() const {
  dpcov_ledger_spent s{};
  s.struct_size = sizeof s;
  s.accounting = static_cast<int32_t>(accounting_);
  s.charges = charges_;
  s.epsilon = totals_.epsilon;
  s.delta = charges_ == 0 ? 0.0 : totals_.delta;
  s.rho = totals_.rho;
  s.epsilon_cap = epsilon_cap_;
  s.delta_cap = delta_cap_;
  return s;
}

}  // namespace dpcov::privacy
