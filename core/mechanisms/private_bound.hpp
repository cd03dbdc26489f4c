// A private norm bound: B chosen from the data by the exponential mechanism (McSherry and Talwar,
// FOCS 2007, Theorem 6) over a public geometric grid of candidates, with the utility of a
// candidate b the closeness of the number of rows it would clip to a public target number m:
//   u(b) = -| #{rows with norm > b} - m |.
// Adding, removing or replacing one row changes every count by at most 1, so u has sensitivity 1
// under both neighbour relations and needs no n. Selecting b with probability proportional to
// exp(eps u(b) / 2) is pure eps-DP. The input is the histogram of row norms over the grid's
// cells (one streaming pass). proofs/private_bound.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "../random/rng.hpp"

namespace dpcov::mechanisms {

// Most candidates a grid may hold (a public cap, keeps the selection O(1) in the data).
inline constexpr size_t kPrivateBoundMaxCandidates = 4096;

// The public grid of an automatic bound, on every surface (`--bound auto`, `bound="auto"`, the
// Dask releases): 1e-6 to 1e9 at ratio 1.25, 156 candidates, wide enough for data in any common
// unit; and the quantile of the rows' norms it aims at by default.
inline constexpr double kAutoBoundLow = 1e-6;
inline constexpr double kAutoBoundHigh = 1e9;
inline constexpr double kAutoBoundRatio = 1.25;
inline constexpr double kAutoBoundQuantile = 0.95;
// The quantile an automatic bound for PCA aims at: far in the tail, so that the rows it clips
// barely move the covariance and the subspace error bound holds against the data's own subspace,
// not only against the clipped rows' (docs/estimators.md, "PCA").
inline constexpr double kPcaAutoBoundQuantile = 0.999;

// The target number of rows above the bound that aims at the `quantile` of n row norms:
// floor((1 - quantile) n), the floor of the exact product of the doubles 1 - quantile and n (so
// exactly floor((1 - quantile) n) for quantile >= 1/2 and n <= 2^53). Throws
// Status::InvalidArgument unless 0 < quantile <= 1 and n >= 0.
int64_t private_bound_quantile_target(double quantile, int64_t n);

// Tightening a public bound (proofs/private_bound.md, "Tightening a public bound"): the
// candidates bound / 1.25^k, k = 12, ..., 1, then the bound itself, on every surface (`regress
// --bound-epsilon`, `PrivateLinearRegression(bound_epsilon=)`). The top candidate is the bound, so
// the choice never loosens it.
inline constexpr int kTightenSteps = 12;
inline constexpr double kTightenRatio = 1.25;

// The kTightenSteps + 1 candidates below `bound`, increasing, the last `bound` itself, each a
// valid row bound (data::check_row_bound: Status::NonFinite or Status::InvalidArgument
// otherwise, e.g. a bound below about 1.5e-288, whose smallest candidate is below 2^-960).
std::vector<double> private_bound_below_grid(double bound);

// The tightened bound's index in private_bound_below_grid(): the exponential mechanism
// (private_bound_select) on `histogram`, the kTightenSteps + 2 cells of the rows' norms over that
// grid, with the rows above the public bound counted on it (the fit clips them to it, so none is
// above the top candidate), aiming at private_bound_quantile_target(quantile, n). `n` is the
// public number of rows (replace-one); the histogram must count exactly n. eps-DP. Throws
// Status::InvalidArgument (the histogram's size or sum, the quantile, eps).
size_t private_bound_tighten(std::vector<uint64_t> histogram, int64_t n, double quantile,
                             double eps, random::Rng &rng);

// The public candidates b_k = lo * ratio^k for k = 0, 1, ... up to the first one >= hi (so the
// last is >= hi and every other is < hi). Throws Status::InvalidArgument unless 0 < lo < hi,
// ratio > 1, all finite, and at most kPrivateBoundMaxCandidates candidates result.
std::vector<double> private_bound_grid(double lo, double hi, double ratio);

// The histogram cell of a row norm: the smallest k with norm <= grid[k], or grid.size() (the
// overflow cell) when norm exceeds every candidate. A histogram has grid.size() + 1 cells.
size_t private_bound_cell(double norm, const std::vector<double> &grid);

// The exponent factor of the exponential mechanism: eps / (2 sensitivity) with sensitivity 1,
// i.e. eps / 2 (McSherry-Talwar 2007, Theorem 6; exact in binary floating point). Throws
// Status::InvalidArgument unless eps is finite and > 0.
double private_bound_exponent_factor(double eps);

// Throws Status::InvalidArgument unless the histogram has 2 to kPrivateBoundMaxCandidates + 1
// cells and counts at most 2^53 rows in all (so that every sum of counts is exact in a double).
void private_bound_check_histogram(const std::vector<uint64_t> &histogram);

// The utilities u_k = -|#{rows with norm > grid[k]} - target_clipped|, k = 0..K-1, from a
// histogram of K + 1 cells (the last the overflow cell). Validates the histogram.
std::vector<double> private_bound_utilities(const std::vector<uint64_t> &histogram,
                                            uint64_t target_clipped);

// Natural logs of the selection probabilities of the K candidates at exponent factor `factor`
// (private_bound_exponent_factor(eps) for the mechanism; tests pass others as mutations).
std::vector<double> private_bound_log_probabilities(const std::vector<uint64_t> &histogram,
                                                    uint64_t target_clipped, double factor);

// Draws a candidate index with the probabilities above, by inversion of one uniform: the work is
// K steps whatever the data. Throws Status::InvalidArgument on a bad histogram or factor.
size_t private_bound_select_with_factor(const std::vector<uint64_t> &histogram,
                                        uint64_t target_clipped, double factor, random::Rng &rng);

// The mechanism: eps-DP index of the chosen candidate.
size_t private_bound_select(const std::vector<uint64_t> &histogram, uint64_t target_clipped,
                            double eps, random::Rng &rng);

}  // namespace dpcov::mechanisms
