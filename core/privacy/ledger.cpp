#include "ledger.hpp"

#include <cmath>

#include "../check.hpp"
#include "../error.hpp"
#include "advanced_composition.hpp"
#include "upward.hpp"
#include "zcdp.hpp"

namespace dpcov::privacy {

Charge zcdp_charge(double rho, double epsilon, double delta) {
  check::positive_finite(rho, "rho");
  // epsilon = 0 is the conversion of a rho so small against ln(1/delta) that the release is
  // (0, delta)-DP (zcdp_epsilon): a valid release, which the ledger used to refuse.
  check::finite(epsilon, "epsilon");
  if (!(epsilon >= 0.0)) fail(Status::InvalidArgument, "epsilon must be >= 0, got ", epsilon);
  check::finite(delta, "delta");
  if (!(delta >= 0.0 && delta < 1.0))
    fail(Status::InvalidArgument, "delta must be in [0, 1), got ", delta);
  return Charge{epsilon, delta, rho};
}

Ledger::Ledger(Accounting accounting, double epsilon_cap, double delta_cap)
    : accounting_(accounting), epsilon_cap_(epsilon_cap), delta_cap_(delta_cap) {
  if (accounting != Accounting::Basic && accounting != Accounting::Zcdp &&
      accounting != Accounting::Advanced)
    fail(Status::InvalidArgument, "accounting must be DPCOV_ACCOUNTING_BASIC (0), ",
         "DPCOV_ACCOUNTING_ZCDP (1) or DPCOV_ACCOUNTING_ADVANCED (2), got ",
         static_cast<int32_t>(accounting));
  check::positive_finite(epsilon_cap, "epsilon_cap");
  check::finite(delta_cap, "delta_cap");
  if (!(delta_cap >= 0.0 && delta_cap < 1.0))
    fail(Status::InvalidArgument, "delta_cap must be in [0, 1), got ", delta_cap);
  if (accounting == Accounting::Zcdp) {
    if (delta_cap == 0.0)
      fail(Status::InvalidArgument, "zCDP accounting needs delta_cap > 0 (it converts rho to ",
           "(epsilon, delta_cap))");
    rho_cap_ = zcdp_rho_cap(epsilon_cap, delta_cap);
  }
}

Ledger::Totals Ledger::after(const Charge &c) const {
  Totals t = totals_;
  if (accounting_ == Accounting::Zcdp) {
    if (c.rho <= 0.0)
      fail(Status::InvalidArgument, "zCDP accounting covers Gaussian and pure-epsilon ",
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
      fail(Status::Precondition, "the ledger's cap would be exceeded: one release of (epsilon ",
           c.epsilon, ", delta ", c.delta, ") is over the cap (", epsilon_cap_, ", ", delta_cap_,
           "); nothing was released");
    return;
  }
  if (c.epsilon > epsilon_each_ || c.delta > delta_each_)
    fail(Status::Precondition, "the ledger's cap would be exceeded: under advanced composition ",
         "every release spends at most the first one's (epsilon ", epsilon_each_, ", delta ",
         delta_each_, "), this one asks (", c.epsilon, ", ", c.delta, "); nothing was released");
  if (charges_ >= max_releases_)
    fail(Status::Precondition, "the ledger's cap would be exceeded: advanced composition fits ",
         max_releases_, " releases of (epsilon ", epsilon_each_, ", delta ", delta_each_,
         ") in the cap (", epsilon_cap_, ", ", delta_cap_, "), all spent; nothing was released");
}

void Ledger::check(const Charge &c) const {
  if (accounting_ == Accounting::Advanced) return check_advanced(c);
  const Totals t = after(c);
  if (accounting_ == Accounting::Zcdp) {
    if (t.rho > rho_cap_)
      fail(Status::Precondition, "the ledger's cap would be exceeded: rho ", t.rho, " > ",
           rho_cap_, " (epsilon ", t.epsilon, " > cap ", epsilon_cap_, " at delta ", delta_cap_,
           "); nothing was released");
    return;
  }
  if (t.epsilon > epsilon_cap_ || t.delta > delta_cap_)
    fail(Status::Precondition, "the ledger's cap would be exceeded: epsilon ", t.epsilon,
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

Ledger::Spent Ledger::spent() const {
  Spent s;
  s.accounting = accounting_;
  s.charges = charges_;
  s.epsilon = totals_.epsilon;
  s.delta = charges_ == 0 ? 0.0 : totals_.delta;
  s.rho = totals_.rho;
  s.epsilon_cap = epsilon_cap_;
  s.delta_cap = delta_cap_;
  return s;
}

}  // namespace dpcov::privacy
