// Least squares and ridge regression from a second-moment matrix, with the classical inference
// (standard errors, t-values, p-values, confidence intervals). Post-processing: it only reads a
// released (or exact) Gram matrix G = A^T A and the public row count n.
#pragma once

#include <cstdint>
#include <vector>

#include "../matrix.hpp"

namespace dpcov::solvers {

struct RegressionSpec {
  int64_t label = -1;             // column of G holding the response y
  std::vector<int64_t> features;  // columns of G used as regressors, in output order
  // A column of G holding a constant for every row (1 for a plain intercept), or -1 for none. It
  // becomes coefficient 0 and is never penalised by the ridge.
  int64_t intercept_column = -1;
  double ridge = 0.0;   // lambda >= 0, added to the diagonal of the penalised features' block
  int64_t rows = 0;     // public number of rows n behind G; n - p is the residual dof
  double level = 0.95;  // confidence level of the intervals, in (0, 1)
};

struct RegressionResult {
  // One entry per coefficient: the intercept first (when present), then the features in order.
  std::vector<double> coefficients, std_errors, t_values, p_values, ci_lower, ci_upper;
  double rss = 0.0;                // residual sum of squares, clamped at 0
  double residual_variance = 0.0;  // rss / dof
  int64_t dof = 0;                 // n - p
  bool rss_clamped = false;        // the computed rss was negative (indefinite release)
  double t_critical = 0.0;         // Student t quantile used for the intervals
};

// Checks every field of `spec` against a d x d matrix; throws dpcov::Error naming the field.
void validate(const RegressionSpec &spec, int64_t d);

// Fits y on the chosen columns from the symmetric matrix g (d x d, finite; validated here):
//   b = (X'X + lambda D)^{-1} X'y,  D = identity except 0 for the intercept,
//   rss = y'y - 2 b'X'y + b'X'X b (clamped at 0, flagged),  s^2 = rss / (n - p),
//   Cov(b) = s^2 (X'X + lambda D)^{-1},  t_i = b_i / se_i,  Student t(n - p) p-values and
//   intervals.
// For lambda > 0, Cov(b) is the posterior covariance of b under the prior N(0, s^2 / lambda) that
// makes ridge the posterior mode; it is positive definite whenever the fit succeeds, so no standard
// error is ever NaN. Throws Status::NotPositiveDefinite when X'X + lambda D is not.
RegressionResult regress(ConstMatrixView g, const RegressionSpec &spec);

}  // namespace dpcov::solvers
