// Differentially private ordinary least squares with t-values and confidence intervals (Sheffet,
// "Differentially Private Ordinary Least Squares", ICML 2017, arXiv 1507.02482; constants.md
// section 6; proofs/ols_ptr.md).
//
// Alg. 1 (MechanismId::OlsJl): propose-test-release on the least singular value, then a plain
// Johnson-Lindenstrauss projection (no regulariser). With A = [X, y] (all d columns of the
// statistic), split (eps/2, delta/2) per part; w^2 = JL threshold at (eps/2, delta/2, r);
// s2 = sigma_min(A)^2 + Lap(4 B^2/eps) - (4 B^2/eps) ln(1/delta). If s2 > w^2 release R A
// (r x d) and s2; otherwise release nothing: the release throws Status::Refused ("data not well
// spread"). The released second-moment matrix is S^T S / r.
//
// Inference from the projection (Sheffet's Thm 3.1 structure, exact): with R A = [X~, y~] and
// beta~ = (X~^T X~)^{-1} X~^T y~, zeta~ = ||y~ - X~ beta~|| / sqrt(r - p),
// t~_j = (beta~_j - beta0_j) / (zeta~ sqrt([(X~^T X~)^{-1}]_jj)) is exactly T_{r-p} about the
// non-private OLS estimate beta_hat_j (R e is independent of R X because X^T e = 0). Intervals
// beta~_j +- c_alpha zeta~ sqrt([(X~^T X~)^{-1}]_jj) cover beta_hat_j with probability exactly
// 1 - alpha. Under the model y = X beta + e they cover the true beta_j with probability exactly
// q(n, p, r) = E[P(|T_{r-p}| <= c_alpha / sqrt(1 + Q))], Q = ((r-p+1)/(n-p)) F_{r-p+1, n-p},
// slightly below 1 - alpha (0.94965 at n = 1e4, r = 40, p = 9; proofs/ols_ptr.md). All of it is
// regression on S^T S with r rows: solvers::regress with rows = r.
//
// Alg. 2 (App. D): inference from an Analyze Gauss release. The paper's corrected intervals are
// unreadable in the seed; dpcov returns the plug-in OLS inference on the release with n - p
// degrees of freedom and marks it as having NO coverage guarantee. Intervals with a guarantee
// from the same release are analyze_gauss_ols_intervals (ols_analyze_gauss.hpp).
#pragma once

#include <vector>

#include "../data/sketch.hpp"
#include "../solvers/regression.hpp"
#include "../matrix.hpp"
#include "../random/rng.hpp"
#include "receipt.hpp"
#include "request.hpp"

namespace dpcov::mechanisms {

// Requires request.options.projection_rows = r >= 1; eps/2 <= 1 and delta/2 < 1/e
// (Status::Precondition).
Receipt plan_ols_jl(const Request &request);

// The projected data R A (r x d) and the release S^T S / r; throws Status::Refused, releasing
// nothing, when the private test fails.
struct ProjectedData {
  Matrix sketch;
  Release release;
};
ProjectedData release_ols_jl_projection(ConstMatrixView gram, const Request &request,
                                        const Receipt &planned, random::Rng &rng);
Release release_ols_jl(ConstMatrixView gram, const Request &request, const Receipt &planned,
                       random::Rng &rng);
// The same from an accumulated sketch (S = R_A A, the accumulator's weights); `rng` draws only the
// test's Laplace noise. `planned` is plan_ols_jl(sketch_request(sketch, ...)).
ProjectedData release_ols_jl_from_sketch(const SketchAccumulator &sketch, const Receipt &planned,
                                         random::Rng &rng);

// The joint density of the test value s2 and the released S^T S / r given G, for s2 > w^2 (the
// only case with a released matrix; -infinity otherwise). Needs r >= d.
double log_density_ols_jl(ConstMatrixView released, double s2, ConstMatrixView gram,
                          const Request &request);

// ln of the probability that a release refuses (s2 <= w^2: the atom of the output law where
// nothing is released) given G; the refusal's likelihood for an auditor, next to the density of
// the released outcomes above.
double log_refusal_probability_ols_jl(ConstMatrixView gram, const Request &request);

struct OlsInference {
  solvers::RegressionResult fit;  // dof = r - p (Alg. 1) or n - p (Alg. 2)
  std::vector<bool> reject;          // H0: beta_j = 0 rejected at level 1 - spec.level
  bool coverage_guarantee = false;   // true for Alg. 1, false for the Analyze Gauss plug-in
  ProjectedData data;                // Alg. 1: R A and S^T S / r; Alg. 2: the release only
};

// Alg. 1 end to end. spec.rows is ignored (the projection has r rows). Throws
// Status::Precondition unless r > p, before anything is drawn.
OlsInference ols_jl_inference(ConstMatrixView gram, const Request &request,
                              solvers::RegressionSpec spec, random::Rng &rng);
// The same with the plan of `request` already computed (the C ABI plans once for its checks).
OlsInference ols_jl_inference(ConstMatrixView gram, const Request &request, const Receipt &planned,
                              solvers::RegressionSpec spec, random::Rng &rng);
OlsInference ols_jl_inference_from_sketch(const SketchAccumulator &sketch, double epsilon,
                                          double delta, const Options &options,
                                          solvers::RegressionSpec spec, random::Rng &rng);

// Alg. 2: Analyze Gauss (request as for MechanismId::AnalyzeGauss), then plug-in inference with
// spec.rows = request.n. coverage_guarantee is false.
OlsInference ols_analyze_gauss_inference(ConstMatrixView gram, const Request &request,
                                         solvers::RegressionSpec spec, random::Rng &rng);
OlsInference ols_analyze_gauss_inference(ConstMatrixView gram, const Request &request,
                                         const Receipt &planned, solvers::RegressionSpec spec,
                                         random::Rng &rng);

}  // namespace dpcov::mechanisms
