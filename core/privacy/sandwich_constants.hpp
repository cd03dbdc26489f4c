// The constants of the robust (sandwich) regression intervals: the budget split between the AdaSSP
// fit and the released meat M = sum_i r_i^2 x_i x_i', and the bounds of the meat's rows. Derived
// in proofs/sandwich.md.
//
// The meat is the Gram matrix of the rows u_i = r_i x_i, r_i = clip(y_i - x_i' beta0, -R, R) at a
// first-stage estimate beta0 that is a function of the AdaSSP release only. Given beta0, one row
// changes one u_i, of norm <= B_X R, so Analyze Gauss over the u_i releases M with the Gram
// sensitivity already proven (proofs/gram_sensitivity.md) for the bound B_X R.
#pragma once

#include "neighbour.hpp"

namespace dpcov::privacy {

// The shares of (epsilon, delta) of the two releases, composed by basic adaptive composition
// (Dwork, Roth 2014, Thm 3.16): the fit gets (epsilon - meat_epsilon, delta - meat_delta), the meat
// (meat_epsilon, meat_delta). The meat enters the intervals' width only through an estimate of the
// variance, a second-order effect, so it gets the smaller share.
struct SandwichBudget {
  double fit_epsilon = 0.0, fit_delta = 0.0;
  double meat_epsilon = 0.0, meat_delta = 0.0;
};

// The share of epsilon and of delta spent on the meat.
inline constexpr double kSandwichMeatShare = 0.2;

// The split of (epsilon, delta) (epsilon finite > 0, delta in (0, 1)): the meat's shares are
// kSandwichMeatShare times each, rounded down, and the fit's the rest, rounded down, so that the
// two sum to at most the request. Throws Status::InvalidArgument out of range.
SandwichBudget sandwich_budget(double epsilon, double delta);

// The public residual bound R: 2 B_Y. A first-stage fit close to the least-squares coefficients of
// rows with |y| <= B_Y has fitted values of size about B_Y, so |y - x' beta0| exceeds 2 B_Y only
// where beta0 is far off; the clipped residuals then bias the meat down (proofs/sandwich.md,
// "Residual clipping"). Rounded up.
double sandwich_residual_bound(double bound_y);

// The norm bound of the meat's rows u_i = r_i x_i: B_X R, rounded up. Throws
// Status::InvalidArgument unless both are finite and > 0.
double sandwich_meat_row_bound(double bound_x, double residual_bound);

}  // namespace dpcov::privacy
