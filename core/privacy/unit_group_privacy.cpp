#include "unit_group_privacy.hpp"

#include <algorithm>
#include <cmath>

#include "../check.hpp"
#include "../error.hpp"
#include "unit_bound.hpp"
#include "upward.hpp"

namespace dpcov::privacy {

namespace {

// expm1 rounded down: glibc's expm1 is within 1 ulp, so two steps down cover it (as expm1_up).
double expm1_down(double x) { return upward::bump_down(upward::bump_down(std::expm1(x))); }

// S >= sum_{i<m} e^{i e} for m >= 2 and e > 0. The geometric sum's closed form with its numerator
// rounded up and denominator down; where expm1(e) rounds to nothing or the numerator overflows,
// the cruder m e^{(m-1) e} (each term is at most the last).
double group_sum_up(int64_t m, double e) {
  const double md = static_cast<double>(m);  // m <= 2^21: exact
  const double crude =
      upward::mul_up(md, upward::add_up(1.0, upward::expm1_up(upward::mul_up(md - 1.0, e))));
  const double numerator = upward::expm1_up(upward::mul_up(md, e));
  const double denominator = expm1_down(e);
  if (!(denominator > 0.0) || !std::isfinite(numerator)) return crude;
  return std::min(crude, upward::div_up(numerator, denominator));
}

}  // namespace

int64_t unit_group_steps(Neighbour unit_relation, int64_t max_rows_per_unit) {
  if (max_rows_per_unit < 1 || max_rows_per_unit > kMaxRowsPerUnit)
    fail(Status::InvalidArgument, "max_rows_per_unit must be in [1, ", kMaxRowsPerUnit, "], got ",
         max_rows_per_unit);
  return unit_relation == Neighbour::ReplaceOne ? 2 * max_rows_per_unit : max_rows_per_unit;
}

int64_t unit_group_steps(Neighbour unit_relation, Neighbour row_relation,
                         int64_t max_rows_per_unit) {
  if (row_relation == Neighbour::AddRemove)
    return unit_group_steps(unit_relation, max_rows_per_unit);
  if (unit_relation == Neighbour::AddRemove)
    fail(Status::Incompatible, "a mechanism private under replace-one (n public) takes privacy ",
         "units under replace-one only: a unit added or removed changes n");
  // Units padded to exactly k rows: a unit replaced is k rows replaced, one at a time.
  return unit_group_steps(Neighbour::AddRemove, max_rows_per_unit);
}

namespace {

void check_steps(int64_t steps) {
  if (steps < 1 || steps > 2 * kMaxRowsPerUnit)
    fail(Status::InvalidArgument, "group privacy steps must be in [1, ", 2 * kMaxRowsPerUnit,
         "], got ", steps);
}

}  // namespace

double group_privacy_row_rho(int64_t steps, double rho) {
  check_steps(steps);
  check::positive_finite(rho, "rho");
  const double m = static_cast<double>(steps);  // m^2 <= 2^42: exact
  const double row_rho = upward::div_down(rho, m * m);
  if (!(row_rho > 0.0))
    fail(Status::InvalidArgument, "the per-row rho ", rho, " / ", steps, "^2 underflows to 0");
  return row_rho;
}

RowBudget group_privacy_row_budget(int64_t steps, double epsilon, double delta) {
  check_steps(steps);
  check::positive_finite(epsilon, "epsilon");
  if (!(delta >= 0.0 && delta < 1.0))
    fail(std::isnan(delta) ? Status::NonFinite : Status::InvalidArgument,
         "delta must be in [0, 1), got ", delta);
  if (steps == 1) return {epsilon, delta};
  RowBudget out;
  out.epsilon = upward::div_down(epsilon, static_cast<double>(steps));
  if (!(out.epsilon > 0.0))
    fail(Status::InvalidArgument, "the per-row epsilon ", epsilon, " / ", steps,
         " underflows to 0");
  if (delta == 0.0) return out;
  out.delta = upward::div_down(delta, group_sum_up(steps, out.epsilon));
  if (!(out.delta > 0.0))
    fail(Status::InvalidArgument, "the per-row delta of (", epsilon, ", ", delta, ") over ", steps,
         " rows underflows to 0: lower epsilon or the rows per unit");
  return out;
}

}  // namespace dpcov::privacy
