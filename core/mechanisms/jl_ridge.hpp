// Johnson-Lindenstrauss with a ridge regulariser (Sheffet, "Old Techniques in Differentially
// Private Linear Regression", ALT 2019, arXiv 1507.00056; constants.md sections 5.1-5.3;
// proofs/jl_ridge.md).
//
// Alg. 1 (MechanismId::JlRidge, Thm 3.1 = B.1): w from the theorem at (eps, delta, r); release
// the sketch S = R [A; w I] (r x d, R iid N(0, 1)) and S^T S / r, an estimate of A^T A + w^2 I.
// sigma_min([A; w I]) >= w for every A, so no data condition is needed.
// Alg. 2 (MechanismId::JlRidgeSigmaMin): (eps/2, delta/2) privately estimates
// s2 ~ sigma_min(A)^2 from below; the other half releases R [A; w' I] with
// w'^2 = max(0, w(eps/2, delta/2, r)^2 - max(s2, 0)). The receipt shows the split and s2.
#pragma once

#include "../data/sketch.hpp"
#include "../matrix.hpp"
#include "../random/rng.hpp"
#include "receipt.hpp"
#include "request.hpp"

namespace dpcov::mechanisms {

// The sketch S (r x d) and the released S^T S / r with its receipt.
struct SketchRelease {
  Matrix sketch;
  Release release;
};

// Every constant the release would use, or the status it would throw; no data, no randomness.
// Requires request.options.projection_rows = r >= 1; preconditions eps <= 1 and delta < 1/e for
// Alg. 1, eps/2 <= 1 for Alg. 2 (Status::Precondition).
Receipt plan_jl_ridge(const Request &request);
Receipt plan_jl_ridge_sigma_min(const Request &request);

// From the Gram matrix: the sketch is drawn as r iid rows N(0, G + w^2 I), which is the law of
// R [A; w I] (projection.hpp); the release returns S^T S / r.
// `planned` is the mechanism's plan of `request`, computed once by the caller and used as is.
Release release_jl_ridge(ConstMatrixView gram, const Request &request, const Receipt &planned,
                         random::Rng &rng);
Release release_jl_ridge_sigma_min(ConstMatrixView gram, const Request &request,
                                   const Receipt &planned, random::Rng &rng);
SketchRelease release_jl_ridge_sketch(ConstMatrixView gram, const Request &request,
                                      const Receipt &planned, random::Rng &rng);

// From an accumulated sketch of the rows themselves: S = R_A A + w R_I with the accumulator's
// weights. d, n and B come from the accumulator (which must hold at least one chunk) and r must
// equal its projection rows (Status::Incompatible, from sketch_request()). `planned` is the
// plan of sketch_request(sketch, ...), computed once by the caller. `rng` draws only the Laplace
// noise of Alg. 2.
SketchRelease release_jl_ridge_from_sketch(const SketchAccumulator &sketch, const Receipt &planned,
                                           random::Rng &rng);

// Alg. 1: ln of the density of a released S^T S / r given G (Wishart W_d(r, G + w^2 I) scaled by
// 1/r); needs r >= d (Status::Precondition otherwise).
double log_density_jl_ridge(ConstMatrixView released, ConstMatrixView gram,
                            const Request &request);
// Alg. 2: the joint density of the test value s2 and the released S^T S / r given G.
double log_density_jl_ridge_sigma_min(ConstMatrixView released, double s2, ConstMatrixView gram,
                                      const Request &request);

// The Request of an accumulated sketch (d, rows included, bound) with the given budget; throws
// Status::InvalidArgument if it holds no chunk, Status::Incompatible if options.projection_rows
// differs from its r.
Request sketch_request(const SketchAccumulator &sketch, double epsilon, double delta,
                       const Options &options);

}  // namespace dpcov::mechanisms
