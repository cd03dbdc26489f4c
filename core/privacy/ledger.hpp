// A privacy budget ledger (proofs/ledger.md): releases are charged against a total cap (epsilon,
// delta), and a release that would exceed it is refused before it runs. The cap check is a privacy
// filter: it holds when each release's parameters are chosen after seeing the earlier outputs.
#pragma once

#include <cstdint>
#include <vector>


namespace dpcov::privacy {

enum class Accounting : int32_t {
  // Sum of the epsilons and of the deltas (Dwork and Roth 2014, Thm 3.16; as a filter: Rogers,
  // Roth, Ullman, Vadhan 2016). Every private mechanism.
  Basic = 0,
  // Sum of the zCDP rhos (Bun and Steinke 2016, Lemma 2.3; as a filter: the Renyi filter of
  // Feldman and Zrnic 2021 at every order), converted with the cap's delta. Gaussian mechanisms
  // (rho = Delta^2 / (2 sigma^2)) and pure-epsilon ones (rho = eps^2 / 2: advanced composition's
  // sqrt(2 k ln(1/delta)) eps growth); other (epsilon, delta) mechanisms are refused.
  Zcdp = 1,
  // Advanced composition (Dwork, Rothblum, Vadhan 2010; Dwork and Roth 2014, Thm 3.20): the first
  // charge fixes the per-release budget (epsilon_0, delta_0) and with it the number of releases K
  // the cap allows (advanced_composition_max_releases); every later release may spend at most
  // (epsilon_0, delta_0) and is counted at it. Every private mechanism.
  Advanced = 2,
};

// What one release costs.
struct Charge {
  double epsilon = 0.0;
  double delta = 0.0;
  double rho = 0.0;  // 0: the mechanism has no zCDP bound
};

// The charge of a release of the Gram-family mechanisms is read from its receipt:
// mechanisms::charge_of (core/mechanisms/charge.hpp).

// The charge of a release stated in zCDP: rho-zCDP and (epsilon, delta)-DP (AdaSSP, CoinPress,
// Dong-Liang-Yi). Throws Status::InvalidArgument / Status::NonFinite unless rho is finite and
// > 0, epsilon finite and >= 0 (0: a tiny rho whose conversion is (0, delta)-DP) and delta is in
// [0, 1).
Charge zcdp_charge(double rho, double epsilon, double delta);

class Ledger {
 public:
  // Throws Status::InvalidArgument / Status::NonFinite unless epsilon_cap is finite and > 0 and
  // delta_cap is in [0, 1) (in (0, 1) for zCDP accounting).
  Ledger(Accounting accounting, double epsilon_cap, double delta_cap);

  // Throws Status::Precondition (the cap would be exceeded; the message says by what) or
  // Status::InvalidArgument (zCDP accounting and a charge without rho).
  void check(const Charge &charge) const;
  // check(), then records the charge.
  void charge(const Charge &charge);

  // What the ledger has spent: the C ABI's dpcov_ledger_spent without its struct_size.
  struct Spent {
    Accounting accounting = Accounting::Basic;
    int64_t charges = 0;
    double epsilon = 0.0;  // 0 before any charge
    double delta = 0.0;    // 0 before any charge
    double rho = 0.0;
    double epsilon_cap = 0.0;
    double delta_cap = 0.0;
  };
  Spent spent() const;

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
