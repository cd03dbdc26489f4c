// Models a library that takes a Gaussian-DP parameter mu (a mu-GDP release is a Gaussian
// mechanism with sensitivity / sigma = mu) and uses it directly as the noise multiplier
// sigma / sensitivity, then composes k such releases as sqrt(k) mu-GDP. For mu < 1 every release
// is (1 / mu)-GDP instead, and the composition sqrt(k) / mu-GDP.
//
// Broken: sigma = mu * sensitivity. Corrected: sigma = sensitivity / mu. Both release k = 10
// noisy copies of X^T X (Analyze Gauss, replace-one, B = 1), mu = 0.5 each, and claim the
// (epsilon, 1e-6) of sqrt(k) mu-GDP. The audited output is the mean of the k copies: a sufficient
// statistic of the k releases for the pair, so its privacy loss is that of the whole transcript.
// The pair: axis_pair(10, 2, 1).
#pragma once

#include "zoo_case.hpp"

namespace dpcov::audit::zoo {

ZooCase gdp_mu_as_multiplier(Variant variant);

}  // namespace dpcov::audit::zoo
