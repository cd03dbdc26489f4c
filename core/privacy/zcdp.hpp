// Zero-concentrated differential privacy (Bun & Steinke, TCC 2016): the Gaussian mechanism's zCDP
// cost and the conversion of a rho-zCDP guarantee to (epsilon, delta)-DP for the receipt
// (proofs/coinpress.md, section "zCDP to (epsilon, delta)").
#pragma once

namespace dpcov::privacy {

// sigma = sensitivity / sqrt(2 rho), rounded up at every rho (proofs/check/zcdp_sigma.py): the
// Gaussian mechanism with L2 sensitivity `sensitivity` and N(0, sigma^2) noise is rho-zCDP
// (Bun & Steinke 2016, Prop. 1.6). Throws
// Status::InvalidArgument / Status::NonFinite unless rho and the sensitivity are finite and > 0,
// and Status::Numerical where sigma overflows (a tiny rho against a large sensitivity).
double zcdp_gaussian_sigma(double rho, double sensitivity);

// The epsilon at which rho-zCDP implies (epsilon, delta)-DP, by the tight conversion of Canonne,
// Kamath & Steinke, "The Discrete Gaussian for Differential Privacy" (NeurIPS 2020), Prop. 12 /
// Cor. 13 (Asoodeh et al. 2021 give the same bound):
//   epsilon = inf_{alpha > 1} alpha rho + (ln(1/delta) + (alpha - 1) ln(1 - 1/alpha) - ln alpha)
//                                         / (alpha - 1).
// The infimum is searched in round-to-nearest; the returned value is the bound at the alpha found,
// evaluated with every operation rounded towards +infinity, so it is a valid epsilon (never below
// the bound at that alpha) and within 1e-9 relative of the infimum (proofs/check/coinpress.py).
// Never above Bun & Steinke's rho + 2 sqrt(rho ln(1/delta)) (Prop. 1.3). Never below 0: where the
// bound is negative (small rho, large delta) the guarantee is (0, delta)-DP. Throws unless rho is
// finite and > 0 and delta is in (0, 1), and Status::Numerical where epsilon overflows.
double zcdp_epsilon(double rho, double delta);

// zcdp_epsilon() for a mechanism's receipt: also Status::InvalidArgument where epsilon exceeds
// check::kMaxEpsilon, the cap of every epsilon a caller gives (docs/epsilon-cap.md), so that no
// receipt states a guarantee for a release whose noise falls below the statistic's rounding.
double zcdp_receipt_epsilon(double rho, double delta);

// Bun & Steinke 2016, Prop. 1.3: rho + 2 sqrt(rho ln(1/delta)), rounded up. The looser conversion,
// kept for comparison (Dong-Liang-Yi's code uses it).
double zcdp_epsilon_bun_steinke(double rho, double delta);

// The largest rho with zcdp_epsilon(rho, delta) <= epsilon, found by bisection down to adjacent
// doubles: the zCDP budget that a mechanism stated in zCDP may spend to meet (epsilon, delta).
// The result always meets the target, and never falls as epsilon grows (proofs/coinpress.md).
// Throws unless epsilon is finite and > 0 and delta is in (0, 1), and Status::Numerical where no
// rho > 0 meets epsilon.
double zcdp_rho_for_epsilon(double epsilon, double delta);

// rho of the Gaussian mechanism with L2 sensitivity Delta and noise sigma: Delta^2 / (2 sigma^2)
// (Bun-Steinke Prop. 1.6), rounded up: the budget ledger's cost of a Gaussian release
// (proofs/ledger.md). Throws unless Delta, sigma are finite and > 0.
double zcdp_rho_gaussian(double sensitivity, double sigma);

// rho of an eps-DP mechanism: eps^2 / 2 (Bun-Steinke Prop. 1.4), rounded up.
double zcdp_rho_pure(double epsilon);

// The largest rho whose zcdp_epsilon_bun_steinke(rho, delta) is <= epsilon, in the
// cancellation-free form epsilon^2 / (sqrt(L + epsilon) + sqrt(L))^2 with L = ln(1/delta), rounded
// down: the budget ledger's zCDP cap (proofs/ledger.md).
double zcdp_rho_cap(double epsilon, double delta);

}  // namespace dpcov::privacy
