// The claimed laws of the Gram mechanisms whose release is not a matrix plus noise of a registry
// noise law (NoiseFamily::ClaimedLaw): probability integral transforms of one release given the
// statistic, iid Uniform(0, 1) over draws exactly when the implementation samples the claimed
// law. Each draw's Wishart or inverse-Wishart part is transformed by its Bartlett factors given
// the released test value, and the test value by its Laplace law; given s2 the matrix part is
// independent of it, so all the values of a draw are independent. A refused release has no
// transforms: the caller skips it.
#pragma once

#include <vector>

#include "../matrix.hpp"
#include "../mechanisms/receipt.hpp"
#include "target.hpp"

namespace dpcov::audit {

// Each appends to `uniforms` the transforms of a release `out` of the mechanism it names, planned
// as `receipt` at the n of the statistic `gram`.
void jl_ridge_law(const mechanisms::Receipt &receipt, const Output &out, ConstMatrixView gram,
                  std::vector<double> &uniforms);
void jl_ridge_sigma_min_law(const mechanisms::Receipt &receipt, const Output &out,
                            ConstMatrixView gram, std::vector<double> &uniforms);
void inverse_wishart_law(const mechanisms::Receipt &receipt, const Output &out,
                         ConstMatrixView gram, std::vector<double> &uniforms);
void inverse_wishart_sigma_min_law(const mechanisms::Receipt &receipt, const Output &out,
                                   ConstMatrixView gram, std::vector<double> &uniforms);
// s2 given a release (ols_jl releases only when s2 > w^2; its refusals release nothing).
void ols_jl_law(const mechanisms::Receipt &receipt, const Output &out, ConstMatrixView gram,
                std::vector<double> &uniforms);

}  // namespace dpcov::audit
