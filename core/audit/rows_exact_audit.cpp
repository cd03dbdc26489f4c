#include "rows_exact_audit.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <initializer_list>
#include <memory>
#include <utility>

#include "../error.hpp"
#include "../privacy/coinpress.hpp"
#include "../privacy/dong_liang_yi.hpp"
#include "../privacy/zcdp.hpp"
#include "../random/normal.hpp"
#include "../random/rng.hpp"
#include "coinpress_steps_audit.hpp"
#include "noise_floor.hpp"
#include "pair_partials.hpp"
#include "rows_unit_audit.hpp"

namespace dpcov::audit {

namespace {

using gaussian_release::Subject;

constexpr int64_t kDim = 3;
constexpr double kRadius = 1.0, kBound = 4.0;
// The smallest eigenvalue gap of the pair is 0.1 s^2 (from 0 to the eigenvalue near 0.1 s^2).
constexpr double kGap = 0.1, kMargin = 40.0;

bool is_coinpress(const RowsExactRequest &r) { return r.mechanism == RowsMechanism::Coinpress; }

// The share of `rho` the audited coordinates spend: Separate's eigenvalue step has half.
double audited_share(const RowsExactRequest &r, double rho) {
  return r.mechanism == RowsMechanism::DlySeparate ? 0.5 * rho : rho;
}

// The claimed rho of the audited coordinates.
double audited_rho(const RowsExactRequest &r) { return audited_share(r, r.rho); }

// The rho the release runs at: the claim, or at unit level the unit path's per-row rho.
double released_rho(const RowsExactRequest &r) {
  return rows_unit_release_rho(r.max_rows_per_unit, r.rho, r.rows_only);
}

// The rows of the pair's dataset `changed_axis` (0: X, 1: X'): the first k rows (one unit; k = 1
// at row level) at 2 unit e_{changed_axis}, clipped by the release to unit e_{changed_axis}, then
// counts[j] rows at unit e_j, the rest zero. k aligned rows move S by k (e_1 e_1^T - e_2 e_2^T)
// unit^2 / n, k times the row-level sensitivity: the most any k replaced rows move it (triangle
// inequality), so for a Gaussian release this pair is a worst case of unit replace-one.
Matrix pair_rows(int64_t n, int64_t k, double unit, int64_t changed_axis,
                 std::initializer_list<std::pair<int64_t, int64_t>> counts) {
  Matrix x(n, kDim);
  int64_t row = 0;
  for (; row < k; ++row) x(row, changed_axis) = 2.0 * unit;
  for (const auto &[axis, count] : counts)
    for (int64_t i = 0; i < count; ++i) x(row++, axis) = unit;
  return x;
}

mechanisms::DlyRequest dly_request(const RowsExactRequest &r, int64_t n) {
  mechanisms::DlyRequest q;
  q.variant = static_cast<mechanisms::DlyVariant>(r.mechanism);
  q.dim = kDim;
  q.n = n;
  q.rho = released_rho(r);
  q.radius = kRadius;
  q.delta = r.delta;
  return q;
}

mechanisms::CoinpressRequest coinpress_request(const RowsExactRequest &r, int64_t n) {
  mechanisms::CoinpressRequest q;
  q.dim = kDim;
  q.n = n;
  q.rho = released_rho(r);
  q.k_bound = kBound;
  q.steps = r.steps;
  q.delta = r.delta;
  return q;
}

// The audited sigma and the unit s of the pair's rows at n. CoinPress with t >= 2: the largest
// step sigma_i and gamma, so that the margin below keeps every step's noise under gamma^2 / 400,
// far below the pair's second moments near gamma^2 / 3 on each axis (the whitening stays near a
// multiple of I, and each step's shift near the sensitivity: coinpress_steps_audit.hpp).
std::pair<double, double> sigma_and_unit(const RowsExactRequest &r, int64_t n) {
  if (is_coinpress(r)) {
    const mechanisms::CoinpressReceipt plan = mechanisms::coinpress_plan(coinpress_request(r, n));
    if (rows_exact_by_steps(r))
      return {*std::max_element(plan.step_sigma.begin(), plan.step_sigma.end()),
              plan.clip_radius};
    return {kBound * plan.step_sigma[0], 2.0 * plan.clip_radius};
  }
  mechanisms::dly_plan(dly_request(r, n));
  return {privacy::dly_gauss_sigma(audited_share(r, released_rho(r)), kRadius, n), kRadius};
}

// A uniformly random rotation of R^3: the unit quaternion (a, b, c, d) of four standard normals
// (uniform on the 3-sphere) as a rotation matrix.
Matrix random_rotation(random::Rng &rng) {
  double q[4], norm = 0.0;
  for (double &v : q) {
    v = random::standard_normal(rng);
    norm += v * v;
  }
  norm = std::sqrt(norm);
  for (double &v : q) v /= norm;
  const double a = q[0], b = q[1], c = q[2], d = q[3];
  Matrix r(kDim, kDim);
  const double entries[3][3] = {
      {a * a + b * b - c * c - d * d, 2 * (b * c - a * d), 2 * (b * d + a * c)},
      {2 * (b * c + a * d), a * a - b * b + c * c - d * d, 2 * (c * d - a * b)},
      {2 * (b * d - a * c), 2 * (c * d + a * b), a * a - b * b - c * c + d * d}};
  for (int64_t i = 0; i < kDim; ++i)
    for (int64_t j = 0; j < kDim; ++j) r(i, j) = entries[i][j];
  return r;
}

// Q_k of pair k >= 1.
Matrix pair_rotation(int64_t pair, uint64_t seed) {
  random::Rng rng =
      random::Rng::from_seed(seed, kRowsExactRotationStream + static_cast<uint64_t>(pair));
  return random_rotation(rng);
}

// The rows x_i Q^T (each row rotated by Q).
Matrix rotated(const Matrix &rows, const Matrix &q) {
  Matrix out(rows.rows(), kDim);
  for (int64_t i = 0; i < rows.rows(); ++i)
    for (int64_t a = 0; a < kDim; ++a) {
      double sum = 0.0;
      for (int64_t b = 0; b < kDim; ++b) sum += q(a, b) * rows(i, b);
      out(i, a) = sum;
    }
  return out;
}

void check_pairs(int64_t pairs) {
  if (pairs < 1 || pairs > kRowsExactMaxPairs)
    fail(Status::InvalidArgument, "pairs must be in [1, ", kRowsExactMaxPairs, "], got ", pairs);
}

// A request audited on its transcript: valid, and coinpress with t >= 2.
void check_steps_request(const RowsExactRequest &r) {
  check_rows_exact_request(r);
  if (!rows_exact_by_steps(r))
    fail(Status::InvalidArgument, "the transcript audit is that of coinpress with t >= 2, got ",
         rows_mechanism_name(r.mechanism), " with t = ", r.steps);
}

// The larger rho_lower of a transcript audit's two directions relative to the claim.
double rho_lower_ratio(const CoinpressStepsAuditReport &v) {
  return std::max(v.forward.rho_lower, v.backward.rho_lower) / v.claim.rho;
}

// Flagged before not flagged, then the larger rho_lower relative to the claim.
bool worse(const gaussian_release::Verdict &a, const gaussian_release::Verdict &b) {
  if (a.flagged() != b.flagged()) return a.flagged();
  return a.pair.rho_lower / a.claimed_rho > b.pair.rho_lower / b.claimed_rho;
}

// The release audited on a subject's pair.
using PairRelease = std::function<gaussian_release::Release(const Subject &)>;

RowsExactPairs audit_pairs(const RowsExactRequest &request, const PairRelease &release_on,
                           int64_t pairs, int64_t trials, double alpha, uint64_t seed) {
  gaussian_release::check_trials_and_alpha(trials, alpha);
  check_rows_exact_request(request);
  check_pairs(pairs);
  const double alpha_per_pair = alpha / static_cast<double>(pairs);
  RowsExactPairs out;
  for (int64_t k = 0; k < pairs; ++k) {
    const Subject s = rows_exact_subject(request, k, seed);
    gaussian_release::Verdict v = gaussian_release::run_audit(
        s, release_on(s), trials, alpha_per_pair, seed + static_cast<uint64_t>(k));
    out.samples += v.report.samples;
    if (k == 0 || worse(v, out.worst)) {
      out.worst = std::move(v);
      out.worst_pair = k;
    }
  }
  return out;
}

}  // namespace

bool rows_exact_by_steps(const RowsExactRequest &r) { return is_coinpress(r) && r.steps >= 2; }

void check_rows_exact_request(const RowsExactRequest &r) {
  const char *name = rows_mechanism_name(rows_mechanism(static_cast<int32_t>(r.mechanism)));
  if (r.mechanism == RowsMechanism::DlyAdaptive ||
      r.mechanism == RowsMechanism::DlyAdaptivePaper)
    fail(Status::Precondition, name,
         " has no exact-density audit: its branch and the budget of its final release follow "
         "private statistics of the data, so its output's density is an integral over them; "
         "audit it black-box (dpcov_audit_rows_black_box)");
  if (is_coinpress(r)) {
    if (r.steps < 1 || r.steps > privacy::kCoinpressMaxSteps)
      fail(Status::InvalidArgument, "coinpress steps must be in [1, ",
           privacy::kCoinpressMaxSteps, "], got ", r.steps);
  } else if (r.steps != 1) {
    fail(Status::InvalidArgument, name, " releases in one step: steps must be 1, got ", r.steps);
  }
  released_rho(r);  // k in range, and a per-row rho that does not underflow
  rows_exact_n(r);
}

int64_t rows_exact_n(const RowsExactRequest &r) {
  // sigma scales as 1 / n at fixed rho: the plan at n = 1000 gives the number of thousands, and
  // the loop steps past any rounding of the plans' sigma until the margin holds at n itself. n
  // is a multiple of 1000 k, so that the rows are units of exactly k rows.
  const int64_t k = r.max_rows_per_unit, step = 1000 * k;
  const auto [sigma, unit] = sigma_and_unit(r, 1000);
  const double thousands = std::max(1.0, std::ceil(kMargin * sigma / (kGap * unit * unit)));
  const double steps = std::ceil(thousands / static_cast<double>(k));
  for (int64_t n = static_cast<int64_t>(std::min(steps, 1e6)) * step; n <= kRowsExactMaxRows;
       n += step) {
    const auto [s, u] = sigma_and_unit(r, n);
    if (kMargin * s <= kGap * u * u) return n;
  }
  fail(Status::InvalidArgument, "rho = ", r.rho, " is too small for the exact audit of ",
       rows_mechanism_name(r.mechanism), ": keeping the clamp ", kMargin,
       " sigma away needs more than ", kRowsExactMaxRows,
       " rows; audit it black-box (dpcov_audit_rows_black_box)");
}

mechanisms::DlyRequest rows_exact_dly_request(const RowsExactRequest &request) {
  return dly_request(request, rows_exact_n(request));
}

mechanisms::CoinpressRequest rows_exact_coinpress_request(const RowsExactRequest &request) {
  return coinpress_request(request, rows_exact_n(request));
}

Subject rows_exact_subject(const RowsExactRequest &r, int64_t pair, uint64_t seed) {
  check_rows_exact_request(r);
  if (rows_exact_by_steps(r))
    fail(Status::InvalidArgument, "coinpress with t = ", r.steps,
         " is audited on its transcript (audit_rows_exact_steps_pairs), not as one Gaussian "
         "release");
  if (pair < 0) fail(Status::InvalidArgument, "the pair index must be >= 0, got ", pair);
  const int64_t n = rows_exact_n(r);
  const auto [sigma, unit] = sigma_and_unit(r, n);
  Subject s;
  s.name = r.mechanism == RowsMechanism::DlyGauss      ? "dly_gauss"
           : r.mechanism == RowsMechanism::DlySeparate ? "dly_separate eigenvalues"
                                                       : "coinpress t = 1";
  if (r.mechanism == RowsMechanism::DlySeparate) s.kind = gaussian_release::Coordinates::Eigenvalues;
  s.unit = unit;
  const int64_t tenth = n / 10;
  for (int k = 0; k < 2; ++k)
    s.rows[k] = pair_rows(n, r.max_rows_per_unit, unit, k,
                          {{0, tenth}, {1, 3 * tenth}, {2, 5 * tenth}});
  if (pair > 0) {
    const Matrix q = pair_rotation(pair, seed);
    for (Matrix &rows : s.rows) rows = rotated(rows, q);
  }
  for (int k = 0; k < 2; ++k) s.base[k] = gaussian_release::clipped_second_moment(s.rows[k], unit);
  // The noise perturbs second-moment entries of magnitude at most unit^2.
  require_noise_above_rounding(sigma, unit * unit, s.name.c_str());
  s.sigma = sigma;
  s.rho = audited_rho(r);
  s.epsilon = privacy::zcdp_epsilon(s.rho, r.delta);
  s.delta = r.delta;
  s.upper = is_coinpress(r) ? INFINITY : kRadius * kRadius;
  // A rotated pair's eigenvalues are the axis pair's but for rounding (a few ulps of unit^2).
  if (!(gaussian_release::clamp_margin(s) >= kMargin * (pair > 0 ? 1.0 - 1e-9 : 1.0)))
    fail(Status::Internal, "the exact audit's pair of ", n, " rows leaves the clamp closer than ",
         kMargin, " sigma");
  return s;
}

gaussian_release::Release rows_exact_release(const RowsExactRequest &request) {
  if (rows_exact_by_steps(request))
    fail(Status::InvalidArgument, "coinpress with t = ", request.steps,
         " is audited on its transcript (audit_rows_exact_steps_pairs)");
  if (is_coinpress(request)) {
    const mechanisms::CoinpressRequest q = rows_exact_coinpress_request(request);
    return [q](ConstMatrixView rows, random::Rng &rng) {
      return mechanisms::coinpress_release(rows, q, rng).covariance;
    };
  }
  const mechanisms::DlyRequest q = rows_exact_dly_request(request);
  return [q](ConstMatrixView rows, random::Rng &rng) {
    return mechanisms::dly_release(rows, q, rng).covariance;
  };
}

gaussian_release::Release rows_exact_pair_release(const RowsExactRequest &request,
                                                  const Subject &subject) {
  if (rows_exact_by_steps(request))
    fail(Status::InvalidArgument, "coinpress with t = ", request.steps,
         " is audited on its transcript (audit_rows_exact_steps_pairs)");
  const auto partials = std::make_shared<PairPartials>(subject.rows[0], subject.rows[1]);
  if (is_coinpress(request)) {
    const mechanisms::CoinpressRequest q = rows_exact_coinpress_request(request);
    mechanisms::CoinpressSteps steps = mechanisms::coinpress_steps(mechanisms::coinpress_plan(q));
    steps.authors_code = q.authors_code;
    return [partials, q, steps](ConstMatrixView rows, random::Rng &rng) {
      mechanisms::CoinpressPasses passes(steps, q.dim, q.n, rng);
      while (!passes.done()) passes.finish_pass(partials->sums(rows, passes.pass()));
      return passes.estimate();
    };
  }
  const mechanisms::DlyRequest q = rows_exact_dly_request(request);
  return [partials, q](ConstMatrixView rows, random::Rng &rng) {
    mechanisms::DlyPasses passes(q, rng);
    while (!passes.done()) passes.finish_pass(partials->sums(rows, passes.pass()));
    return passes.release().covariance;
  };
}

gaussian_release::Verdict audit_rows_exact(const RowsExactRequest &request, int64_t trials,
                                           double alpha, uint64_t seed) {
  gaussian_release::check_trials_and_alpha(trials, alpha);
  const Subject s = rows_exact_subject(request);
  return gaussian_release::run_audit(s, rows_exact_pair_release(request, s), trials, alpha, seed);
}

RowsExactPairs audit_rows_exact_pairs(const RowsExactRequest &request, int64_t pairs,
                                      int64_t trials, double alpha, uint64_t seed) {
  return audit_pairs(
      request, [&request](const Subject &s) { return rows_exact_pair_release(request, s); },
      pairs, trials, alpha, seed);
}

RowsExactPairs audit_rows_exact_pairs(const RowsExactRequest &request,
                                      const gaussian_release::Release &release, int64_t pairs,
                                      int64_t trials, double alpha, uint64_t seed) {
  return audit_pairs(
      request, [&release](const Subject &) { return release; }, pairs, trials, alpha, seed);
}

RowsExactStepsPairs audit_rows_exact_steps_pairs(const RowsExactRequest &request, int64_t pairs,
                                                 int64_t trials, double alpha, uint64_t seed) {
  check_transcript_audit(trials, alpha);
  check_steps_request(request);
  return audit_rows_exact_steps_pairs(
      request, coinpress_library_transcript(rows_exact_coinpress_request(request)), pairs, trials,
      alpha, seed);
}

RowsExactStepsPairs audit_rows_exact_steps_pairs(const RowsExactRequest &request,
                                                 const TranscriptRelease &release, int64_t pairs,
                                                 int64_t trials, double alpha, uint64_t seed) {
  check_transcript_audit(trials, alpha);
  check_steps_request(request);
  check_pairs(pairs);
  const mechanisms::CoinpressRequest claim = rows_exact_coinpress_request(request);
  const std::pair<Matrix, Matrix> axis =
      coinpress_steps_audit_pair(claim, request.max_rows_per_unit);
  const double alpha_per_pair = alpha / static_cast<double>(pairs);
  RowsExactStepsPairs out;
  for (int64_t k = 0; k < pairs; ++k) {
    std::pair<Matrix, Matrix> pair = axis;
    if (k > 0) {
      const Matrix q = pair_rotation(k, seed);
      pair = {rotated(axis.first, q), rotated(axis.second, q)};
    }
    CoinpressStepsAuditReport v =
        audit_coinpress_steps(claim, pair, release, trials, alpha_per_pair,
                              seed + 2 * static_cast<uint64_t>(k), request.rho);
    out.samples += v.samples;
    const bool worse_than_so_far =
        k == 0 || (v.violation() != out.worst.violation()
                       ? v.violation()
                       : rho_lower_ratio(v) > rho_lower_ratio(out.worst));
    if (worse_than_so_far) {
      out.worst = std::move(v);
      out.worst_pair = k;
    }
  }
  return out;
}

}  // namespace dpcov::audit
