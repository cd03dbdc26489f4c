// The classical Gaussian mechanism: Dwork & Roth, "The Algorithmic Foundations of Differential
// Privacy" (2014), Thm A.1 (constants.md section 2; proofs/analyze_gauss.md).
#pragma once

namespace dpcov::privacy {

// sigma = sensitivity * sqrt(2 ln(1.25 / delta)) / eps, rounded up. The theorem holds only for
// eps < 1: eps >= 1 throws Status::Precondition (use analytic_gaussian_sigma, valid for every eps).
// Throws Status::InvalidArgument / Status::NonFinite for eps <= 0, delta outside (0, 1) or a
// sensitivity that is not finite and > 0.
double classical_gaussian_sigma(double eps, double delta, double sensitivity);

}  // namespace dpcov::privacy
