// AdaSSP's sensitivities at the level of privacy units (proofs/adassp_units.md): a unit keeps at
// most k rows, each with ||x|| <= B_X and |y| <= B_Y. Its contributions to X'X, X'y and y'y are
// sums of k row contributions, and the row-level proof's bounds carry over with every B^2 (or
// B_X B_Y) multiplied by k: AdaSSP's single Gaussian mechanism calibrated to these is
// (eps, delta)-DP between datasets that differ in one unit (added or removed, or all its rows
// replaced), with noise linear in k. This is never looser than group privacy at the row budget
// (proofs/adassp_units.md, "Against group privacy"). Recomputed with mpmath by
// proofs/check/adassp_units.py.
#pragma once

#include <cstdint>

#include "neighbour.hpp"

namespace dpcov::privacy {

// The four sensitivities of AdaSSP's joint release (y'y's is read only when it is released).
struct AdasspSensitivities {
  double lambda_min = 0.0;    // of lambda_min(X'X)
  double gram = 0.0;          // Frobenius, of X'X
  double cross = 0.0;         // L2, of X'y
  double label_square = 0.0;  // of y'y
};

// The sensitivities between datasets that differ in one unit of at most `max_rows_per_unit` = k
// rows (k in [1, kMaxRowsPerUnit]; 0 gives the row-level ones of adassp_constants.hpp), each the
// row-level value times k, rounded up:
// - lambda_min: k B_X^2 under both relations (Weyl: a unit's PSD contribution A has
//   ||A|| <= tr A <= k B_X^2; removing A moves lambda_min down by at most that, adding one up);
// - X'X, Frobenius: k B_X^2 (add/remove, ||A||_F <= tr A) or sqrt(2) k B_X^2 (replace:
//   ||A - C||_F^2 = ||A||_F^2 + ||C||_F^2 - 2 <A, C> with <A, C> >= 0 for PSD A, C);
// - X'y, L2: k B_X B_Y (add/remove) or 2 k B_X B_Y (replace; triangle inequality);
// - y'y: k B_Y^2 under both relations (both sums in [0, k B_Y^2]).
// Throws Status::InvalidArgument for k outside {0} and [1, kMaxRowsPerUnit], and on the bounds as
// the row-level functions do.
AdasspSensitivities adassp_unit_sensitivities(Neighbour neighbour, double bound_x, double bound_y,
                                              int64_t max_rows_per_unit);

}  // namespace dpcov::privacy
