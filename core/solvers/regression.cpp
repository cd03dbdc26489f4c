#include "regression.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "../check.hpp"
#include "../linalg/blas.hpp"
#include "../math/student_t.hpp"

namespace dpcov::solvers {

namespace {

void check_column(int64_t index, int64_t d, const char *name) {
  if (index < 0 || index >= d)
    fail(Status::InvalidArgument, name, " must be a column index in [0, ", d, "), got ", index);
}

}  // namespace

void validate(const RegressionSpec &spec, int64_t d) {
  check_column(spec.label, d, "label");
  if (spec.intercept_column != -1) {
    check_column(spec.intercept_column, d, "intercept_column (or -1 for no intercept)");
    if (spec.intercept_column == spec.label)
      fail(Status::InvalidArgument, "intercept_column ", spec.intercept_column,
           " is the label column");
  }
  std::vector<bool> used(static_cast<size_t>(d), false);
  for (size_t i = 0; i < spec.features.size(); ++i) {
    const int64_t c = spec.features[i];
    check_column(c, d, concat("features[", i, "]").c_str());
    if (c == spec.label)
      fail(Status::InvalidArgument, "features[", i, "] = ", c, " is the label column");
    if (c == spec.intercept_column)
      fail(Status::InvalidArgument, "features[", i, "] = ", c,
           " is the intercept column; it is added by intercept_column alone");
    if (used[static_cast<size_t>(c)])
      fail(Status::InvalidArgument, "features[", i, "] = ", c, " appears twice");
    used[static_cast<size_t>(c)] = true;
  }
  const int64_t p = static_cast<int64_t>(spec.features.size()) + (spec.intercept_column >= 0);
  if (p == 0)
    fail(Status::InvalidArgument, "regression needs at least one feature or an intercept");
  if (!std::isfinite(spec.ridge))
    fail(Status::NonFinite, "ridge must be finite and >= 0, got ", spec.ridge);
  if (spec.ridge < 0.0) fail(Status::InvalidArgument, "ridge must be >= 0, got ", spec.ridge);
  if (spec.rows <= p)
    fail(Status::InvalidArgument,
         "the number of rows n must exceed the number of coefficients p = ", p,
         " (residual degrees of freedom n - p >= 1), got n = ", spec.rows);
  if (std::isnan(spec.level)) fail(Status::NonFinite, "level must be in (0, 1), got ", spec.level);
  if (!(spec.level > 0.0 && spec.level < 1.0))
    fail(Status::InvalidArgument, "level must be in (0, 1), got ", spec.level);
}

RegressionResult regress(ConstMatrixView g, const RegressionSpec &spec) {
  check::symmetric(g, "second-moment matrix");
  check::all_finite(g, "second-moment matrix");
  validate(spec, g.rows);

  std::vector<int64_t> cols;
  if (spec.intercept_column >= 0) cols.push_back(spec.intercept_column);
  cols.insert(cols.end(), spec.features.begin(), spec.features.end());
  const int64_t p = static_cast<int64_t>(cols.size());
  const auto at = [](int64_t i) { return static_cast<size_t>(i); };

  Matrix xtx(p, p);
  std::vector<double> xty(at(p));
  for (int64_t j = 0; j < p; ++j) {
    for (int64_t i = 0; i < p; ++i) xtx(i, j) = g(cols[at(i)], cols[at(j)]);
    xty[at(j)] = g(cols[at(j)], spec.label);
  }
  Matrix penalised = xtx;
  for (int64_t i = 0; i < p; ++i)
    if (cols[at(i)] != spec.intercept_column) penalised(i, i) += spec.ridge;

  Matrix l;
  if (!linalg::cholesky(penalised, l)) {
    const double smallest = linalg::eigvalsh(penalised).front();
    fail(Status::NotPositiveDefinite, "the feature block of the second-moment matrix",
         spec.ridge > 0 ? " plus ridge * I" : "", " is not positive definite (smallest eigenvalue ",
         smallest, "); a noisy release can be indefinite: pass a ridge penalty larger than ",
         std::max(0.0, -smallest),
         ", or project the matrix onto the positive semidefinite cone "
         "first, or drop collinear features");
  }

  // b solves L L^T b = X'y; the columns of L^{-1} give the diagonal of (X'X + lambda D)^{-1}.
  Matrix b(p, 1);
  for (int64_t i = 0; i < p; ++i) b(i, 0) = xty[at(i)];
  linalg::trsm_lower(linalg::Side::Left, linalg::Trans::No, 1.0, l, b);
  linalg::trsm_lower(linalg::Side::Left, linalg::Trans::Yes, 1.0, l, b);
  Matrix l_inv = Matrix::identity(p);
  linalg::trsm_lower(linalg::Side::Left, linalg::Trans::No, 1.0, l, l_inv);

  double bxty = 0.0;
  double bxtxb = 0.0;
  for (int64_t i = 0; i < p; ++i) {
    bxty += b(i, 0) * xty[at(i)];
    for (int64_t j = 0; j < p; ++j) bxtxb += b(i, 0) * xtx(i, j) * b(j, 0);
  }
  RegressionResult r;
  const double rss = g(spec.label, spec.label) - 2.0 * bxty + bxtxb;
  r.rss_clamped = rss < 0.0;
  r.rss = std::max(rss, 0.0);
  r.dof = spec.rows - p;
  r.residual_variance = r.rss / static_cast<double>(r.dof);
  const double dof = static_cast<double>(r.dof);
  r.t_critical = math::student_t_upper_quantile(0.5 * (1.0 - spec.level), dof);

  const double inf = std::numeric_limits<double>::infinity();
  for (int64_t i = 0; i < p; ++i) {
    double inverse_diagonal = 0.0;
    for (int64_t k = i; k < p; ++k) inverse_diagonal += l_inv(k, i) * l_inv(k, i);
    const double coef = b(i, 0);
    const double se = std::sqrt(r.residual_variance * inverse_diagonal);
    // A zero residual variance (exact fit, or a clamped rss) makes every coefficient exact: the
    // t-value is infinite, or 0 for a zero coefficient, never 0/0.
    const double t = se > 0.0 ? coef / se : (coef == 0.0 ? 0.0 : std::copysign(inf, coef));
    r.coefficients.push_back(coef);
    r.std_errors.push_back(se);
    r.t_values.push_back(t);
    r.p_values.push_back(math::student_t_two_sided_p(t, dof));
    r.ci_lower.push_back(coef - r.t_critical * se);
    r.ci_upper.push_back(coef + r.t_critical * se);
  }
  return r;
}

}  // namespace dpcov::solvers
