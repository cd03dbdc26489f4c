#include "secular.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <memory>

#include "../error.hpp"
#include "power_of_two.hpp"
#include "secular_kernels.hpp"

namespace dpcov::linalg {

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();
// Deflation thresholds in units of eps times the scale of the problem, as in LAPACK dlaed2: a
// deflated pair or coordinate changes the matrix by at most this much.
constexpr double kDeflationUlps = 8.0;
// The root finder halves its bracket at least every other iteration, and deflation keeps every
// root at least about eps^2 (relative) away from its poles, so a few hundred iterations reach the
// resolution of a double from any start; typical roots take 3 to 6.
constexpr int kMaxRootIterations = 400;

// A Givens rotation of coordinates (p, j) in the frame left by the rotations before it: the new
// basis vectors are c e_p + s e_j (which keeps y's weight) and -s e_p + c e_j (orthogonal to y).
using Rotation = SecularFactors::Rotation;

// g(mu) = c0 + sum_j w_j / (lambda_j - mu), strictly increasing between consecutive poles.
struct Secular {
  const std::vector<double> &lambda;  // strictly decreasing
  const std::vector<double> &w;       // > 0
  double c0;
};

// Sums of squares run in kLanes interleaved partial sums: independent chains of additions (and
// SIMD lanes) instead of one chain as long as the sum.
constexpr int64_t kLanes = 4;

double lane_total(const double *lanes) { return (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]); }

// delta_j = (lambda_j - origin) - shift for j < m: the expression pole_sums evaluates, so that
// distances written here and there are the same bits.
void distances(const double *lambda, double origin, double shift, double *delta, int64_t m) {
  for (int64_t j = 0; j < m; ++j) delta[j] = (lambda[j] - origin) - shift;
}

// A root mu = lambda_origin + shift, in the form its distances to the poles are kept in.
struct Root {
  int64_t origin;
  double shift;
};

// The search for the root in the interval whose upper pole is `a` and lower pole is `b` (-1: no
// such pole, the root is exterior and lies within `exterior_width` of the other pole), one
// evaluation of g at a time: the caller evaluates the pole sums at (origin_pole(), shift()),
// writing the distances to delta(), and hands them to update() until it returns false; finish()
// then leaves delta_j = lambda_j - mu in delta, each accurate to a few ulps of itself, as
// distances() writes them from the returned root (the same bits).
class RootSearch {
 public:
  RootSearch(const Secular &f, int64_t a, int64_t b, double exterior_width, double *delta)
      : f_(f), a_(a), b_(b), delta_(delta), interior_(a >= 0 && b >= 0) {
    const std::vector<double> &lam = f.lambda;
    // mu = lambda_origin + sigma tau with tau in (lo, hi]. Distances are measured from a pole so
    // that the distances to the nearer pole, which decide the eigenvectors, carry no
    // cancellation. An interior root starts at the midpoint measured from b and moves its origin
    // to a if the root turns out to lie above the midpoint.
    origin_ = interior_ ? b : (a >= 0 ? a : b);
    sigma_ = origin_ == b ? 1.0 : -1.0;
    hi_ = interior_ ? lam[static_cast<size_t>(a)] - lam[static_cast<size_t>(b)] : exterior_width;
    tau_ = interior_ ? 0.5 * hi_ : hi_;
  }

  // Where g is evaluated next: mu = origin_pole() + shift().
  double origin_pole() const { return f_.lambda[static_cast<size_t>(origin_)]; }
  double shift() const { return sigma_ * tau_; }
  // Poles 0..a lie above every point of the interval (delta > 0), the others below.
  int64_t split() const { return a_ + 1; }
  double *delta() const { return delta_; }

  // The step that the sums at (origin_pole(), shift()) decide, with their distances in delta();
  // false once the root is found or the iteration cap is reached.
  bool update(const detail::SplitPoleSums &sums) {
    const int64_t m = static_cast<int64_t>(f_.lambda.size());
    const int64_t a = a_, b = b_;
    const double *delta = delta_;
    const bool first = iteration_++ == 0;
    fresh_ = true;
    const double psi = sums.above.value, dpsi = sums.above.slope;
    const double phi = sums.below.value, dphi = sums.below.slope;
    const double g = f_.c0 + psi + phi;
    // Rounding error of the sum above: at most about m eps times the sum of magnitudes, plus
    // 2 eps per term for the terms themselves (pole_sums' paired reciprocals).
    const double error_bound =
        kEps * static_cast<double>(m + 4) * (std::fabs(f_.c0) + psi - phi);
    if (std::fabs(g) <= error_bound) return false;
    // g > 0: mu is above the root.
    if ((g > 0.0) == (sigma_ > 0.0)) hi_ = tau_; else lo_ = tau_;
    if (first && interior_ && g < 0.0) {
      // Above the midpoint: measure from a instead. The bracket is the whole interval again,
      // because the midpoint seen from a may differ from the one seen from b by a rounding.
      origin_ = a;
      sigma_ = -1.0;
      tau_ = hi_ - tau_;
      lo_ = 0.0;
      fresh_ = false;
    }
    if (hi_ - lo_ <= 2.0 * kEps * hi_) return false;

    // Model g by one pole on each side (the two poles bounding the interval) plus a constant,
    // matching g and g' at mu, and step to the model's root; fall back to bisection when the
    // step leaves the bracket or the previous model step did not halve |g|.
    double eta = std::numeric_limits<double>::quiet_NaN();
    if (interior_) {
      const double da = delta[a], db = delta[b];
      const double big_a = f_.c0 + (psi - dpsi * da) + (phi - dphi * db);
      const double b1 = dpsi * da * da, b2 = dphi * db * db;
      const double qa = big_a, qb = -(big_a * (da + db) + b1 + b2), qc = da * db * g;
      if (qa == 0.0) {
        if (qb != 0.0) eta = -qc / qb;
      } else {
        const double disc = qb * qb - 4.0 * qa * qc;
        if (disc >= 0.0) {
          const double t = -0.5 * (qb + std::copysign(std::sqrt(disc), qb));
          const double r1 = t / qa;
          const double r2 = t != 0.0 ? qc / t : r1;
          eta = (r1 > db && r1 < da) ? r1 : r2;
        }
      }
    } else if (a >= 0) {
      const double da = delta[a];
      const double big_a = f_.c0 + psi - dpsi * da;
      if (big_a < 0.0) eta = da + dpsi * da * da / big_a;
    } else {
      const double db = delta[b];
      const double big_a = f_.c0 + phi - dphi * db;
      if (big_a > 0.0) eta = db + dphi * db * db / big_a;
    }
    const double model_tau = tau_ + sigma_ * eta;
    const bool stalled = last_was_model_ && std::fabs(g) > 0.5 * previous_abs_g_;
    if (std::isfinite(model_tau) && model_tau > lo_ && model_tau < hi_ && !stalled) {
      // A model step below the resolution of tau (the bracket test's 2 eps tau) would only move
      // to a neighbouring double: tau is the root to working precision, and delta already holds
      // its distances, so the confirming evaluation is skipped.
      const double step = std::fabs(model_tau - tau_);
      if (step <= 2.0 * kEps * tau_) return false;
      // Past the first steps the model converges quadratically (Li's middle way): the step after
      // this one is about step^3 / previous_step^2. When even ten times that is below the
      // resolution of tau, model_tau is the root to working precision: its distances need one
      // subtraction per pole, not another pass of divisions (a quarter of the passes at d = 100).
      if (last_was_model_ && step <= previous_step_ &&
          10.0 * step * step * step <= kEps * tau_ * previous_step_ * previous_step_) {
        tau_ = model_tau;
        fresh_ = false;
        return false;
      }
      tau_ = model_tau;
      fresh_ = false;
      previous_step_ = step;
      last_was_model_ = true;
    } else {
      tau_ = 0.5 * (lo_ + hi_);
      last_was_model_ = false;
      fresh_ = false;
    }
    previous_abs_g_ = std::fabs(g);
    return iteration_ < kMaxRootIterations;
  }

  Root finish() const {
    if (!fresh_)
      distances(f_.lambda.data(), origin_pole(), shift(), delta_,
                static_cast<int64_t>(f_.lambda.size()));
    return {origin_, shift()};
  }

 private:
  const Secular &f_;
  int64_t a_, b_;
  double *delta_;
  bool interior_;
  int64_t origin_;
  double sigma_, lo_ = 0.0, hi_, tau_;
  double previous_abs_g_ = std::numeric_limits<double>::infinity();
  double previous_step_ = std::numeric_limits<double>::infinity();
  bool last_was_model_ = false;
  // Whether delta holds the distances from the current (origin, tau).
  bool fresh_ = false;
  int iteration_ = 0;
};

// A search to its end, one root's sums at a time.
Root finish_alone(const Secular &f, RootSearch &search) {
  const int64_t m = static_cast<int64_t>(f.lambda.size());
  while (search.update(detail::pole_sums(f.w.data(), f.lambda.data(), search.origin_pole(),
                                         search.shift(), search.delta(), search.split(), m)))
    ;
  return search.finish();
}

// The root in the interval whose upper pole is `a` and lower pole is `b` (-1: no such pole, the
// root is exterior and lies within `exterior_width` of the other pole), and its distances in
// delta (m values).
Root solve_root(const Secular &f, int64_t a, int64_t b, double exterior_width, double *delta) {
  RootSearch search(f, a, b, exterior_width, delta);
  return finish_alone(f, search);
}

// The interior roots k = 0..count-1 (root k between poles k and k + 1), root k's distances in
// delta + k m. Roots k and k + 1 are searched together: one pass for both sums
// (detail::pole_sums_two), then both steps, whose chains of square root and divisions overlap;
// once one is found the other goes on alone. Each root's arithmetic is what solve_root does.
void solve_interior_roots(const Secular &f, int64_t count, double *delta, Root *found) {
  const int64_t m = static_cast<int64_t>(f.lambda.size());
  int64_t k = 0;
  for (; k + 1 < count; k += 2) {
    RootSearch first(f, k, k + 1, 0.0, delta + k * m);
    RootSearch second(f, k + 1, k + 2, 0.0, delta + (k + 1) * m);
    bool first_on = true, second_on = true;
    while (first_on && second_on) {
      detail::SplitPoleSums sums[2];
      detail::pole_sums_two(f.w.data(), f.lambda.data(), m, first.origin_pole(), first.shift(),
                            first.delta(), first.split(), second.origin_pole(), second.shift(),
                            second.delta(), second.split(), sums);
      first_on = first.update(sums[0]);
      second_on = second.update(sums[1]);
    }
    found[k] = first_on ? finish_alone(f, first) : first.finish();
    found[k + 1] = second_on ? finish_alone(f, second) : second.finish();
  }
  if (k < count) found[k] = solve_root(f, k, k + 1, 0.0, delta + k * m);
}

// The checks of the problem; returns ||y||^2.
double check_input(const std::vector<double> &lambda, const double *y, double rho) {
  const int64_t q = static_cast<int64_t>(lambda.size());
  if (q < 1) fail(Status::Dimension, "secular update needs at least one eigenvalue");
  if (y == nullptr) fail(Status::NullPointer, "secular update vector y is NULL");
  double ynorm2 = 0.0;
  for (int64_t j = 0; j < q; ++j) {
    const double l = lambda[static_cast<size_t>(j)];
    if (!std::isfinite(l) || !std::isfinite(y[j]))
      fail(Status::InvalidArgument, "secular update input is not finite at ", j);
    if (j > 0 && l > lambda[static_cast<size_t>(j - 1)])
      fail(Status::InvalidArgument, "secular update eigenvalues must be non-increasing");
    ynorm2 += y[j] * y[j];
  }
  if (!std::isfinite(rho)) fail(Status::InvalidArgument, "rank-one coefficient is not finite");
  return ynorm2;
}

// The coordinates left to the secular equation: lam and yy after deflation, the kept indices
// (strictly decreasing lam there), the deflated ones and the rotations that deflated pairs.
struct Deflation {
  std::vector<double> lam, yy;
  std::vector<int64_t> kept, deflated;
  std::vector<Rotation> rotations;
};

// The buffers of loewner's products.
struct LoewnerScratch {
  std::vector<double> num, den;
  std::vector<int> exponent;
};

// An eigenvector column before sorting: its eigenvalue and source (as SecularFactors::sources), and
// its place before sorting, which breaks ties as a stable sort would without the stable sort's
// temporary buffer.
struct Column {
  double value;
  int64_t source;
  size_t place;
};

}  // namespace

struct SecularWorkspace::Buffers {
  std::vector<double> scaled, lr, yr, w, delta;
  Deflation deflation;
  LoewnerScratch loewner;
  std::vector<Root> found;
  std::vector<Column> columns;
};

namespace {

// Whether the pair test of deflate, gap |c s| <= gaptol with (c, s) = (a, b) / hypot(a, b), may
// hold: false only where gap |a b| > 2 gaptol (a^2 + b^2) with every product normal, so that the
// test, within a few ulps of gap |a b| / (a^2 + b^2), fails too. Saves the hypot (a library call)
// on the coordinates that do not deflate, nearly all of them; the decisions do not change.
bool could_deflate_pair(double gap, double a, double b, double gaptol) {
  const double ab = std::fabs(a * b), size = gaptol * (a * a + b * b), lhs = gap * ab;
  const double smallest = std::numeric_limits<double>::min();
  return !(ab >= smallest && size >= smallest && std::isfinite(lhs) && lhs > 2.0 * size);
}

// Deflation (constants relative to the scale of the problem, see kDeflationUlps): a component
// |y_j| below the threshold is dropped from the rank-one term.
void deflate(const std::vector<double> &lambda, const double *y, double ynorm2, double rho,
             Deflation &out) {
  const int64_t q = static_cast<int64_t>(lambda.size());
  double lam_max = 0.0;
  for (double l : lambda) lam_max = std::max(lam_max, std::fabs(l));
  const double ynorm = std::sqrt(ynorm2);
  const double ytol =
      kDeflationUlps * kEps * std::max(ynorm, lam_max / (std::fabs(rho) * ynorm));
  const double gaptol = kDeflationUlps * kEps * std::max(lam_max, std::fabs(rho) * ynorm2);
  out.lam.assign(lambda.begin(), lambda.end());
  out.yy.assign(y, y + q);
  out.kept.clear();
  out.deflated.clear();
  out.rotations.clear();
  std::vector<double> &lam = out.lam, &yy = out.yy;
  for (int64_t j = 0; j < q; ++j) {
    const size_t uj = static_cast<size_t>(j);
    if (std::fabs(yy[uj]) <= ytol) {
      yy[uj] = 0.0;
      out.deflated.push_back(j);
      continue;
    }
    if (!out.kept.empty() && could_deflate_pair(lam[static_cast<size_t>(out.kept.back())] - lam[uj],
                                                 yy[static_cast<size_t>(out.kept.back())], yy[uj],
                                                 gaptol)) {
      const size_t up = static_cast<size_t>(out.kept.back());
      const double r = std::hypot(yy[up], yy[uj]);
      const double c = yy[up] / r, s = yy[uj] / r;
      if ((lam[up] - lam[uj]) * std::fabs(c * s) <= gaptol) {
        const double high = lam[up], low = lam[uj];
        lam[up] = std::clamp(c * c * high + s * s * low, low, high);
        lam[uj] = std::clamp(s * s * high + c * c * low, low, high);
        yy[up] = r;
        yy[uj] = 0.0;
        out.rotations.push_back({out.kept.back(), j, c, s});
        out.deflated.push_back(j);
        continue;
      }
    }
    out.kept.push_back(j);
  }
}

// std::frexp, read from the bits for normal numbers (the Loewner products are: each stays within
// eight factors of 1 between renormalisations), which saves a library call per number.
double split_exponent(double x, int *exponent) {
  const uint64_t bits = std::bit_cast<uint64_t>(x);
  const uint64_t field = (bits >> 52) & 0x7ff;
  if (field == 0 || field == 0x7ff) return std::frexp(x, exponent);
  *exponent = static_cast<int>(field) - 1022;
  return std::bit_cast<double>((bits & ~(uint64_t{0x7ff} << 52)) | (uint64_t{1022} << 52));
}

// Loewner: the y for which the computed roots are exact (signs from yr), given the distances of
// the roots in the columns of delta (m x roots). Each factor is a ratio in (0, 1]; the numerators
// and denominators are multiplied separately (one division per coordinate instead of one per
// factor) and renormalised every few factors so that neither under- nor overflows. The products
// run over the roots k in the outer loop so that the inner loop walks down a column of delta
// (contiguous) with independent products per coordinate.
void loewner(const std::vector<double> &lr, const std::vector<double> &yr, const double *delta,
             double rho, LoewnerScratch &scratch, std::pmr::vector<double> &yhat) {
  const int64_t m = static_cast<int64_t>(lr.size());
  const int64_t interior = m > 0 ? m - 1 : 0;
  std::vector<double> &num = scratch.num, &den = scratch.den;
  std::vector<int> &exponent = scratch.exponent;
  yhat.resize(static_cast<size_t>(m));
  num.resize(static_cast<size_t>(m));
  den.assign(static_cast<size_t>(m), rho);
  exponent.assign(static_cast<size_t>(m), 0);
  for (int64_t j = 0; j < m; ++j) num[static_cast<size_t>(j)] = -delta[j + (m - 1) * m];
  // Coordinates j <= k take root k's lower pole, the others its upper one: two calls with a fixed
  // pole each, four coordinates at a time, where one loop choosing the pole per coordinate would
  // stay scalar.
  for (int64_t k = 0; k < interior; ++k) {
    const double *dk = delta + k * m;
    detail::loewner_factors(num.data(), den.data(), dk, lr[static_cast<size_t>(k + 1)],
                            lr.data(), 0, k + 1);
    detail::loewner_factors(num.data(), den.data(), dk, lr[static_cast<size_t>(k)], lr.data(),
                            k + 1, m);
    if ((k & 7) == 7) {
      for (size_t uj = 0; uj < num.size(); ++uj) {
        int en, ed;
        num[uj] = split_exponent(num[uj], &en);
        den[uj] = split_exponent(den[uj], &ed);
        exponent[uj] += en - ed;
      }
    }
  }
  for (size_t uj = 0; uj < yhat.size(); ++uj)
    yhat[uj] = std::copysign(std::sqrt(scale_by_power_of_two(num[uj] / den[uj], exponent[uj])), yr[uj]);
}

SecularFactors decompose(const std::vector<double> &lambda, const double *y, double rho,
                         SecularWorkspace::Buffers &ws, std::pmr::memory_resource *memory) {
  const double ynorm2 = check_input(lambda, y, rho);
  const int64_t q = static_cast<int64_t>(lambda.size());
  SecularFactors out(memory);
  out.dim = q;
  if (rho == 0.0 || ynorm2 == 0.0) {
    out.values.assign(lambda.begin(), lambda.end());
    out.y_used.assign(y, y + q);
    for (int64_t j = 0; j < q; ++j) out.sources.push_back(-1 - j);
    return out;
  }
  Deflation &defl = ws.deflation;
  deflate(lambda, y, ynorm2, rho, defl);

  // The secular equation on the kept coordinates (strictly decreasing eigenvalues).
  const int64_t m = static_cast<int64_t>(defl.kept.size());
  std::vector<double> &lr = ws.lr, &yr = ws.yr, &w = ws.w;
  lr.resize(static_cast<size_t>(m));
  yr.resize(static_cast<size_t>(m));
  w.resize(static_cast<size_t>(m));
  double wsum = 0.0;
  for (int64_t i = 0; i < m; ++i) {
    const size_t ui = static_cast<size_t>(i), uk = static_cast<size_t>(defl.kept[ui]);
    lr[ui] = defl.lam[uk];
    yr[ui] = defl.yy[uk];
    w[ui] = yr[ui] * yr[ui];
    wsum += w[ui];
  }
  const Secular f{lr, w, 1.0 / rho};
  const int64_t interior = m > 0 ? m - 1 : 0;
  const int64_t roots = m;
  // Column k (m values) holds root k's distances; every entry is written by its root's search.
  ws.delta.resize(static_cast<size_t>(m * roots));
  const auto delta = [&](int64_t k) { return ws.delta.data() + k * m; };
  std::vector<Root> &found = ws.found;
  found.resize(static_cast<size_t>(roots));
  solve_interior_roots(f, interior, ws.delta.data(), found.data());
  if (m > 0) {
    const double width = std::fabs(rho) * wsum;
    found[static_cast<size_t>(m - 1)] =
        rho < 0.0 ? solve_root(f, m - 1, -1, width, delta(m - 1))
                  : solve_root(f, -1, 0, width, delta(m - 1));
  }
  loewner(lr, yr, ws.delta.data(), rho, ws.loewner, out.loewner);

  // Columns: the roots and the deflated coordinates, sorted by eigenvalue, descending.
  std::vector<Column> &columns = ws.columns;
  columns.clear();
  for (int64_t k = 0; k < roots; ++k) {
    const Root &r = found[static_cast<size_t>(k)];
    columns.push_back({lr[static_cast<size_t>(r.origin)] + r.shift, k, columns.size()});
  }
  for (int64_t j : defl.deflated)
    columns.push_back({defl.lam[static_cast<size_t>(j)], -1 - j, columns.size()});
  std::sort(columns.begin(), columns.end(), [](const Column &x, const Column &z) {
    return x.value > z.value || (!(z.value > x.value) && x.place < z.place);
  });
  out.values.reserve(columns.size());
  out.sources.reserve(columns.size());
  for (const Column &c : columns) {
    out.values.push_back(c.value);
    out.sources.push_back(c.source);
  }

  out.y_used.assign(static_cast<size_t>(q), 0.0);
  for (int64_t i = 0; i < m; ++i)
    out.y_used[static_cast<size_t>(defl.kept[static_cast<size_t>(i)])] =
        out.loewner[static_cast<size_t>(i)];
  // Back to the input's coordinates: undo the rotations, last first.
  for (auto it = defl.rotations.rbegin(); it != defl.rotations.rend(); ++it) {
    double &xp = out.y_used[static_cast<size_t>(it->p)], &xj = out.y_used[static_cast<size_t>(it->j)];
    const double a = xp, b = xj;
    xp = it->c * a - it->s * b;
    xj = it->s * a + it->c * b;
  }
  out.origins.reserve(found.size());
  out.shifts.reserve(found.size());
  for (const Root &r : found) {
    out.origins.push_back(r.origin);
    out.shifts.push_back(r.shift);
  }
  out.poles.assign(lr.begin(), lr.end());
  out.kept.assign(defl.kept.begin(), defl.kept.end());
  out.rotations.assign(defl.rotations.begin(), defl.rotations.end());
  return out;
}

// The problem is homogeneous in (lambda, rho): the secular solver works on them scaled by a
// power of two (exact) to order 1, so that products and squares of eigenvalues near the ends of
// the double range (a bound B = 1e-150 or 1e150 gives eigenvalues near 1e-300 or 1e300) neither
// underflow nor overflow; the eigenvalues are scaled back, the vectors do not change.
SecularFactors decompose_scaled(const std::vector<double> &lambda, const double *y, double rho,
                                SecularWorkspace::Buffers &ws,
                                std::pmr::memory_resource *memory) {
  double largest = std::fabs(rho);
  for (double l : lambda) largest = std::max(largest, std::fabs(l));
  if (!(largest > 0.0) || !std::isfinite(largest))
    return decompose(lambda, y, rho, ws, memory);
  const int exponent = std::ilogb(largest);
  std::vector<double> &scaled = ws.scaled;
  scaled.resize(lambda.size());
  for (size_t j = 0; j < lambda.size(); ++j)
    scaled[j] = scale_by_power_of_two(lambda[j], -exponent);
  SecularFactors out =
      decompose(scaled, y, scale_by_power_of_two(rho, -exponent), ws, memory);
  for (double &v : out.values) v = scale_by_power_of_two(v, exponent);
  return out;
}

SecularEigen with_vectors(SecularFactors factors) {
  SecularEigen out;
  out.vectors = Matrix(factors.dim, static_cast<int64_t>(factors.values.size()));
  secular_vectors(factors, out.vectors.data(), std::max<int64_t>(1, factors.dim));
  out.values.assign(factors.values.begin(), factors.values.end());
  out.y_used.assign(factors.y_used.begin(), factors.y_used.end());
  return out;
}

// One eigenvector column when coordinates deflated: detail::eigenvector_column's entries, the
// same bits, in the kept rows kept_i. Forming the column in a buffer, then summing, then copying
// it to its rows gives the same bits in three passes.
void scattered_column(const double *poles, const double *loewner, double origin, double shift,
                      const int64_t *kept, int64_t m, double *col) {
  double lanes[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= m; i += kLanes)
    for (int64_t l = 0; l < kLanes; ++l) {
      const double v = loewner[i + l] / ((poles[i + l] - origin) - shift);
      col[kept[i + l]] = v;
      lanes[l] += v * v;
    }
  for (; i < m; ++i) {
    const double v = loewner[i] / ((poles[i] - origin) - shift);
    col[kept[i]] = v;
    lanes[0] += v * v;
  }
  const double scale = 1.0 / std::sqrt(lane_total(lanes));
  for (int64_t r = 0; r < m; ++r) col[kept[r]] *= scale;
}

}  // namespace

void secular_vectors(const SecularFactors &f, double *out, int64_t ld) {
  const int64_t q = f.dim, cols = static_cast<int64_t>(f.sources.size());
  const int64_t m = static_cast<int64_t>(f.poles.size());
  // The roots' columns write every kept row; the others need zeros (none when nothing deflated).
  if (m < q)
    for (int64_t c = 0; c < cols; ++c) std::fill(out + c * ld, out + c * ld + q, 0.0);
  const double *poles = f.poles.data(), *loewner = f.loewner.data();
  const int64_t *kept = f.kept.data();
  for (int64_t c = 0; c < cols; ++c) {
    const int64_t source = f.sources[static_cast<size_t>(c)];
    double *col = out + c * ld;
    if (source < 0) {
      col[-1 - source] = 1.0;
      continue;
    }
    const size_t root = static_cast<size_t>(source);
    const double origin = poles[f.origins[root]], shift = f.shifts[root];
    // Nothing deflated (kept is 0, 1, ..., q - 1) is the common case: rows written in order,
    // four at a time; otherwise the kept rows.
    if (m == q)
      detail::eigenvector_column(poles, loewner, origin, shift, m, col);
    else
      scattered_column(poles, loewner, origin, shift, kept, m, col);
  }
  // Back to the input's coordinates: undo the rotations, last first.
  for (auto it = f.rotations.rbegin(); it != f.rotations.rend(); ++it) {
    for (int64_t c = 0; c < cols; ++c) {
      double &xp = out[it->p + c * ld], &xj = out[it->j + c * ld];
      const double a = xp, b = xj;
      xp = it->c * a - it->s * b;
      xj = it->s * a + it->c * b;
    }
  }
}

SecularWorkspace::SecularWorkspace() : buffers_(std::make_unique<Buffers>()) {}
SecularWorkspace::~SecularWorkspace() = default;
SecularWorkspace::SecularWorkspace(SecularWorkspace &&) noexcept = default;
SecularWorkspace &SecularWorkspace::operator=(SecularWorkspace &&) noexcept = default;

SecularFactors rank_one_update_factors(const std::vector<double> &lambda, const double *y,
                                       double rho, SecularWorkspace &workspace,
                                       std::pmr::memory_resource *memory) {
  return decompose_scaled(lambda, y, rho, workspace.buffers(), memory);
}

SecularFactors rank_one_update_factors(const std::vector<double> &lambda, const double *y,
                                       double rho) {
  SecularWorkspace workspace;
  return rank_one_update_factors(lambda, y, rho, workspace);
}

SecularEigen rank_one_update_diagonal(const std::vector<double> &lambda, const double *y,
                                      double rho) {
  return with_vectors(rank_one_update_factors(lambda, y, rho));
}

}  // namespace dpcov::linalg
