// Models a library that calibrates Gaussian noise by the classical bound
// sigma = sqrt(2 ln(1.25 / delta)) sensitivity / epsilon (Dwork & Roth 2014, Thm A.1) at any
// epsilon, where the theorem holds for epsilon < 1 only. At delta = 1e-6 the exact delta of that
// sigma (Balle & Wang 2018, Thm 8) first exceeds the claim near epsilon = 9.4, and grows fast:
// 2.1e-5 at epsilon = 15, 1.6e-4 at epsilon = 20.
//
// Broken: the classical sigma. Corrected: the analytic Gaussian sigma (dpcov's default). Both
// are Analyze Gauss on X^T X (replace-one, B = 1), claiming (epsilon, 1e-6); the pair:
// axis_pair(10, 2, 1), which attains the sensitivity.
#pragma once

#include "zoo_case.hpp"

namespace dpcov::audit::zoo {

ZooCase classical_gaussian_large_epsilon(Variant variant, double epsilon);

}  // namespace dpcov::audit::zoo
