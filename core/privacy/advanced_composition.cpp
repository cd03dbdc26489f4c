#include "advanced_composition.hpp"

#include <cmath>

#include "../check.hpp"
#include "../error.hpp"
#include "upward.hpp"

namespace dpcov::privacy {

namespace {

constexpr int64_t kMaxReleases = int64_t{1} << 53;  // every k up to here is an exact double

void check_unit_delta(double delta, const char *name) {
  check::finite(delta, name);
  if (!(delta >= 0.0 && delta < 1.0))
    fail(Status::InvalidArgument, name, " must be in [0, 1), got ", delta);
}

void check_arguments(double epsilon_cap, double delta_cap, double epsilon_each, double delta_each) {
  check::positive_finite(epsilon_cap, "epsilon_cap");
  check::positive_finite(epsilon_each, "epsilon_each");
  check_unit_delta(delta_cap, "delta_cap");
  check_unit_delta(delta_each, "delta_each");
}

// delta_cap - k delta_each rounded down; <= 0 when nothing is left for the slack.
double slack_of(int64_t k, double delta_cap, double delta_each) {
  return upward::sub_down(delta_cap, upward::mul_up(static_cast<double>(k), delta_each));
}

bool basic_fits(int64_t k, double epsilon_cap, double delta_cap, double epsilon_each,
                double delta_each) {
  const double kd = static_cast<double>(k);
  return upward::mul_up(kd, epsilon_each) <= epsilon_cap &&
         upward::mul_up(kd, delta_each) <= delta_cap;
}

// +infinity when the slack is gone: Thm 3.20 then says nothing.
double advanced_epsilon(int64_t k, double delta_cap, double epsilon_each, double delta_each) {
  const double slack = slack_of(k, delta_cap, delta_each);
  if (!(slack > 0.0)) return INFINITY;
  return drv_epsilon(k, epsilon_each, slack);
}

bool fits(int64_t k, double epsilon_cap, double delta_cap, double epsilon_each, double delta_each) {
  return basic_fits(k, epsilon_cap, delta_cap, epsilon_each, delta_each) ||
         advanced_epsilon(k, delta_cap, epsilon_each, delta_each) <= epsilon_cap;
}

}  // namespace

double drv_epsilon(int64_t k, double epsilon, double delta_slack) {
  if (k < 0) fail(Status::InvalidArgument, "k must be >= 0, got ", k);
  check::positive_finite(epsilon, "epsilon");
  check::finite(delta_slack, "delta_slack");
  if (!(delta_slack > 0.0 && delta_slack < 1.0))
    fail(Status::InvalidArgument, "delta_slack must be in (0, 1), got ", delta_slack);
  if (k == 0) return 0.0;
  using namespace upward;
  const double kd = static_cast<double>(k);
  const double log_inverse = log_inverse_up(delta_slack);
  const double root = mul_up(sqrt_up(mul_up(2.0 * kd, log_inverse)), epsilon);
  return add_up(root, mul_up(mul_up(kd, epsilon), expm1_up(epsilon)));
}

int64_t advanced_composition_max_releases(double epsilon_cap, double delta_cap,
                                          double epsilon_each, double delta_each) {
  check_arguments(epsilon_cap, delta_cap, epsilon_each, delta_each);
  // Both bounds grow with k (the slack shrinks), so the k that fit are 0 .. K: bisect for K,
  // keeping fits(low) true, which is all the safety needs.
  if (fits(kMaxReleases, epsilon_cap, delta_cap, epsilon_each, delta_each)) return kMaxReleases;
  int64_t low = 0, high = kMaxReleases;
  while (high - low > 1) {
    const int64_t middle = low + (high - low) / 2;
    if (fits(middle, epsilon_cap, delta_cap, epsilon_each, delta_each))
      low = middle;
    else
      high = middle;
  }
  return low;
}

CompositionCost advanced_composition_cost(int64_t k, double epsilon_cap, double delta_cap,
                                          double epsilon_each, double delta_each) {
  check_arguments(epsilon_cap, delta_cap, epsilon_each, delta_each);
  if (k < 0) fail(Status::InvalidArgument, "k must be >= 0, got ", k);
  const double kd = static_cast<double>(k);
  const CompositionCost basic{upward::mul_up(kd, epsilon_each), upward::mul_up(kd, delta_each)};
  const double advanced = advanced_epsilon(k, delta_cap, epsilon_each, delta_each);
  const bool basic_ok = basic_fits(k, epsilon_cap, delta_cap, epsilon_each, delta_each);
  if (advanced <= epsilon_cap && (!basic_ok || advanced < basic.epsilon))
    return {advanced, delta_cap};
  return basic;
}

}  // namespace dpcov::privacy
