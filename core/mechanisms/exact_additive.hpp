// Floating-point-safe Analyze Gauss and symmetric Laplace ("exact" numerics;
// proofs/exact_additive.md). The rows are rounded to a grid, the Gram matrix of the rounded rows is
// computed exactly in integers, and integer noise from the exact discrete Gaussian or discrete
// Laplace sampler (core/random/discrete.hpp, drawing from the generator's words only) is added
// to its upper triangle: the released integers are private as computed, not only as idealized.
// The released matrix is grid^2 times those integers, a post-processing.
#pragma once

#include <cstdint>
#include <vector>

#include "../data/exact_gram.hpp"
#include "../data/gram.hpp"
#include "../matrix.hpp"
#include "mechanism.hpp"
#include "request.hpp"

namespace dpcov::mechanisms {

// The grid of a request: coordinates are rounded to multiples of B 2^-bits, i.e. z = round(x
// 2^bits / B) as integers; every rounded row has ||z||^2 <= norm2_bound = (2^bits + ceil(sqrt(d)
// / 2) + 1)^2, enforced exactly; the Gram matrix of z is computed exactly in blocks of rows (each
// exact in double) summed in 128-bit integers. The grid depends on d, eps, delta and the
// neighbour relation only, never on n (private under add/remove).
struct ExactGrid {
  int bits = 0;
  int64_t norm2_bound = 0;
  double grid_squared = 0.0;  // (B 2^-bits)^2: a released integer times this is in data units
  // The integer noise: the discrete Gaussian's variance, or the discrete Laplace's scale t.
  uint64_t noise_parameter = 0;
};

using data::ExactInt;

// The plan of `mechanism` (AnalyzeGauss or LaplaceSym) with exact numerics: receipt.numerics =
// Exact, sigma / scale / sensitivity in data units (grid^2 times the integer constants), and the
// grid. Throws Status::Precondition when no grid keeps every integer in range.
Receipt plan_exact_additive(MechanismId mechanism, const Request &request, ExactGrid *grid = nullptr);

// The plan of `mechanism` at request.bound on `grid`, a grid plan_exact_additive() chose for the
// same d, epsilon, delta and neighbour relation at any bound: the search's result (bits, r2, the
// noise parameter) does not depend on B, which only scales the unit, so the plan at another B
// needs no second search. Sets grid.grid_squared for request.bound. Throws Status::Numerical when
// the squared unit underflows.
Receipt plan_exact_at_bound(MechanismId mechanism, const Request &request, ExactGrid &grid);

// The unit B 2^-bits of the grid that a release with exact numerics rounded its rows to, found
// again from the receipt's public values (mechanism, d, B, epsilon, delta, neighbour relation:
// the grid depends on nothing else). Throws as plan_exact_additive().
double exact_grid_unit(const Receipt &receipt);

// The accumulator's grid at `grid`, the plan of a request of dimension d and bound B.
data::ExactGridSpec grid_spec(const Request &request, const ExactGrid &grid);

// Releases the exact integer Gram that `acc` holds with exact numerics: the plan of `mechanism`
// at `request`, whose n must be acc.counts().rows and whose grid must be the accumulator's
// (Status::Incompatible otherwise). Every check runs before the first draw, so a refused call
// leaves `rng` as it was.
Release release_exact_gram(MechanismId mechanism, const data::ExactGramAccumulator &acc,
                           const Request &request, random::Rng &rng);
// The same from the plan already computed: `planned` and `grid` are plan_exact_additive()'s
// receipt and grid for (mechanism, request), so the grid search runs once per release.
Release release_exact_gram(MechanismId mechanism, const data::ExactGramAccumulator &acc,
                           const Request &request, const Receipt &planned, const ExactGrid &grid,
                           random::Rng &rng);

// Releases G = A^T A of the n x d rows `rows` (any layout) with exact numerics: the rows through
// an accumulator of the plan's grid, then release_exact_gram(). Rows of norm above B are clipped
// to B (BoundPolicy::Clip) or refused with Status::NormBound (Reject) exactly as
// dpcov_gram_add_rows does; Drop is Status::InvalidArgument.
Release release_exact_additive(MechanismId mechanism, ConstMatrixView rows, const Request &request,
                               random::Rng &rng, BoundPolicy policy = BoundPolicy::Clip);
Release release_exact_additive(MechanismId mechanism, ConstMatrixView rows, const Request &request,
                               const Receipt &planned, const ExactGrid &grid, random::Rng &rng,
                               BoundPolicy policy);

// The exact integer Gram z z^T summed over `rows` (n x d, any n) rounded to `grid` as the release
// does, upper triangle packed column by column (entry (i, j), i <= j, at j (j + 1) / 2 + i). The
// exact-PMF audit (core/audit/exact_pmf.hpp) evaluates the release's law around it.
std::vector<ExactInt> rounded_gram(ConstMatrixView rows, const Request &request,
                                   const ExactGrid &grid, BoundPolicy policy = BoundPolicy::Clip);

// `count` independent entries of the integer noise at `grid`: discrete Gaussian of variance
// noise_parameter (AnalyzeGauss) or discrete Laplace of scale noise_parameter (LaplaceSym), drawn
// in one batch (the law's constants computed once, the generator's bits read without waste).
std::vector<int64_t> exact_noise_fill(MechanismId mechanism, const ExactGrid &grid, size_t count,
                                      random::Rng &rng);

}  // namespace dpcov::mechanisms
