// A privacy budget ledger (proofs/ledger.md): releases are charged against a total cap (epsilon,
// delta), and a release that would exceed it is refused before it runs. The cap check is a privacy
// filter: it holds when each release's parameters are chosen after seeing the earlier outputs.
#pragma once

#include <cstdint>
#include <vector>

#include "dpcov/ledger.h"
#include "dpcov/mechanism.h"
#include "dpcov/receipt.h"

namespace dpcov::privacy {

enum class Accounting : int32_t {
  // Sum of the epsilons and of the deltas (Dwork and Roth 2014, Thm 3.16; as a filter: Rogers,
  // Roth, Ullman, Vadhan 2016). Every private mechanism.
  Basic = DPCOV_ACCOUNTING_BASIC,
  // Sum of the zCDP rhos (Bun and Steinke 2016, Lemma 2.3; as a filter: the Renyi filter of
  // Feldman and Zrnic 2021 at every order), converted with the cap's delta. Gaussian mechanisms
  // (rho = Delta^2 / (2 sigma^2)) and pure-epsilon ones (rho = eps^2 / 2: advanced composition's
  // sqrt(2 k ln(1/delta)) eps growth); other (epsilon, delta) mechanisms are refused.
  Zcdp = DPCOV_ACCOUNTING_ZCDP,
  // Advanced composition (Dwork, Rothblum, Vadhan 2010; Dwork and Roth 2014, Thm 3.20): the first
  // charge fixes the per-release budget (epsilon_0, delta_0) and with it the number of releases K
  // the cap allows (advanced_composition_max_releases); every later release may spend at most
  // (epsilon_0, delta_0) and is counted at it. Every private mechanism.
  Advanced = DPCOV_ACCOUNTING_ADVANCED,
};

// What one release costs.
struct Charge {
  double epsilon = 0.0;
  double delta = 0.0;
  double rho = 0.0;  // 0: the mechanism has no zCDP bound
};

// The charge of the release a receipt describes (a plan's receipt, before the release). Throws
// DPCOV_E_NOT_PRIVATE for a mechanism that is not DP, DPCOV_E_INVALID_ARGUMENT for a receipt whose
// fields are out of range.
Charge charge_of(const dpcov_receipt &receipt);

// The charge of a release stated in zCDP: rho-zCDP and (epsilon, delta)-DP (AdaSSP, CoinPress,
// Dong-Liang-Yi). Throws DPCOV_E_INVALID_ARGUMENT / DPCOV_E_NON_FINITE unless rho is finite and
// > 0, epsilon finite and >= 0 (0: a tiny rho whose conversion is (0, delta)-DP) and delta is in
// [0, 1).
Charge zcdp_charge(double rho, double epsilon, double delta);

class Ledger {
 public:
  // Throws DPCOV_E_INVALID_ARGUMENT / DPCOV_E_NON_FINITE unless epsilon_cap is finite and > 0 and
  // delta_cap is in [0, 1) (in (0, 1) for zCDP accounting).
  Ledger(Accounting accounting, double epsilon_cap, double delta_cap);

  // Throws DPCOV_E_PRECONDITION (the cap would be exceeded; the message says by what) or
  // DPCOV_E_INVALID_ARGUMENT (zCDP accounting and a charge without rho).
  void check(const Charge &charge) const;
  // check(), then records the charge.
  void charge(const Charge &charge);

  dpcov_ledger_spent spent() const;

 private:
  struct Totals {
    double epsilon = 0.0, delta = 0.0, rho = 0.0;
  };
  Totals after(const Charge &charge) const;

  void check_advanced(const Charge &charge) const;

  Accounting accounting_;
  double epsilon_cap_;
  double delta_cap_;
  double rho_cap_ = 0.0;
  // Advanced accounting: the per-release budget and the number of releases, fixed by the first
  // charge.
  double epsilon_each_ = 0.0, delta_each_ = 0.0;
  int64_t max_releases_ = 0;
  Totals totals_;
  int64_t charges_ = 0;
};

}  // namespace dpcov::privacy
