// Sensitivity of the inverse Gram matrix G^{-1} under a public lower bound lambda_min(G) >= theta^2:
// Sheffet, "Old Techniques in Differentially Private Linear Regression" (ALT 2019), Thm B.5
// (constants.md section 5.6, RECONSTRUCTED; proofs/inverse_gauss.md).
//
// With M^{-1} - M'^{-1} = M^{-1} (M' - M) M'^{-1}, the Frobenius norm of the change (an upper bound
// on the L2 norm of the change of the upper triangle) is at most
// ||M' - M||_F / (lambda_min(M) lambda_min(M')), and ||M' - M||_F <= B^2 (add/remove),
// sqrt(2) B^2 (replace-one).
#pragma once

#include <cstdint>

#include "neighbour.hpp"

namespace dpcov::privacy {

enum class LambdaMinScope : int32_t {
  // Every dataset in the domain has lambda_min(G) >= theta^2: Delta = c B^2 / theta^4.
  Domain = 0,
  // Only the input is known to: a neighbour has lambda_min >= theta^2 - B^2 (Weyl), so
  // Delta = c B^2 / (theta^2 (theta^2 - B^2)), which needs theta^2 > B^2 (Sheffet's statement).
  Input = 1,
};

// The L2 sensitivity above (c = 1 add/remove, sqrt 2 replace-one), rounded up.
// lambda_min_bound is theta^2. Throws Status::InvalidArgument / Status::NonFinite unless B and
// theta^2 are finite and > 0, and Status::Precondition for LambdaMinScope::Input unless
// theta^2 > B^2.
double inverse_gram_l2_sensitivity(Neighbour neighbour, double bound, double lambda_min_bound,
                                   LambdaMinScope scope);

// The smallest lambda_min(G) the sensitivity above covers, the release's floor: theta^2 in the
// domain scope; theta^2 - B^2, rounded down, in the input scope, where the covered pairs are an
// input with lambda_min >= theta^2 and each of its neighbours, down to theta^2 - B^2 (Weyl). A
// release refuses only below it, so no dataset of a covered pair is ever refused.
double inverse_gram_release_floor(double bound, double lambda_min_bound, LambdaMinScope scope);

}  // namespace dpcov::privacy
