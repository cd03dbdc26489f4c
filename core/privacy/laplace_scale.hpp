// The Laplace mechanism: Dwork, McSherry, Nissim, Smith (TCC 2006), Prop. 1 (constants.md section
// 3; proofs/laplace_sym.md).
#pragma once

namespace dpcov::privacy {

// b = l1_sensitivity / eps, rounded up: adding iid Lap(b) to each coordinate of a query of L1
// sensitivity l1_sensitivity is eps-DP. Throws Status::InvalidArgument / Status::NonFinite
// unless both are finite and > 0.
double laplace_scale(double l1_sensitivity, double eps);

}  // namespace dpcov::privacy
