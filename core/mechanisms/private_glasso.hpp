// The sparse inverse covariance estimates of Wang, Huai, Xu (GlobalSIP 2018): a Gram-input
// mechanism followed by the graphical lasso.
//
// Covariance perturbation (Alg. 2): release Y = G + N with one of the covariance mechanisms
// (symmetric Laplace, Analyze Gauss, additive Wishart, or Jiang's Wishart as an audit target),
// form S~ = Y / n with the public n, project S~ onto the positive semidefinite cone, and solve the
// graphical lasso on it. Everything after the release is post-processing: the guarantee is the
// release's. Output perturbation (Alg. 1) is a mechanism of its own (glasso_output.hpp) whose
// release already is the precision estimate.
#pragma once

#include "../solvers/glasso.hpp"
#include "../matrix.hpp"
#include "../random/rng.hpp"
#include "receipt.hpp"
#include "registry.hpp"
#include "request.hpp"

namespace dpcov::mechanisms {

// Whether `mechanism` releases a perturbed covariance (Alg. 2), perturbs the precision matrix
// itself (Alg. 1), or does neither (not part of the pipeline): its registry entry's `glasso`.
GlassoPerturbation glasso_perturbation(MechanismId mechanism);

struct PrivateGlasso {
  Matrix precision;  // the private precision estimate (exactly symmetric)
  Receipt receipt;   // the mechanism's receipt: the guarantee of the whole pipeline
  // Convergence of the solve on the released covariance (covariance perturbation only: for output
  // perturbation the solve runs on the exact data, and its convergence data are not released).
  solvers::GlassoResult solve;
  bool has_solve = false;
};

// The release of covariance perturbation (Alg. 2) before its solve: S~, the positive semidefinite
// projection of Y / n, and the mechanism's receipt. The graphical lasso on S~ is post-processing:
// a caller who keeps S~ may solve it again (other settings, a failed solve) at no privacy cost.
struct PrivateGlassoCovariance {
  Matrix covariance;  // S~ (exactly symmetric, positive semidefinite)
  Receipt receipt;    // the mechanism's receipt (glasso_rho 0: no penalty is part of the release)
};

// The request with rho placed where the mechanism reads it: Options::glasso_rho for output
// perturbation; the covariance mechanisms take no rho. Throws Status::InvalidArgument for a
// mechanism outside the pipeline or a rho that is not finite and > 0.
Request private_glasso_request(MechanismId mechanism, Request request, double rho);

// Every constant of the release (the mechanism's plan), or the status it would throw. Covariance
// perturbation also needs n >= 1 (S~ = Y / n).
Receipt plan_private_glasso(MechanismId mechanism, const Request &request, double rho);

// S~ from `planned`, plan_private_glasso(mechanism, request, rho) at any rho, for a covariance
// mechanism (Status::InvalidArgument for output perturbation, whose release is the precision).
PrivateGlassoCovariance private_glasso_covariance(MechanismId mechanism, ConstMatrixView gram,
                                                  const Request &request, const Receipt &planned,
                                                  random::Rng &rng);

// The pipeline. `glasso` configures the solve on S~ (its rho is replaced by `rho`); output
// perturbation ignores it and solves the paper's objective itself (glasso_output.hpp). Throws the
// mechanism's statuses, and the solver's (Status::NoConvergence) for the solve on S~.
PrivateGlasso private_glasso(MechanismId mechanism, ConstMatrixView gram, const Request &request,
                             double rho, const solvers::GlassoOptions &glasso,
                             random::Rng &rng);
// The same from `planned`, plan_private_glasso(mechanism, request, rho) already computed by the
// caller: the release draws from it, so each constant is computed once.
PrivateGlasso private_glasso(MechanismId mechanism, ConstMatrixView gram, const Request &request,
                             double rho, const Receipt &planned,
                             const solvers::GlassoOptions &glasso, random::Rng &rng);

}  // namespace dpcov::mechanisms
