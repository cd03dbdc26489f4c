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
  r.epsilon = privacy::zcdp_receipt_epsilon(request.rho, request.delta);
  return r;
}

namespace {

// Each projected offset is at most R, so the sum of n of them is at most n R, which overflows for
// R near the largest double: the release then failed on rows whose offsets add up (all on one side
// of the centre) and not on their neighbour with one row flipped. Where n R could overflow (a
// condition on public values), the offsets are summed scaled by 2^-k with 2^k >= 2 n, so that the
// sum stays below R. Scaling by a power of two commutes with rounding: the mean is the same double
// wherever the unscaled sum was finite, except for terms below 2^-1900 R, which the scaling makes
// subnormal (each then moves by at most 2^-1074 2^k).
int sum_shift(double clip_radius, int64_t n) {
  const bool prescale =
      clip_radius > std::numeric_limits<double>::max() / (2.0 * static_cast<double>(n));
  return prescale ? 2 + std::ilogb(static_cast<double>(n)) : 0;
}

RowPass mean_pass(int64_t index, const std::vector<double> &centre, double clip_radius,
                  int64_t n) {
  RowPass pass;
  pass.kind = RowPassKind::CoinpressMeanStep;
  pass.dim = static_cast<int64_t>(centre.size());
  pass.index = index;
  pass.clip_radii = {clip_radius};
  pass.moment_exponent = sum_shift(clip_radius, n);
  pass.transform = centre;
  return pass;
}

// (1/n) sum_j f_j (x_j - c): the merged sums unscaled.
std::vector<double> pass_offset(const RowPartial &merged, int64_t n) {
  const int64_t d = merged.pass.dim;
  std::vector<double> offset(static_cast<size_t>(d));
  const double inv_n = 1.0 / static_cast<double>(n);
  for (int64_t j = 0; j < d; ++j)
    offset[static_cast<size_t>(j)] =
        std::ldexp((merged.sum(0, j) + merged.compensation(0, j)) * inv_n,
                   merged.pass.moment_exponent);
  return offset;
}

}  // namespace

void coinpress_mean_add_offsets(ConstMatrixView rows, const std::vector<double> &centre,
                                double clip_radius, int shift, Matrix &sum, Matrix &carry) {
  const int64_t d = rows.cols;
  Matrix row(1, d);  // x_i - c
  for (int64_t i = 0; i < rows.rows; ++i) {
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
    for (int64_t j = 0; j < d; ++j) data::neumaier_add(sum(0, j), carry(0, j), row(0, j) * scale);
  }
}

std::vector<double> coinpress_mean_projected_offset(ConstMatrixView rows,
                                                    const std::vector<double> &centre,
                                                    double clip_radius) {
  RowPartial partial = row_partial(mean_pass(0, centre, clip_radius, rows.rows));
  add_rows(partial, rows);
  return pass_offset(partial, rows.rows);
}

CoinpressMeanPasses::CoinpressMeanPasses(const CoinpressMeanReceipt &plan,
                                         std::vector<double> centre, random::Rng &rng)
    : plan_(plan), rng_(&rng), centre_(std::move(centre)), centres_(plan.steps, plan.dim) {
  set_pass(0);
}

void CoinpressMeanPasses::set_pass(size_t step) {
  pass_ = mean_pass(static_cast<int64_t>(step), centre_, plan_.step_clip_radius[step], plan_.n);
}

const RowPass &CoinpressMeanPasses::pass() const {
  if (done_) fail(Status::InvalidArgument, "the release is complete: no pass is left");
  return pass_;
}

const std::vector<double> &CoinpressMeanPasses::mean() const {
  if (!done_) fail(Status::InvalidArgument, "the release needs pass ", pass_.index, " first");
  return centre_;
}

void CoinpressMeanPasses::finish_pass(const RowPartial &merged) {
  check_pass_sums(pass(), plan_.n, merged);
  const size_t s = static_cast<size_t>(pass_.index);
  const std::vector<double> offset = pass_offset(merged, plan_.n);
  for (int64_t j = 0; j < plan_.dim; ++j) {
    const size_t k = static_cast<size_t>(j);
    // The noise goes on the offset (the statistic); the public centre is added afterwards.
    centre_[k] += offset[k] + plan_.step_sigma[s] * random::standard_normal(*rng_);
    centres_(pass_.index, j) = centre_[k];
  }
  // A noisy centre beyond the largest double fails here, after the draw, as a numerical failure
  // (which ledgers charge): the next step's offsets from it were not finite, and the release
  // failed as if the rows were (Status::NonFinite, which no ledger charges).
  for (double v : centre_)
    if (!std::isfinite(v))
      fail(Status::Numerical, "step ", pass_.index + 1, " of ", plan_.steps,
           ": the private mean (the centre plus the noisy offset) overflows the largest double");
  if (s + 1 == plan_.step_sigma.size()) {
    done_ = true;
    return;
  }
  set_pass(s + 1);
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
  CoinpressMeanPasses passes(receipt, centre, rng);
  while (!passes.done()) {
    RowPartial partial = row_partial(passes.pass());
    add_rows(partial, rows);
    passes.finish_pass(partial);
  }
  receipt.seed_fixed = rng.seed_fixed();
  return {passes.mean(), passes.centres(), std::move(receipt)};
}

}  // namespace dpcov::mechanisms
