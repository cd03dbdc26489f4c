#include "coinpress_mean.hpp"

#include <cmath>
#include <limits>

#include "../check.hpp"
#include "../data/row_bound.hpp"
#include "../privacy/coinpress.hpp"
#include "../privacy/coinpress_mean.hpp"
#include "../privacy/zcdp.hpp"
#include "../random/normal.hpp"

namespace dpcov::mechanisms {

namespace {

void check_request(const CoinpressMeanRequest &request) {
  check::dimension(request.dim, "d");
  if (request.n < 1) fail(Status::InvalidArgument, "n must be >= 1, got ", request.n);
  check::positive_finite(request.rho, "rho");
  check::finite(request.radius, "r");
  if (!(request.radius >= 0.0))
    fail(Status::InvalidArgument, "the prior radius r (||mu - c|| <= r) must be >= 0, got ",
         request.radius);
  check::positive_finite(request.scale, "scale");
  check::delta(request.delta);
}

}  // namespace

CoinpressMeanReceipt coinpress_mean_plan(const CoinpressMeanRequest &request) {
  check_request(request);
  CoinpressMeanReceipt r;
  r.dim = request.dim;
  r.n = request.n;
  r.steps = request.steps;
  r.rho = request.rho;
  r.radius = request.radius;
  r.scale = request.scale;
  r.beta = request.beta;
  r.delta = request.delta;
  r.step_rho = privacy::coinpress_budget_split(request.rho, request.steps);
  r.tail_radius = privacy::coinpress_clip_radius(request.dim, request.beta);
  double prior = request.radius;
  for (double share : r.step_rho) {
    if (!r.step_sigma.empty())
      prior = privacy::coinpress_mean_next_radius(request.scale, r.tail_radius, request.n,
                                                  r.step_sigma.back());
    const double clip = privacy::coinpress_mean_clip_radius(prior, request.scale, r.tail_radius);
    // Each step bounds the centred rows' norms by `clip`: the library's one range for row bounds.
    // R >= max(prior, scale gamma), so an R below it means a scale (and prior radius) too small:
    // refused here, before any noise, naming them.
    if (clip < data::kSmallestRowBound)
      fail(Status::InvalidArgument, "scale = ", request.scale, " is too small: step ",
           r.step_clip_radius.size() + 1, "'s clip radius R = ", clip, " is below 2^-960 (about ",
           "1.03e-289), the smallest row bound accepted (proofs/row_bound.md); R >= max(prior ",
           "radius, scale * gamma) with prior radius ", prior, " (r = ", request.radius,
           " in step 1) and gamma = ", r.tail_radius, ": scale * gamma must reach 2^-960");
    data::check_row_bound(clip, "the step's clip radius (from scale and the prior radius r)");
    r.step_clip_radius.push_back(clip);
    r.step_sigma.push_back(privacy::coinpress_mean_step_sigma(clip, request.n, share));
  }
  r.epsilon = privacy::zcdp_epsilon(request.rho, request.delta);
  return r;
}

std::vector<double> coinpress_mean_projected_offset(ConstMatrixView rows,
                                                    const std::vector<double> &centre,
                                                    double clip_radius) {
  const int64_t n = rows.rows;
  const int64_t d = rows.cols;
  // Each projected offset is at most R, so the sum of n of them is at most n R, which overflows
  // for R near the largest double: the release then failed on rows whose offsets add up (all on
  // one side of the centre) and not on their neighbour with one row flipped. Where n R could
  // overflow (a condition on public values), the offsets are summed scaled by 2^-k with
  // 2^k >= 2 n, so that the sum stays below R. Scaling by a power of two commutes with rounding:
  // the mean is the same double wherever the unscaled sum was finite, except for terms below
  // 2^-1900 R, which the scaling makes subnormal (each then moves by at most 2^-1074 2^k).
  const bool prescale = clip_radius > std::numeric_limits<double>::max() / (2.0 * static_cast<double>(n));
  const int shift = prescale ? 2 + std::ilogb(static_cast<double>(n)) : 0;
  std::vector<double> sum(static_cast<size_t>(d), 0.0), carry(static_cast<size_t>(d), 0.0);
  Matrix row(1, d);  // x_i - c
  for (int64_t i = 0; i < n; ++i) {
    // x - c, halved where the difference of two finite doubles overflows: the direction is kept,
    // and a row that far out is clipped anyway (its norm is twice the halved one's).
    bool halved = false;
    for (int64_t j = 0; j < d; ++j) {
      row(0, j) = rows(i, j) - centre[static_cast<size_t>(j)];
      halved = halved || !std::isfinite(row(0, j));
    }
    if (halved)
      for (int64_t j = 0; j < d; ++j)
        row(0, j) = 0.5 * rows(i, j) - 0.5 * centre[static_cast<size_t>(j)];
    double sum_of_squares = 0.0;
    data::row_sums_of_squares(row.view(), 0, 1, &sum_of_squares);
    const double bound = halved ? 0.5 * clip_radius : clip_radius;
    const double factor = data::row_factor(row.view(), 0, sum_of_squares, bound, BoundPolicy::Clip);
    const double scale = std::ldexp(halved ? 2.0 * factor : factor, -shift);
    for (int64_t j = 0; j < d; ++j)
      data::neumaier_add(sum[static_cast<size_t>(j)], carry[static_cast<size_t>(j)],
                         row(0, j) * scale);
  }
  std::vector<double> offset(static_cast<size_t>(d));
  const double inv_n = 1.0 / static_cast<double>(n);
  for (int64_t j = 0; j < d; ++j)
    offset[static_cast<size_t>(j)] = std::ldexp(
        (sum[static_cast<size_t>(j)] + carry[static_cast<size_t>(j)]) * inv_n, shift);
  return offset;
}

CoinpressMeanRelease coinpress_mean_release(ConstMatrixView rows, const std::vector<double> &centre,
                                            const CoinpressMeanRequest &request, random::Rng &rng) {
  CoinpressMeanReceipt receipt = coinpress_mean_plan(request);
  const int64_t d = request.dim;
  if (rows.rows != request.n || rows.cols != d)
    fail(Status::Dimension, "rows must be n x d = ", request.n, " x ", d, ", got ", rows.rows,
         " x ", rows.cols);
  if (static_cast<int64_t>(centre.size()) != d)
    fail(Status::Dimension, "the centre must have d = ", d, " values, got ", centre.size());
  for (double v : centre) check::finite(v, "centre");
  check::all_finite(rows, "rows");
  Matrix centres(receipt.steps, d);
  std::vector<double> c = centre;
  for (int64_t step = 0; step < receipt.steps; ++step) {
    const size_t s = static_cast<size_t>(step);
    const std::vector<double> offset =
        coinpress_mean_projected_offset(rows, c, receipt.step_clip_radius[s]);
    for (int64_t j = 0; j < d; ++j) {
      const size_t k = static_cast<size_t>(j);
      // The noise goes on the offset (the statistic); the public centre is added afterwards.
      c[k] += offset[k] + receipt.step_sigma[s] * random::standard_normal(rng);
      centres(step, j) = c[k];
    }
    // A noisy centre beyond the largest double fails here, after the draw, as a numerical failure
    // (which ledgers charge): the next step's offsets from it were not finite, and the release
    // failed as if the rows were (Status::NonFinite, which no ledger charges).
    for (int64_t j = 0; j < d; ++j)
      if (!std::isfinite(c[static_cast<size_t>(j)]))
        fail(Status::Numerical, "step ", step + 1, " of ", receipt.steps,
             ": the private mean (the centre plus the noisy offset) overflows the largest double");
  }
  receipt.seed_fixed = rng.seed_fixed();
  return {std::move(c), std::move(centres), std::move(receipt)};
}

}  // namespace dpcov::mechanisms
