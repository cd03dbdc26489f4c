// Whether independent Markov chains agree: the rank-normalised split R-hat and the bulk effective
// sample size of Vehtari, Gelman, Simpson, Carpenter and Buerkner, "Rank-normalization, folding,
// and localization: an improved R-hat for assessing convergence of MCMC", Bayesian Analysis 2021.
// The posterior intervals print a coefficient only where these say its chains converged.
#pragma once

#include <vector>

namespace dpcov::estimators {

struct ChainConvergence {
  double rhat = 0.0;      // max of the bulk and the folded (tail) rank-normalised split R-hat
  double ess_bulk = 0.0;  // effective sample size of the rank-normalised split chains, in draws
};

// The diagnostics of one scalar from chains[m][t] (M >= 2 chains of the same length N >= 4, every
// chain split into halves). A scalar constant across all draws has R-hat 1 and ESS M N; a chain
// constant on its own but unlike the others has R-hat +infinity and ESS 0.
ChainConvergence chain_convergence(const std::vector<std::vector<double>> &chains);

// The standard normal quantile Phi^-1(q), q in (0, 1) (Acklam's rational approximation refined by
// one Halley step: relative error below 1e-15).
double normal_quantile(double q);

}  // namespace dpcov::estimators
