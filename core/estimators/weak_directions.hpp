// The coefficients that no bootstrap world can bound: those along directions that the release
// may have made (proofs/bootstrap_worlds.md, "Directions the release may have made").
//
// The worlds simulate around their truth, the released X'X~ = X'X + E de-noised to second order
// (worlds_truth.hpp). Along a direction u of it only a few noise standard deviations (of u'Eu)
// strong, the data's X'X may be a fraction of a noise sd strong, and the bootstrap answers (its
// worlds stay positive definite) precisely on the releases whose noise strengthened u: there the
// estimate is shrunk along u by an unknown factor and the worlds, built on the release, cannot
// see it (a column using 5% of its public range: 29 of 57 printed intervals of its slope
// covered). The release alone cannot tell such a direction from one the data made, so where a
// coefficient lies along one the bootstrap gives no interval (finite or failed: it refuses, and
// dpcov_adassp_intervals answers with the posterior, which integrates over X'X). The
// worlds' truth rather than the release: in many dimensions the noise pushes the release's
// smallest eigenvalues down (binary regressors at d = 10, whose data's X'X is 4-5 sds strong in
// every direction, have releases 2-3 sds strong), which the de-noising undoes.
#pragma once

#include <vector>

#include "../matrix.hpp"
#include "release_noise.hpp"

namespace dpcov::estimators {

// A direction u of the worlds' truth is weak when its eigenvalue is below this many standard
// deviations of u'Eu, and a coefficient is unbounded when weak directions carry at least
// kWeakLoading of its squared loading (sum over them of u_j^2). Chosen from measured coverage,
// not derived: bench/weak_directions.py --truth prints the fits either side.
inline constexpr double kWeakDirectionNoiseSds = 3.0;
inline constexpr double kWeakLoading = 0.1;

// The standard deviation of u'Eu for a vector u (a unit one in the weak rule) under the noise
// law restricted to u.size() columns: sqrt(u' Q(u u') u), Q as noise_second_moment.
double direction_noise_sd(const ReleaseNoise &noise, const std::vector<double> &u);

// Per coefficient, its squared loadings u_j^2 summed over the eigenvectors u of `directions`
// (symmetric) that are weak: whose strength, u' S u for S = *strength or u's eigenvalue where
// `strength` is null, is below `noise_sds` standard deviations of u'Eu. A NaN strength or noise
// sd counts as weak.
std::vector<double> weak_loadings(const Matrix &directions, const Matrix *strength,
                                  const ReleaseNoise &noise, double noise_sds);

// Per coefficient of g (the worlds' truth, symmetric), true where it is unbounded by the rule
// above.
std::vector<bool> unbounded_coefficients(const Matrix &g, const ReleaseNoise &noise);

// What a bootstrap does with unbounded coefficients: refuse the whole fit (the interval functions
// of the C ABI without a per-coefficient outcome), or give every other coefficient its interval
// and flag these (BootstrapIntervals::unbounded; dpcov_ols_intervals).
enum class WeakCoefficients { Refuse, Flag };

// Throws Status::Precondition, naming the coefficients, when any entry of `unbounded` is true.
void refuse_unbounded(const std::vector<bool> &unbounded);

}  // namespace dpcov::estimators
