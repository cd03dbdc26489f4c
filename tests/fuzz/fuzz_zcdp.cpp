// The zCDP releases on their own, with every argument fuzzed: Dong-Liang-Yi (all four variants),
// CoinPress covariance and mean (plan and release), the centring split, the zCDP <-> (epsilon,
// delta) conversions and the privacy units' row budgets. fuzz_solvers reaches the same calls among
// many others with valid layouts and receipts; here the layout, leading dimensions, generator, params and receipt struct sizes are
// fuzzed too, and every release is checked against the C ABI's promises:
// - every status is documented and every error has a message;
// - on error the output (its padding included) and the receipt are byte for byte unchanged, and
//   the generator is unchanged unless the status is one of a failure after the first draw
//   (refused, numerical, no convergence, not positive definite);
// - a release whose plan fails fails too, before any draw (generator unchanged); one whose plan
//   succeeds, on valid arguments and finite rows of any size, never fails before its first draw
//   (the refusal would depend on the data and leave the budget unspent);
// - on success the output is finite (a matrix exactly symmetric, its padding untouched), every
//   double of the receipt is finite, the receipt agrees with the plan's data-independent fields,
//   and the same seed gives the same output;
// - epsilon(rho(epsilon)) <= epsilon, epsilon never above Bun-Steinke's bound, the two shares of
//   the centring split positive and summing to at most rho.
#include <algorithm>
#include <cstddef>
#include <vector>

#include "fuzz_input.hpp"

namespace {

using Vec = std::vector<double>;
using Bytes = std::vector<unsigned char>;

// A seeded generator (seed from the input), or NULL.
class Generator {
 public:
  Generator(fuzz::Input &in) : seed_(in.raw<uint64_t>()), null_(in.range(0, 15) == 0) { reset(); }
  ~Generator() { dpcov_rng_destroy(&rng_); }
  Generator(const Generator &) = delete;
  Generator &operator=(const Generator &) = delete;
  dpcov_rng *get() { return rng_; }
  bool null() const { return null_; }
  // A fresh generator with the same seed.
  void reset() {
    dpcov_rng_destroy(&rng_);
    if (!null_) fuzz::require(dpcov_rng_create_seeded(&rng_, seed_, 1) == DPCOV_OK, "rng");
  }
  Bytes state() const {
    Bytes s(dpcov_rng_state_size());
    if (rng_) fuzz::require(dpcov_rng_state_save(rng_, s.data(), s.size()) == DPCOV_OK, "rng save");
    return s;
  }

 private:
  uint64_t seed_;
  bool null_;
  dpcov_rng *rng_ = nullptr;
};

bool valid_layout(int32_t layout) {
  return layout == DPCOV_ROW_MAJOR || layout == DPCOV_COL_MAJOR;
}

int32_t layout(fuzz::Input &in) {
  switch (in.range(0, 7)) {
    case 0:
      return static_cast<int32_t>(in.range(INT32_MIN, INT32_MAX));
    case 1:
    case 2:
    case 3:
      return DPCOV_COL_MAJOR;
    default:
      return DPCOV_ROW_MAJOR;
  }
}

// A leading dimension for a matrix whose inner extent is `inner`: mostly inner to inner + 2,
// sometimes one the library must refuse.
int64_t leading(fuzz::Input &in, int64_t inner) {
  return in.range(0, 7) == 0 ? in.range(-1, inner - 1) : inner + in.range(0, 2);
}

// Elements of a `count` x `inner` block with leading dimension ld (ld < inner: packed, as the
// library must refuse it without reading).
size_t extent(int64_t count, int64_t inner, int64_t ld) {
  return static_cast<size_t>(ld >= inner ? (count - 1) * ld + inner : count * inner);
}

// n x d rows in `layout` (an invalid layout stored row-major), sometimes scaled into the ball of
// radius `bound`; exactly as many elements as the layout and ld need.
struct Rows {
  int32_t layout;
  int64_t ld;
  Vec data;
  Rows(fuzz::Input &in, int64_t n, int64_t d, double bound) : layout(::layout(in)) {
    const bool col = layout == DPCOV_COL_MAJOR;
    ld = leading(in, col ? n : d);
    data.assign(extent(col ? d : n, col ? n : d, ld), 0.0);
    const int64_t step = std::max(ld, col ? n : d);
    auto at = [&](int64_t i, int64_t j) -> double & {
      return data[static_cast<size_t>(col ? i + j * step : i * step + j)];
    };
    if (ld < (col ? n : d)) {  // packed: the library must refuse ld before reading
      for (double &v : data) v = in.number();
      return;
    }
    const bool scaled = in.range(0, 1) && std::isfinite(bound) && bound > 0;
    for (int64_t i = 0; i < n; ++i) {
      double norm = 0;
      for (int64_t j = 0; j < d; ++j) norm = std::hypot(norm, at(i, j) = in.number());
      if (scaled && std::isfinite(norm) && norm > bound)
        for (int64_t j = 0; j < d; ++j) at(i, j) *= bound / norm;
    }
  }
  // A valid layout and leading dimension, and every entry finite: what the release must accept.
  bool acceptable(int64_t n, int64_t d) const {
    if (!valid_layout(layout) || ld < (layout == DPCOV_COL_MAJOR ? n : d)) return false;
    const int64_t step = layout == DPCOV_COL_MAJOR ? n : d;
    for (size_t k = 0; k < data.size(); ++k)
      if (static_cast<int64_t>(k % static_cast<size_t>(ld)) < step && !std::isfinite(data[k]))
        return false;
    return true;
  }
  // A release that succeeded had a valid layout and leading dimension.
  void check_accepted(int64_t n, int64_t d, const char *what) const {
    if (!valid_layout(layout) || ld < (layout == DPCOV_COL_MAJOR ? n : d))
      fuzz::violated("a bad layout or leading dimension accepted:", what);
  }
};

// A d x d output in the rows' layout with a fuzzed leading dimension, canary-filled.
struct Out {
  int64_t d, ld;
  Vec data;
  Out(fuzz::Input &in, int64_t d_) : d(d_), ld(leading(in, d_)) {
    data = fuzz::canaries(static_cast<size_t>(d * std::max(ld, d)));
  }
  // Symmetric and finite in the d x d block, canaries in the padding.
  void check_release(const char *what) const {
    fuzz::require(ld >= d, "a leading dimension below d accepted");
    fuzz::symmetric(data.data(), d, ld, what);
    for (size_t k = 0; k < data.size(); ++k)
      if (static_cast<int64_t>(k) % ld >= d &&
          std::memcmp(&data[k], &fuzz::kCanary, sizeof(double)) != 0)
        fuzz::violated("padding written:", what);
  }
};

bool after_draw(dpcov_status s) {
  return s == DPCOV_E_REFUSED || s == DPCOV_E_NUMERICAL || s == DPCOV_E_NO_CONVERGENCE ||
         s == DPCOV_E_NOT_POSITIVE_DEFINITE;
}

// The checks every release shares. `planned`: the plan's status on the same n, d and params;
// `acceptable`: every other argument valid and the data finite. Returns true on success.
bool check_release(dpcov_status s, dpcov_status planned, bool acceptable, const Vec &out,
                   const Generator &rng, const Bytes &before, const char *what) {
  fuzz::known_status(s);
  fuzz::message_on_error(s, what);
  if (s == DPCOV_OK) {
    if (planned != DPCOV_OK) fuzz::violated("release succeeded where its plan failed:", what);
    if (rng.null()) fuzz::violated("NULL generator accepted:", what);
    return true;
  }
  fuzz::unchanged(out, what);
  const bool drew = rng.state() != before;
  if ((planned != DPCOV_OK || !after_draw(s)) && drew)
    fuzz::violated("generator advanced by a refusal before the draw:", what);
  if (planned == DPCOV_OK && acceptable && !drew)
    fuzz::violated("a release whose plan and arguments are valid failed before its draw:", what);
  return false;
}

// n: mostly 1-12, sometimes anything (a release runs only up to 12 rows).
int64_t row_count(fuzz::Input &in) {
  return in.range(0, 7) == 0 ? in.range(INT64_MIN, INT64_MAX) : in.range(1, 12);
}
int64_t dimension(fuzz::Input &in) {
  static const int64_t bad[] = {-1, 0, 46341, INT64_MAX};
  return in.range(0, 15) == 0 ? bad[in.range(0, 3)] : in.range(1, 4);
}

// A params struct with its struct_size sometimes too small, or NULL.
template <class P>
const P *params_or_null(fuzz::Input &in, P &p) {
  if (in.range(0, 15) == 0) p.struct_size = static_cast<size_t>(in.range(0, sizeof p - 1));
  return in.range(0, 15) == 0 ? nullptr : &p;
}

void finite_fields(std::initializer_list<double> values, const char *what) {
  for (double v : values) fuzz::finite(&v, 1, what);
}

void dly(fuzz::Input &in) {
  const int64_t n = row_count(in), d = dimension(in);
  dpcov_dly_params p;
  fuzz::require(dpcov_dly_params_default(&p) == DPCOV_OK, "params");
  p.variant = static_cast<int32_t>(in.range(0, 7) == 0 ? in.range(-2, 5) : in.range(0, 3));
  p.rho = fuzz::budget(in);
  p.radius = fuzz::budget(in);
  p.beta = fuzz::probability(in);
  p.delta = fuzz::probability(in);
  const dpcov_dly_params *pp = params_or_null(in, p);
  const int32_t variant = pp ? p.variant : DPCOV_DLY_ADAPTIVE;
  const double radius = pp ? p.radius : 1.0;

  fuzz::Result<dpcov_dly_receipt> pr(in);
  const dpcov_status ps = dpcov_dly_plan(n, d, pp, pr.get());
  dpcov_dly_receipt plan{};
  plan.struct_size = sizeof plan;
  const dpcov_status planned =
      pr.check(ps, "dly plan") && pr.full() ? ps : dpcov_dly_plan(n, d, pp, &plan);
  if (ps == DPCOV_OK && pr.full()) plan = pr.value();
  if (planned == DPCOV_OK)
    finite_fields({plan.rho, plan.bound, plan.beta, plan.epsilon, plan.delta, plan.rho_covariance,
                   plan.trace_sigma, plan.svt_epsilon, plan.clip_radius, plan.sigma_matrix,
                   plan.sigma_eigenvalues, plan.histogram_sigma, plan.first_look_sigma},
                  "dly plan receipt");
  if (n < 1 || n > 12 || d < 1 || d > 4) return;

  const Rows a(in, n, d, radius);
  Out out(in, d);
  Generator rng(in);
  fuzz::Result<dpcov_dly_receipt> rr(in);
  const Bytes before = rng.state();
  const dpcov_status s = dpcov_dly_release(a.layout, n, d, a.data.data(), a.ld, pp, rng.get(),
                                           out.data.data(), out.ld, rr.get());
  const bool ok = rr.check(s, "dly release");
  const bool acceptable = a.acceptable(n, d) && out.ld >= d && !rng.null() && rr.acceptable();
  if (!check_release(s, planned, acceptable, out.data, rng, before, "dly release") || !ok) return;
  a.check_accepted(n, d, "dly release");
  out.check_release("dly release");
  if (!rr.full()) return;
  const dpcov_dly_receipt r = rr.value();
  finite_fields(
      {r.rho, r.bound, r.beta, r.epsilon, r.delta, r.rho_covariance, r.trace_sigma, r.svt_epsilon,
       r.clip_radius, r.sigma_matrix, r.sigma_eigenvalues, r.histogram_sigma, r.first_look_sigma},
      "dly release receipt");
  fuzz::require(r.n == n && r.dim == d && r.rho == plan.rho && r.epsilon == plan.epsilon &&
                    r.delta == plan.delta && r.first_look_sigma == plan.first_look_sigma,
                "dly: receipt differs from its plan");
  // A first look that settled the radius released no trace and no second look.
  const bool settled = r.first_look_settled == 1;
  fuzz::require(r.trace_sigma == (settled ? 0.0 : plan.trace_sigma) &&
                    r.histogram_sigma == (settled ? 0.0 : plan.histogram_sigma),
                "dly: trace or second-look sigma differs from its plan");
  fuzz::require((r.branch == DPCOV_DLY_GAUSS || r.branch == DPCOV_DLY_SEPARATE) &&
                    r.clip_radius > 0 && r.clip_radius <= r.bound && r.seed_fixed == 1,
                "dly: branch, clip radius or seed_fixed");
  if (variant == DPCOV_DLY_GAUSS || variant == DPCOV_DLY_SEPARATE)
    fuzz::require(r.branch == variant && r.clip_radius == plan.clip_radius &&
                      r.sigma_matrix == plan.sigma_matrix &&
                      r.sigma_eigenvalues == plan.sigma_eigenvalues,
                  "dly: the fixed branch's noise differs from its plan");
  // The same seed, the same release.
  const Vec first = out.data;
  rng.reset();
  dpcov_dly_receipt again{};
  again.struct_size = sizeof again;
  fuzz::require(dpcov_dly_release(a.layout, n, d, a.data.data(), a.ld, pp, rng.get(),
                                  out.data.data(), out.ld, &again) == DPCOV_OK &&
                    std::memcmp(first.data(), out.data.data(), first.size() * sizeof(double)) == 0,
                "dly: the same seed gave another release");
}

void coinpress(fuzz::Input &in) {
  const int64_t n = row_count(in), d = dimension(in);
  dpcov_coinpress_params p;
  fuzz::require(dpcov_coinpress_params_default(&p) == DPCOV_OK, "params");
  p.rho = fuzz::budget(in);
  p.k_bound = in.range(0, 3) == 0 ? in.number() : 1.0 + in.positive();
  p.steps = in.range(0, 7) == 0 ? in.range(INT64_MIN, INT64_MAX) : in.range(1, 4);
  p.beta = fuzz::probability(in);
  p.delta = fuzz::probability(in);
  const dpcov_coinpress_params *pp = params_or_null(in, p);

  fuzz::Result<dpcov_coinpress_receipt> pr(in);
  const dpcov_status ps = dpcov_coinpress_plan(n, d, pp, pr.get());
  if (!pp) fuzz::require(ps != DPCOV_OK, "coinpress plan: NULL params accepted");
  dpcov_coinpress_receipt plan{};
  plan.struct_size = sizeof plan;
  const dpcov_status planned =
      pr.check(ps, "coinpress plan") && pr.full() ? ps : dpcov_coinpress_plan(n, d, pp, &plan);
  if (ps == DPCOV_OK && pr.full()) plan = pr.value();
  if (planned == DPCOV_OK) {
    fuzz::require(plan.steps >= 1 && plan.steps <= DPCOV_COINPRESS_MAX_STEPS, "coinpress steps");
    finite_fields(
        {plan.rho, plan.k_bound, plan.beta, plan.clip_radius, plan.eta, plan.epsilon, plan.delta},
        "coinpress plan receipt");
    fuzz::finite(plan.step_rho, DPCOV_COINPRESS_MAX_STEPS, "coinpress plan step_rho");
    fuzz::finite(plan.step_sigma, DPCOV_COINPRESS_MAX_STEPS, "coinpress plan step_sigma");
    long double spent = 0;
    for (int64_t i = 0; i < plan.steps; ++i) {
      fuzz::require(plan.step_rho[i] > 0 && plan.step_sigma[i] > 0,
                    "coinpress: a step without noise");
      spent += plan.step_rho[i];
    }
    fuzz::require(spent <= plan.rho, "coinpress: the steps spend more than rho");
  }
  if (n < 1 || n > 12 || d < 1 || d > 4) return;

  const Rows a(in, n, d, 1e300);
  Out out(in, d);
  Generator rng(in);
  fuzz::Result<dpcov_coinpress_receipt> rr(in);
  const Bytes before = rng.state();
  const dpcov_status s = dpcov_coinpress_release(a.layout, n, d, a.data.data(), a.ld, pp, rng.get(),
                                                 out.data.data(), out.ld, rr.get());
  const bool ok = rr.check(s, "coinpress release");
  const bool acceptable = a.acceptable(n, d) && out.ld >= d && !rng.null() && rr.acceptable();
  if (!check_release(s, planned, acceptable, out.data, rng, before, "coinpress release") || !ok)
    return;
  a.check_accepted(n, d, "coinpress release");
  out.check_release("coinpress release");
  if (!rr.full()) return;
  const dpcov_coinpress_receipt r = rr.value();
  fuzz::require(r.n == n && r.dim == d && r.steps == plan.steps && r.epsilon == plan.epsilon &&
                    r.clip_radius == plan.clip_radius && r.eta == plan.eta && r.seed_fixed == 1 &&
                    std::memcmp(r.step_rho, plan.step_rho, sizeof r.step_rho) == 0 &&
                    std::memcmp(r.step_sigma, plan.step_sigma, sizeof r.step_sigma) == 0,
                "coinpress: receipt differs from its plan");
  const Vec first = out.data;
  rng.reset();
  dpcov_coinpress_receipt again{};
  again.struct_size = sizeof again;
  fuzz::require(dpcov_coinpress_release(a.layout, n, d, a.data.data(), a.ld, pp, rng.get(),
                                        out.data.data(), out.ld, &again) == DPCOV_OK &&
                    std::memcmp(first.data(), out.data.data(), first.size() * sizeof(double)) == 0,
                "coinpress: the same seed gave another release");
}

void coinpress_mean(fuzz::Input &in) {
  const int64_t n = row_count(in), d = dimension(in);
  dpcov_coinpress_mean_params p;
  fuzz::require(dpcov_coinpress_mean_params_default(&p) == DPCOV_OK, "params");
  p.rho = fuzz::budget(in);
  p.radius = in.range(0, 3) == 0 ? in.number() : in.positive();
  p.scale = in.range(0, 3) == 0 ? in.number() : in.positive();
  p.steps = in.range(0, 7) == 0 ? in.range(INT64_MIN, INT64_MAX) : in.range(1, 4);
  p.beta = fuzz::probability(in);
  p.delta = fuzz::probability(in);
  const dpcov_coinpress_mean_params *pp = params_or_null(in, p);

  using MeanReceipt = dpcov_coinpress_mean_receipt;
  fuzz::Result<MeanReceipt> pr(in);
  const dpcov_status ps = dpcov_coinpress_mean_plan(n, d, pp, pr.get());
  if (!pp) fuzz::require(ps != DPCOV_OK, "coinpress mean plan: NULL params accepted");
  dpcov_coinpress_mean_receipt plan{};
  plan.struct_size = sizeof plan;
  const dpcov_status planned = pr.check(ps, "coinpress mean plan") && pr.full()
                                   ? ps
                                   : dpcov_coinpress_mean_plan(n, d, pp, &plan);
  if (ps == DPCOV_OK && pr.full()) plan = pr.value();
  if (planned == DPCOV_OK) {
    fuzz::require(plan.steps >= 1 && plan.steps <= DPCOV_COINPRESS_MAX_STEPS,
                  "coinpress mean steps");
    finite_fields(
        {plan.rho, plan.radius, plan.scale, plan.beta, plan.tail_radius, plan.epsilon, plan.delta},
        "coinpress mean plan receipt");
    fuzz::finite(plan.step_rho, DPCOV_COINPRESS_MAX_STEPS, "coinpress mean plan step_rho");
    fuzz::finite(plan.step_clip_radius, DPCOV_COINPRESS_MAX_STEPS, "coinpress mean plan R");
    fuzz::finite(plan.step_sigma, DPCOV_COINPRESS_MAX_STEPS, "coinpress mean plan step_sigma");
    long double spent = 0;
    for (int64_t i = 0; i < plan.steps; ++i) {
      fuzz::require(plan.step_rho[i] > 0 && plan.step_sigma[i] > 0,
                    "coinpress mean: a step without noise");
      spent += plan.step_rho[i];
    }
    fuzz::require(spent <= plan.rho, "coinpress mean: the steps spend more than rho");
  }
  if (n < 1 || n > 12 || d < 1 || d > 4) return;

  const Rows a(in, n, d, 1e300);
  Vec centre(static_cast<size_t>(d));
  for (double &v : centre) v = in.number();
  const bool origin = in.range(0, 1) == 0;
  Vec out = fuzz::canaries(static_cast<size_t>(d));
  Generator rng(in);
  fuzz::Result<MeanReceipt> rr(in);
  const Bytes before = rng.state();
  const dpcov_status s = dpcov_coinpress_mean_release(a.layout, n, d, a.data.data(), a.ld,
                                                      origin ? nullptr : centre.data(), pp,
                                                      rng.get(), out.data(), rr.get());
  const bool ok = rr.check(s, "coinpress mean release");
  const bool acceptable =
      a.acceptable(n, d) && !rng.null() && rr.acceptable() &&
      (origin || std::all_of(centre.begin(), centre.end(), [](double v) { return std::isfinite(v); }));
  if (!check_release(s, planned, acceptable, out, rng, before, "coinpress mean release") || !ok)
    return;
  a.check_accepted(n, d, "coinpress mean release");
  fuzz::finite(out.data(), out.size(), "coinpress mean");
  if (!rr.full()) return;
  const dpcov_coinpress_mean_receipt r = rr.value();
  fuzz::require(
      r.n == n && r.dim == d && r.steps == plan.steps && r.epsilon == plan.epsilon &&
          r.tail_radius == plan.tail_radius && r.seed_fixed == 1 &&
          std::memcmp(r.step_rho, plan.step_rho, sizeof r.step_rho) == 0 &&
          std::memcmp(r.step_clip_radius, plan.step_clip_radius, sizeof r.step_clip_radius) == 0 &&
          std::memcmp(r.step_sigma, plan.step_sigma, sizeof r.step_sigma) == 0,
      "coinpress mean: receipt differs from its plan");
  const Vec first = out;
  rng.reset();
  dpcov_coinpress_mean_receipt again{};
  again.struct_size = sizeof again;
  fuzz::require(dpcov_coinpress_mean_release(a.layout, n, d, a.data.data(), a.ld,
                                             origin ? nullptr : centre.data(), pp, rng.get(),
                                             out.data(), &again) == DPCOV_OK &&
                    std::memcmp(first.data(), out.data(), first.size() * sizeof(double)) == 0,
                "coinpress mean: the same seed gave another release");
}

// One output double, canary-filled, or NULL.
struct Scalar {
  double value = fuzz::kCanary;
  bool null;
  explicit Scalar(fuzz::Input &in) : null(in.range(0, 15) == 0) {}
  double *get() { return null ? nullptr : &value; }
  // The status is known, a NULL output never accepted, the value untouched on error with a
  // message, finite on success.
  bool check(dpcov_status s, const char *what) const {
    fuzz::known_status(s);
    fuzz::message_on_error(s, what);
    if (s != DPCOV_OK) {
      if (std::memcmp(&value, &fuzz::kCanary, sizeof value) != 0)
        fuzz::violated("output changed on error:", what);
      return false;
    }
    if (null) fuzz::violated("NULL output accepted:", what);
    fuzz::finite(&value, 1, what);
    return true;
  }
};

void conversions(fuzz::Input &in) {
  const double rho = fuzz::budget(in), delta = fuzz::probability(in), eps = fuzz::budget(in);
  char detail[128];
  // epsilon in [0, Bun-Steinke's rho + 2 sqrt(rho ln(1/delta))] (a few ulps of slack for its
  // rounding in long double).
  Scalar e(in);
  if (e.check(dpcov_zcdp_epsilon(rho, delta, e.get()), "zcdp epsilon")) {
    const long double bun_steinke = rho + 2 * std::sqrt(static_cast<long double>(rho) *
                                                        -std::log(static_cast<long double>(delta)));
    if (!(e.value >= 0 && e.value <= bun_steinke * (1 + 1e-15L))) {
      std::snprintf(detail, sizeof detail, "rho %a delta %a -> %a", rho, delta, e.value);
      fuzz::violated("zcdp epsilon outside [0, Bun-Steinke]:", detail);
    }
  }
  // rho(epsilon) > 0, and its epsilon never above the epsilon asked for.
  Scalar r(in);
  if (r.check(dpcov_zcdp_rho(eps, delta, r.get()), "zcdp rho")) {
    double back = fuzz::kCanary;
    const dpcov_status b = dpcov_zcdp_epsilon(r.value, delta, &back);
    if (!(r.value > 0 && b == DPCOV_OK && back <= eps)) {
      std::snprintf(detail, sizeof detail, "eps %a delta %a -> rho %a -> %d eps %a", eps, delta,
                    r.value, b, back);
      fuzz::violated("zcdp rho spends more than epsilon:", detail);
    }
  }
  // The centring split: two positive shares whose exact sum is at most rho.
  Scalar mean(in), covariance(in);
  const dpcov_status s = dpcov_coinpress_centring_split(rho, mean.get(), covariance.get());
  const bool m = mean.check(s, "centring split mean"),
             c = covariance.check(s, "centring split covariance");
  if (m && c &&
      !(mean.value > 0 && covariance.value > 0 &&
        static_cast<long double>(mean.value) + covariance.value <= rho)) {
    std::snprintf(detail, sizeof detail, "rho %a -> %a + %a", rho, mean.value, covariance.value);
    fuzz::violated("centring split:", detail);
  }
}

// Privacy units by group privacy (dpcov/unit_budget.h): over the m steps a unit of k rows is
// (k, or 2 k for a unit replaced under an add/remove mechanism), m epsilon_r <= epsilon, delta_r
// <= delta and m^2 rho_r <= rho.
void unit_budgets(fuzz::Input &in) {
  const int32_t unit = static_cast<int32_t>(in.range(-1, 2));
  const int32_t row = static_cast<int32_t>(in.range(-1, 2));
  const int64_t k = in.range(0, 3) == 0 ? in.range(INT64_MIN, INT64_MAX) : in.range(0, 1 << 21);
  const double eps = fuzz::budget(in), delta = fuzz::probability(in), rho = fuzz::budget(in);
  const long double m =
      static_cast<long double>(k) * (unit == DPCOV_NEIGHBOUR_REPLACE_ONE &&
                                             row == DPCOV_NEIGHBOUR_ADD_REMOVE
                                         ? 2
                                         : 1);
  char detail[160];
  Scalar e(in), d(in);
  const dpcov_status s = dpcov_unit_row_budget(unit, row, k, eps, delta, e.get(), d.get());
  const bool ok_e = e.check(s, "unit row epsilon"), ok_d = d.check(s, "unit row delta");
  if (ok_e && ok_d && !(e.value > 0 && m * e.value <= eps && d.value >= 0 && d.value <= delta)) {
    std::snprintf(detail, sizeof detail, "%d %d k %lld eps %a delta %a -> %a %a", unit, row,
                  static_cast<long long>(k), eps, delta, e.value, d.value);
    fuzz::violated("unit row budget over the unit's:", detail);
  }
  Scalar r(in);
  if (r.check(dpcov_unit_row_rho(unit, row, k, rho, r.get()), "unit row rho") &&
      !(r.value > 0 && m * m * r.value <= rho)) {
    std::snprintf(detail, sizeof detail, "%d %d k %lld rho %a -> %a", unit, row,
                  static_cast<long long>(k), rho, r.value);
    fuzz::violated("unit row rho over the unit's:", detail);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::Input in(data, size);
  switch (in.range(0, 4)) {
    case 0:
      dly(in);
      break;
    case 1:
      coinpress(in);
      break;
    case 2:
      coinpress_mean(in);
      break;
    case 3:
      conversions(in);
      break;
    default:
      unit_budgets(in);
      break;
  }
  return 0;
}
