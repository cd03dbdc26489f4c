// Coefficients of a regression on a released matrix in the data's units: a `release --bounds`
// matrix is the second moment of [1, x] in the data's units, but its noise was added to that of
// the scaled rows [1, z] (proofs/column_bounds.md), so the regression runs there, where the noise
// law is the mechanism's, and the coefficients are mapped back; a `release --add-constant`
// matrix's constant column held B, not 1.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "released_matrix.hpp"

namespace dpcov::cli {

// The affine map of a `release --bounds` matrix's columns: with x_j = c_j + h_j z_j, a slope b_j
// on z_j is h_y b_j / h_j on x_j (its interval and standard error scale alike, its t and p do not
// change), and the intercept is c_y + h_y a - sum_j b_j c_j. That intercept combines every
// coefficient, so its interval is not a map of the others: not given.
struct UnitMap {
  bool active = false;
  std::vector<double> centre, half;  // per matrix column; the constant column has (0, 1)
};

// The map of `m` (inactive unless its receipt records a "scaling"), with `g` set to the matrix in
// the scaled units (dpcov_column_bounds_transform). Throws CliError(kExitInputData) for a
// scaling that does not fit the matrix.
UnitMap unit_map(const LoadedMatrix &m, std::vector<double> &g);

// Maps coefficients fitted in the scaled units to the data's (terms: the intercept first, then
// `features`). `spread` holds per-term quantities that scale with the slope (standard errors,
// interval ends); `invariant` those that do not (t, p). The intercept's are set to NaN.
void to_user_units(const UnitMap &map, int64_t label, bool intercept,
                   const std::vector<int64_t> &features, std::vector<double> &coef,
                   std::initializer_list<std::vector<double> *> spread,
                   std::initializer_list<std::vector<double> *> invariant);

// A `release --add-constant` matrix's constant column held B, not 1: the coefficient fitted on it
// is the intercept divided by B. Multiplies the intercept's entries (the first of each non-empty
// vector of `spread`) by B, which puts them in the label's units (t and p do not change).
// Returns B, or 1 for any other intercept column (`intercept` < 0: none).
double intercept_in_label_units(const LoadedMatrix &m, int64_t intercept,
                                std::initializer_list<std::vector<double> *> spread);

}  // namespace dpcov::cli
