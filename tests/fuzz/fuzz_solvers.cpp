// The C entry points the other targets do not reach: CoinPress (covariance and mean),
// Dong-Liang-Yi, exact numerics, AdaSSP (plan, fit, intervals), the OLS releases and intervals,
// the graphical lasso (plain and private), the PCA error bound, the metrics, column bounds and
// centring, the ledger (receipts and zCDP charges) and public receipts, zCDP conversion, the
// private bound, the log-densities, the audit on a given pair and the generator's remaining calls.
// Each call gets fuzzed shapes, values and budgets. On error the canary outputs are unchanged; on
// success they are finite (symmetric ones exactly symmetric); plan and release agree where the
// release does not depend on the data.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "fuzz_input.hpp"

namespace {

using Vec = std::vector<double>;

dpcov_rng *seeded() {
  dpcov_rng *rng = nullptr;
  fuzz::require(dpcov_rng_create_seeded(&rng, 7, 1) == DPCOV_OK, "rng");
  return rng;
}

void finite_or_unchanged(dpcov_status s, const Vec &v, const char *what) {
  fuzz::known_status(s);
  if (s == DPCOV_OK) fuzz::finite(v.data(), v.size(), what);
  else fuzz::unchanged(v, what);
}

// A budget: mostly valid, sometimes anything (fuzz::budget; probability is fuzz::probability).
double epsilon(fuzz::Input &in) { return fuzz::budget(in); }

// n rows of d fuzzed values (row-major), sometimes scaled into the ball of radius bound.
Vec rows(fuzz::Input &in, int64_t n, int64_t d, double bound) {
  Vec a(static_cast<size_t>(std::max<int64_t>(n, 0) * d));
  for (double &v : a) v = in.number();
  if (in.range(0, 1) && std::isfinite(bound) && bound > 0)
    for (int64_t i = 0; i < n; ++i) {
      double norm = 0;
      for (int64_t j = 0; j < d; ++j) norm = std::hypot(norm, a[static_cast<size_t>(i * d + j)]);
      if (std::isfinite(norm) && norm > bound)
        for (int64_t j = 0; j < d; ++j) a[static_cast<size_t>(i * d + j)] *= bound / norm;
    }
  return a;
}

// A d x d symmetric matrix: the Gram matrix of n rows, or fuzzed entries.
Vec gram(fuzz::Input &in, int64_t d, int64_t n, double bound) {
  Vec g(static_cast<size_t>(d * d), 0.0);
  if (in.range(0, 1)) {
    const Vec a = rows(in, n, d, bound);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < d; ++j)
        for (int64_t k = 0; k < d; ++k)
          g[static_cast<size_t>(j * d + k)] +=
              a[static_cast<size_t>(i * d + j)] * a[static_cast<size_t>(i * d + k)];
  } else {
    for (int64_t i = 0; i < d; ++i)
      for (int64_t j = i; j < d; ++j)
        g[static_cast<size_t>(i * d + j)] = g[static_cast<size_t>(j * d + i)] = in.number();
  }
  return g;
}

void coinpress(fuzz::Input &in) {
  const int64_t d = in.range(1, 3), n = in.range(0, 3) == 0 ? in.range(-1, INT64_MAX) : in.range(1, 12);
  dpcov_coinpress_params p;
  fuzz::require(dpcov_coinpress_params_default(&p) == DPCOV_OK, "params");
  p.rho = epsilon(in);
  p.k_bound = in.range(0, 3) == 0 ? in.number() : 1.0 + in.positive();
  p.steps = in.range(0, 3) == 0 ? in.range(-1, 20) : in.range(1, 4);
  p.beta = probability(in);
  p.delta = probability(in);
  dpcov_coinpress_receipt planned{};
  planned.struct_size = sizeof planned;
  const dpcov_status ps = dpcov_coinpress_plan(n, d, &p, &planned);
  fuzz::known_status(ps);
  if (ps == DPCOV_OK) {
    fuzz::finite(&planned.epsilon, 1, "coinpress epsilon");
    fuzz::finite(planned.step_sigma, static_cast<size_t>(planned.steps), "coinpress sigma");
  }
  if (n > 12) return;
  const Vec a = rows(in, n, d, 1e300);
  Vec out = fuzz::canaries(static_cast<size_t>(d * d));
  dpcov_coinpress_receipt released{};
  released.struct_size = sizeof released;
  dpcov_rng *rng = seeded();
  const dpcov_status rs = dpcov_coinpress_release(DPCOV_ROW_MAJOR, n, d, a.data(), d, &p, rng,
                                                  out.data(), d, &released);
  dpcov_rng_destroy(&rng);
  fuzz::known_status(rs);
  if (ps != DPCOV_OK && rs != ps) fuzz::violated("coinpress: plan failed, release differs");
  if (rs == DPCOV_OK) fuzz::symmetric(out.data(), d, d, "coinpress");
  else fuzz::unchanged(out, "coinpress");
}

// CoinPress mean: priors and settings over the whole double range, rows up to 1e300 (their
// offsets from a fuzzed centre may overflow), the centre fuzzed or NULL.
void coinpress_mean(fuzz::Input &in) {
  const int64_t d = in.range(1, 3), n = in.range(0, 3) == 0 ? in.range(-1, INT64_MAX) : in.range(1, 12);
  dpcov_coinpress_mean_params p;
  fuzz::require(dpcov_coinpress_mean_params_default(&p) == DPCOV_OK, "params");
  p.rho = epsilon(in);
  p.radius = in.range(0, 3) == 0 ? in.number() : in.positive();
  p.scale = in.range(0, 3) == 0 ? in.number() : in.positive();
  p.steps = in.range(0, 3) == 0 ? in.range(-1, 20) : in.range(1, 4);
  p.beta = probability(in);
  p.delta = probability(in);
  dpcov_coinpress_mean_receipt planned{};
  planned.struct_size = sizeof planned;
  const dpcov_status ps = dpcov_coinpress_mean_plan(n, d, &p, &planned);
  fuzz::known_status(ps);
  if (ps == DPCOV_OK) {
    fuzz::finite(&planned.epsilon, 1, "coinpress mean epsilon");
    fuzz::finite(planned.step_sigma, static_cast<size_t>(planned.steps), "coinpress mean sigma");
    fuzz::finite(planned.step_clip_radius, static_cast<size_t>(planned.steps), "coinpress mean R");
  }
  // The budget split of a centred CoinPress release: two positive shares, each below rho.
  Vec shares = fuzz::canaries(2);
  const dpcov_status ss = dpcov_coinpress_centring_split(p.rho, &shares[0], &shares[1]);
  finite_or_unchanged(ss, shares, "coinpress centring split");
  if (ss == DPCOV_OK)
    fuzz::require(shares[0] > 0 && shares[1] > 0 && shares[0] < p.rho && shares[1] < p.rho,
                  "coinpress centring split: shares out of (0, rho)");
  if (n > 12) return;
  const Vec a = rows(in, n, d, 1e300);
  Vec centre(static_cast<size_t>(d));
  for (double &v : centre) v = in.number();
  const bool origin = in.range(0, 1) == 0;
  Vec out = fuzz::canaries(static_cast<size_t>(d));
  dpcov_coinpress_mean_receipt released{};
  released.struct_size = sizeof released;
  dpcov_rng *rng = seeded();
  const dpcov_status rs = dpcov_coinpress_mean_release(
      DPCOV_ROW_MAJOR, n, d, a.data(), d, origin ? nullptr : centre.data(), &p, rng, out.data(),
      &released);
  dpcov_rng_destroy(&rng);
  if (ps != DPCOV_OK && rs != ps) fuzz::violated("coinpress mean: plan failed, release differs");
  if (rs == DPCOV_OK) finite_or_unchanged(rs, out, "coinpress mean");
  else {
    fuzz::known_status(rs);
    fuzz::unchanged(out, "coinpress mean");
  }
}

void dly(fuzz::Input &in) {
  const int64_t d = in.range(1, 3), n = in.range(0, 3) == 0 ? in.range(-1, INT64_MAX) : in.range(1, 12);
  dpcov_dly_params p;
  fuzz::require(dpcov_dly_params_default(&p) == DPCOV_OK, "params");
  p.variant = static_cast<int32_t>(in.range(0, 3) == 0 ? in.range(-1, 3) : in.range(0, 2));
  p.rho = epsilon(in);
  p.radius = epsilon(in);
  p.beta = probability(in);
  p.delta = probability(in);
  dpcov_dly_receipt planned{};
  planned.struct_size = sizeof planned;
  const dpcov_status ps = dpcov_dly_plan(n, d, &p, &planned);
  fuzz::known_status(ps);
  if (ps == DPCOV_OK) {
    fuzz::finite(&planned.epsilon, 1, "dly epsilon");
    fuzz::finite(&planned.trace_sigma, 1, "dly trace sigma");
  }
  if (n > 12) return;
  const Vec a = rows(in, n, d, p.radius);
  Vec out = fuzz::canaries(static_cast<size_t>(d * d));
  dpcov_dly_receipt released{};
  released.struct_size = sizeof released;
  dpcov_rng *rng = seeded();
  const dpcov_status rs =
      dpcov_dly_release(DPCOV_ROW_MAJOR, n, d, a.data(), d, &p, rng, out.data(), d, &released);
  dpcov_rng_destroy(&rng);
  fuzz::known_status(rs);
  if (ps != DPCOV_OK && rs != ps) fuzz::violated("dly: plan failed, release differs");
  if (rs == DPCOV_OK) {
    fuzz::symmetric(out.data(), d, d, "dly");
    fuzz::finite(&released.sigma_matrix, 1, "dly sigma");
  } else {
    fuzz::unchanged(out, "dly");
  }
}

void exact(fuzz::Input &in) {
  const int32_t mechanism = static_cast<int32_t>(in.range(0, 3) == 0 ? in.range(0, 14) : in.range(1, 2));
  const int64_t d = in.range(1, 3), n = in.range(0, 6);
  const double bound = epsilon(in), eps = epsilon(in), delta = probability(in);
  dpcov_mechanism_params p;
  fuzz::require(dpcov_mechanism_params_default(&p) == DPCOV_OK, "params");
  p.neighbour = static_cast<int32_t>(in.range(0, 1));
  dpcov_receipt planned{};
  planned.struct_size = sizeof planned;
  dpcov_exact_grid pgrid{};
  pgrid.struct_size = sizeof pgrid;
  const dpcov_status ps = dpcov_exact_plan(mechanism, d, n, bound, eps, delta, &p, &planned, &pgrid);
  fuzz::known_status(ps);
  if (ps == DPCOV_OK) fuzz::finite(&pgrid.unit, 1, "exact unit");
  // A coordinate on the grid: the plan's bits or anything, a value within the bound or anything.
  const int32_t bits = ps == DPCOV_OK && in.range(0, 1) ? pgrid.bits
                                                       : static_cast<int32_t>(in.range(-2, 33));
  const double value = in.range(0, 1) ? bound * (2.0 * probability(in) - 1.0) : in.number();
  Vec held = fuzz::canaries(1);
  const dpcov_status gs = dpcov_exact_grid_value(bound, bits, value, held.data());
  finite_or_unchanged(gs, held, "exact grid value");
  if (gs == DPCOV_OK && !(std::fabs(held[0]) <= bound)) fuzz::violated("exact grid value above B");
  const Vec a = rows(in, n, d, bound);
  Vec out = fuzz::canaries(static_cast<size_t>(d * d));
  dpcov_receipt released{};
  released.struct_size = sizeof released;
  dpcov_exact_grid rgrid{};
  rgrid.struct_size = sizeof rgrid;
  dpcov_rng *rng = seeded();
  const std::vector<unsigned char> before = fuzz::rng_state(rng);
  const int32_t policy = static_cast<int32_t>(in.range(0, 1));
  const dpcov_status rs = dpcov_exact_release_rows(mechanism, DPCOV_ROW_MAJOR, n, d, a.data(), d,
                                                   bound, policy, eps, delta, &p, rng, out.data(),
                                                   d, &released, &rgrid);
  fuzz::charged_if_drawn(rs, before, rng, "exact release");
  dpcov_rng_destroy(&rng);
  fuzz::known_status(rs);
  if (ps != DPCOV_OK && rs != ps) fuzz::violated("exact: plan failed, release differs");
  if (rs == DPCOV_OK) fuzz::symmetric(out.data(), d, d, "exact");
  else fuzz::unchanged(out, "exact");
}

// The exact accumulator: fuzzed chunks into two accumulators of one plan (some refused, which
// changes nothing), merged, released; on error the canaries and the generator are unchanged.
void exact_gram(fuzz::Input &in) {
  const int32_t mechanism = static_cast<int32_t>(in.range(0, 3) == 0 ? in.range(0, 14) : in.range(1, 2));
  const int64_t d = in.range(0, 3);
  const double bound = epsilon(in), eps = epsilon(in), delta = probability(in);
  const int32_t policy = static_cast<int32_t>(in.range(-1, 2));
  dpcov_exact_gram *acc = nullptr, *other = nullptr;
  const dpcov_status cs =
      dpcov_exact_gram_create(&acc, mechanism, d, bound, policy, eps, delta, nullptr);
  fuzz::known_status(cs);
  if (cs != DPCOV_OK) {
    if (acc != nullptr) fuzz::violated("exact_gram_create: handle written on error");
    return;
  }
  fuzz::require(dpcov_exact_gram_create(&other, mechanism, d, bound, policy, eps, delta,
                                        nullptr) == DPCOV_OK,
                "exact_gram_create: the same arguments twice");
  for (int64_t k = in.range(0, 3); k > 0; --k) {
    const int64_t n = in.range(0, 5);
    const Vec a = rows(in, n, d, bound);
    fuzz::known_status(dpcov_exact_gram_add_rows(in.range(0, 1) ? acc : other, DPCOV_ROW_MAJOR, n,
                                                 d, a.data(), d));
  }
  fuzz::known_status(dpcov_exact_gram_merge(acc, other));
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  fuzz::require(dpcov_exact_gram_get_info(acc, &info) == DPCOV_OK && info.rows >= 0 &&
                    info.clipped <= info.rows,
                "exact_gram_get_info");
  Vec out = fuzz::canaries(static_cast<size_t>(d * d));
  dpcov_receipt released{};
  released.struct_size = sizeof released;
  dpcov_exact_grid grid{};
  grid.struct_size = sizeof grid;
  dpcov_rng *rng = seeded();
  const std::vector<unsigned char> before = fuzz::rng_state(rng);
  const dpcov_status rs = dpcov_exact_gram_release(acc, rng, out.data(), d, &released, &grid);
  fuzz::charged_if_drawn(rs, before, rng, "exact_gram release");
  dpcov_rng_destroy(&rng);
  dpcov_exact_gram_destroy(&acc);
  dpcov_exact_gram_destroy(&other);
  fuzz::known_status(rs);
  if (rs == DPCOV_OK) fuzz::symmetric(out.data(), d, d, "exact_gram");
  else fuzz::unchanged(out, "exact_gram");
}

// The robust intervals after a fit: the plan at the fuzzed bounds and budget, the meat's rows of
// fuzzed rows at the fit's coefficients, and the intervals from a fuzzed symmetric meat.
// The profile intervals of a release: homoscedastic, or with a meat of any entries.
void adassp_profile(fuzz::Input &in, const Vec &xtx, const Vec &xty,
                    const dpcov_adassp_receipt &receipt, int64_t rows_n, double level) {
  const auto p = static_cast<int64_t>(xty.size());
  Vec meat(static_cast<size_t>(p * p));
  for (int64_t i = 0; i < p; ++i)
    for (int64_t j = 0; j <= i; ++j)
      meat[static_cast<size_t>(i * p + j)] = meat[static_cast<size_t>(j * p + i)] = in.number();
  const bool robust = in.range(0, 1) == 1;
  Vec c = fuzz::canaries(static_cast<size_t>(p)), pv = c, lo = c, hi = c;
  std::vector<int32_t> conclusive(static_cast<size_t>(p), -7);
  const dpcov_status s = dpcov_adassp_profile_intervals(
      DPCOV_ROW_MAJOR, p, xtx.data(), p, xty.data(), rows_n, &receipt,
      robust ? meat.data() : nullptr, p, in.range(-2, p), level, c.data(), pv.data(), lo.data(),
      hi.data(), conclusive.data());
  for (const Vec *v : {&c, &pv, &lo, &hi}) finite_or_unchanged(s, *v, "adassp profile");
  for (size_t j = 0; j < conclusive.size(); ++j) {
    fuzz::require(s == DPCOV_OK ? conclusive[j] == 0 || conclusive[j] == 1 : conclusive[j] == -7,
                  "adassp profile: conclusive written on success only");
    if (s == DPCOV_OK)
      fuzz::require(lo[j] <= c[j] && c[j] <= hi[j], "adassp profile: interval holds the estimate");
  }
}

void adassp_sandwich(fuzz::Input &in, const Vec &coef, const Vec &xtx, const Vec &xty,
                     const dpcov_adassp_receipt &receipt, double bx, double by, double eps,
                     double delta) {
  const auto p = static_cast<int64_t>(coef.size());
  dpcov_sandwich_budget budget{};
  budget.struct_size = sizeof budget;
  const dpcov_status ps = dpcov_adassp_sandwich_plan(bx, by, eps, delta, &budget);
  fuzz::known_status(ps);
  if (ps == DPCOV_OK)
    fuzz::require(budget.fit_epsilon + budget.meat_epsilon <= eps &&
                      budget.fit_delta + budget.meat_delta <= delta,
                  "sandwich plan spends more than the request");
  const int64_t m = in.range(0, 6);
  const Vec xy = rows(in, m, p + 1, std::hypot(bx, by));
  Vec u = fuzz::canaries(static_cast<size_t>(std::max<int64_t>(m * p, 1)));
  const double residual = in.range(0, 3) == 0 ? in.number() : 2.0 * by;
  const dpcov_status rs = dpcov_adassp_sandwich_rows(
      DPCOV_ROW_MAJOR, m, p, m > 0 ? xy.data() : nullptr, p + 1, coef.data(), bx, residual,
      u.data(), p);
  if (m > 0) finite_or_unchanged(rs, u, "sandwich rows");
  Vec meat(static_cast<size_t>(p * p));
  for (int64_t i = 0; i < p; ++i)
    for (int64_t j = 0; j <= i; ++j)
      meat[static_cast<size_t>(i * p + j)] = meat[static_cast<size_t>(j * p + i)] = in.number();
  Vec out = fuzz::canaries(static_cast<size_t>(5 * p));
  double *o = out.data();
  dpcov_rng *rng = seeded();
  const std::vector<unsigned char> before = fuzz::rng_state(rng);
  const dpcov_status is = dpcov_adassp_sandwich_intervals(
      DPCOV_ROW_MAJOR, p, xtx.data(), p, xty.data(), &receipt, meat.data(), p,
      in.range(0, 3) == 0 ? in.number() : 0.9, in.range(0, 3) == 0 ? in.range(-1, 40) : 19, rng,
      o, o + p, o + 2 * p, o + 3 * p, o + 4 * p);
  finite_or_unchanged(is, out, "sandwich intervals");
  if (is != DPCOV_OK)
    fuzz::require(fuzz::rng_state(rng) == before, "sandwich intervals: generator moved on error");
  // The same with the meat's noise redrawn, from a fuzzed meat receipt.
  dpcov_receipt meat_receipt{};
  meat_receipt.struct_size = sizeof meat_receipt;
  const dpcov_status mp = dpcov_mechanism_plan(DPCOV_MECHANISM_ANALYZE_GAUSS, p, 1, bx * residual,
                                               eps, delta, nullptr, &meat_receipt);
  if (in.range(0, 3) == 0) meat_receipt.sigma = in.number();
  Vec robust = fuzz::canaries(static_cast<size_t>(5 * p));
  double *r = robust.data();
  const std::vector<unsigned char> robust_before = fuzz::rng_state(rng);
  const dpcov_status rs2 = dpcov_adassp_robust_intervals(
      DPCOV_ROW_MAJOR, p, xtx.data(), p, xty.data(), &receipt, meat.data(), p,
      mp == DPCOV_OK || in.range(0, 1) == 0 ? &meat_receipt : nullptr, 0.9,
      in.range(0, 3) == 0 ? in.range(-1, 40) : 19, rng, r, r + p, r + 2 * p, r + 3 * p, r + 4 * p);
  finite_or_unchanged(rs2, robust, "robust intervals");
  if (rs2 != DPCOV_OK)
    fuzz::require(fuzz::rng_state(rng) == robust_before,
                  "robust intervals: generator moved on error");
  dpcov_rng_destroy(&rng);
}

void adassp(fuzz::Input &in) {
  const int64_t d = in.range(2, 4), p = d - 1, n = in.range(1, 8);
  const double bx = epsilon(in), by = epsilon(in);
  const Vec g = gram(in, d, n, std::hypot(bx, by));
  std::vector<int64_t> features;
  for (int64_t j = 1; j < d; ++j) features.push_back(j);
  dpcov_adassp_params params;
  fuzz::require(dpcov_adassp_params_default(&params) == DPCOV_OK, "params");
  params.calibration = static_cast<int32_t>(in.range(0, 1));
  params.release_label_square = static_cast<int32_t>(in.range(0, 1));
  params.rho = in.range(0, 3) == 0 ? probability(in) : 0.05;
  // Privacy units: k in range, out of range (-1, 2^20 + 1), or rows (0).
  params.max_rows_per_unit = in.range(0, 3) == 0 ? in.range(-1, (1 << 20) + 1) : 0;
  const double eps = epsilon(in), delta = probability(in);
  Vec coef = fuzz::canaries(static_cast<size_t>(p)), xtx = fuzz::canaries(static_cast<size_t>(p * p)),
      xty = fuzz::canaries(static_cast<size_t>(p));
  dpcov_adassp_receipt planned{};
  planned.struct_size = sizeof planned;
  const dpcov_status ps = dpcov_adassp_plan(p, bx, by, eps, delta, &params, &planned);
  fuzz::known_status(ps);
  if (ps == DPCOV_OK) fuzz::require(std::isfinite(planned.rho) && planned.rho > 0, "adassp plan rho");
  dpcov_adassp_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  dpcov_rng *rng = seeded();
  const std::vector<unsigned char> before = fuzz::rng_state(rng);
  const dpcov_status s = dpcov_adassp_fit(DPCOV_ROW_MAJOR, d, g.data(), d, 0, features.data(), p,
                                          bx, by, eps, delta, &params, rng, coef.data(),
                                          xtx.data(), p, xty.data(), &receipt);
  fuzz::known_status(s);
  fuzz::charged_if_drawn(s, before, rng, "adassp fit");
  if (ps != DPCOV_OK && s != ps) fuzz::violated("adassp: plan failed, fit differs");
  if (s != DPCOV_OK) {
    for (const Vec *v : {&coef, &xtx, &xty}) fuzz::unchanged(*v, "adassp");
    dpcov_rng_destroy(&rng);
    return;
  }
  fuzz::finite(coef.data(), coef.size(), "adassp coefficients");
  fuzz::symmetric(xtx.data(), p, p, "adassp X'X");
  fuzz::finite(xty.data(), xty.size(), "adassp X'y");
  fuzz::finite(&receipt.ridge, 1, "adassp ridge");
  fuzz::require(ps == DPCOV_OK && planned.rho == receipt.rho, "adassp: plan and fit rho");
  const int64_t rows_n = in.range(0, 3) == 0 ? in.range(-1, 4) : in.range(p + 1, 1 << 20);
  const double level = in.range(0, 3) == 0 ? in.number() : 0.9;
  Vec bc = fuzz::canaries(static_cast<size_t>(p)), se = bc, pv = bc, lo = bc, hi = bc;
  const dpcov_status b = dpcov_adassp_bootstrap_intervals(
      DPCOV_ROW_MAJOR, p, xtx.data(), p, xty.data(), rows_n, &receipt, level, in.range(-1, 40),
      rng, bc.data(), se.data(), pv.data(), lo.data(), hi.data());
  for (const Vec *v : {&bc, &se, &pv, &lo, &hi}) finite_or_unchanged(b, *v, "adassp bootstrap");
  // The intervals at every n: few draws keep the chain short, the intercept column any value.
  Vec ac = fuzz::canaries(static_cast<size_t>(p)), ase = ac, apv = ac, alo = ac, ahi = ac;
  std::vector<int32_t> conclusive(static_cast<size_t>(p), -7);
  int32_t method = -7;
  const dpcov_status a = dpcov_adassp_intervals(
      DPCOV_ROW_MAJOR, p, xtx.data(), p, xty.data(), rows_n, &receipt, in.range(-2, p), level,
      in.range(0, 3) == 0 ? in.range(-1, 200) : 100, rng, ac.data(), ase.data(), apv.data(),
      alo.data(), ahi.data(), conclusive.data(), &method);
  dpcov_rng_destroy(&rng);
  for (const Vec *v : {&ac, &ase, &apv, &alo, &ahi}) finite_or_unchanged(a, *v, "adassp intervals");
  adassp_profile(in, xtx, xty, receipt, rows_n, level);
  adassp_sandwich(in, coef, xtx, xty, receipt, bx, by, eps, delta);
  fuzz::require(a == DPCOV_OK ? (method == DPCOV_INTERVALS_BOOTSTRAP ||
                                 method == DPCOV_INTERVALS_POSTERIOR)
                              : method == -7,
                "adassp intervals: method written on success only");
}

// Analyze Gauss or OLS-JL, then the two interval methods on an Analyze Gauss release.
void ols(fuzz::Input &in) {
  const int64_t d = in.range(2, 4), n = in.range(0, 3) == 0 ? in.range(-1, 1 << 30) : in.range(1, 10);
  const double bound = epsilon(in), eps = epsilon(in), delta = probability(in);
  const Vec g = gram(in, d, std::min<int64_t>(n, 10), bound);
  std::vector<int64_t> features;
  for (int64_t j = 1; j < d; ++j) features.push_back(j);
  const int64_t nf = d - 1;
  dpcov_regression_params reg;
  fuzz::require(dpcov_regression_params_default(&reg) == DPCOV_OK, "params");
  reg.level = in.range(0, 3) == 0 ? in.number() : 0.95;
  dpcov_mechanism_params p;
  fuzz::require(dpcov_mechanism_params_default(&p) == DPCOV_OK, "params");
  const bool jl = in.range(0, 1);
  p.projection_rows = jl ? in.range(0, 12) : 0;
  Vec coef = fuzz::canaries(static_cast<size_t>(nf)), se = coef, t = coef, pv = coef, lo = coef,
      hi = coef;
  dpcov_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  dpcov_rng *rng = seeded();
  const std::vector<unsigned char> before = fuzz::rng_state(rng);
  const auto fit = jl ? dpcov_ols_jl : dpcov_ols_analyze_gauss;
  const dpcov_status s = fit(DPCOV_ROW_MAJOR, d, g.data(), d, n, bound, eps, delta, &p, 0,
                             features.data(), nf, &reg, rng, coef.data(), se.data(), t.data(),
                             pv.data(), lo.data(), hi.data(), nullptr, nullptr, &receipt);
  fuzz::known_status(s);
  fuzz::charged_if_drawn(s, before, rng, jl ? "ols_jl" : "ols_analyze_gauss");
  if (s == DPCOV_OK) {
    for (const Vec *v : {&coef, &se, &pv, &lo, &hi}) fuzz::finite(v->data(), v->size(), "ols");
  } else {
    for (const Vec *v : {&coef, &se, &t, &pv, &lo, &hi}) fuzz::unchanged(*v, "ols");
  }
  // Intervals on a fuzzed "release" with the receipt of a real Analyze Gauss plan.
  const Vec released = gram(in, d, std::min<int64_t>(n, 10), bound);
  const double sigma = in.range(0, 3) == 0 ? in.number() : in.positive();
  Vec c2 = fuzz::canaries(static_cast<size_t>(nf)), l2 = c2, h2 = c2, dl = c2, dh = c2;
  double eta = fuzz::kCanary, kappa = fuzz::kCanary;
  const dpcov_status i = dpcov_ols_analyze_gauss_intervals(
      DPCOV_ROW_MAJOR, d, released.data(), d, sigma, n, 0, features.data(), nf, &reg, c2.data(),
      l2.data(), h2.data(), dl.data(), dh.data(), nullptr, &eta, &kappa);
  for (const Vec *v : {&c2, &l2, &h2, &dl, &dh}) finite_or_unchanged(i, *v, "ols intervals");
  if (i == DPCOV_OK) fuzz::require(std::isfinite(eta) && std::isfinite(kappa), "ols intervals eta");
  dpcov_receipt ag{};
  ag.struct_size = sizeof ag;
  if (dpcov_mechanism_plan(DPCOV_MECHANISM_ANALYZE_GAUSS, d, n, bound, eps, delta, nullptr, &ag) ==
      DPCOV_OK) {
    Vec c3 = fuzz::canaries(static_cast<size_t>(nf)), s3 = c3, p3 = c3, l3 = c3, h3 = c3;
    double noise = fuzz::kCanary, k3 = fuzz::kCanary;
    const int64_t draws = in.range(-1, 40);
    const dpcov_status b = dpcov_ols_bootstrap_intervals(
        DPCOV_ROW_MAJOR, d, released.data(), d, &ag, 0, features.data(), nf, &reg, draws, rng,
        c3.data(), s3.data(), p3.data(), l3.data(), h3.data(), &noise, &k3);
    for (const Vec *v : {&c3, &s3, &p3, &l3, &h3}) finite_or_unchanged(b, *v, "ols bootstrap");
    // The check a fit makes before its release: draws it refuses, the intervals refuse too.
    const dpcov_status checked = dpcov_bootstrap_draws_check(reg.level, draws);
    fuzz::known_status(checked);
    fuzz::require(checked == DPCOV_OK || b != DPCOV_OK, "bootstrap draws check");
    // The robust intervals on the same release with a fuzzed nf x nf meat (no intercept column).
    const Vec meat = gram(in, nf, std::min<int64_t>(n, 10), bound);
    Vec c4 = fuzz::canaries(static_cast<size_t>(nf)), s4 = c4, p4 = c4, l4 = c4, h4 = c4;
    const dpcov_status w = dpcov_ols_sandwich_intervals(
        DPCOV_ROW_MAJOR, d, released.data(), d, &ag, 0, features.data(), nf, &reg, meat.data(),
        nf, in.range(-1, 40), rng, c4.data(), s4.data(), p4.data(), l4.data(),
        h4.data());
    for (const Vec *v : {&c4, &s4, &p4, &l4, &h4}) finite_or_unchanged(w, *v, "ols sandwich");
    // The same with the meat's noise redrawn from a fuzzed meat receipt.
    dpcov_receipt meat_ag{};
    meat_ag.struct_size = sizeof meat_ag;
    const dpcov_status mp = dpcov_mechanism_plan(DPCOV_MECHANISM_ANALYZE_GAUSS, nf, n, bound,
                                                 epsilon(in), probability(in), nullptr, &meat_ag);
    if (in.range(0, 3) == 0) meat_ag.sigma = in.number();
    Vec c5 = fuzz::canaries(static_cast<size_t>(nf)), s5 = c5, p5 = c5, l5 = c5, h5 = c5;
    const dpcov_status r = dpcov_ols_robust_intervals(
        DPCOV_ROW_MAJOR, d, released.data(), d, &ag, 0, features.data(), nf, &reg, meat.data(),
        nf, mp == DPCOV_OK || in.range(0, 1) == 0 ? &meat_ag : nullptr, in.range(-1, 40), rng,
        c5.data(), s5.data(), p5.data(), l5.data(), h5.data());
    for (const Vec *v : {&c5, &s5, &p5, &l5, &h5}) finite_or_unchanged(r, *v, "ols robust");
    // With an outcome per coefficient: homoscedastic, robust, or a meat without its receipt.
    const int kind = static_cast<int>(in.range(0, 2));
    Vec c6 = fuzz::canaries(static_cast<size_t>(nf)), s6 = c6, p6 = c6, l6 = c6, h6 = c6;
    std::vector<int32_t> flags(static_cast<size_t>(nf), 7);
    const dpcov_status o = dpcov_ols_intervals(
        DPCOV_ROW_MAJOR, d, released.data(), d, &ag, 0, features.data(), nf, &reg,
        kind == 0 ? nullptr : meat.data(), nf, kind == 1 ? &meat_ag : nullptr, in.range(-1, 40),
        rng, c6.data(), s6.data(), p6.data(), l6.data(), h6.data(), flags.data(), nullptr,
        nullptr);
    fuzz::known_status(o);
    if (o == DPCOV_OK) {
      fuzz::finite(c6.data(), c6.size(), "ols intervals coefficients");
      // A flagged coefficient's interval, standard error and p-value are NaN (its outcome);
      // every other output is finite.
      for (size_t j = 0; j < flags.size(); ++j) {
        const bool unbounded = flags[j] == DPCOV_COEFFICIENT_UNBOUNDED;
        fuzz::require(unbounded || flags[j] == DPCOV_COEFFICIENT_BOUNDED, "ols intervals flag");
        for (const Vec *v : {&s6, &p6, &l6, &h6})
          fuzz::require(unbounded ? std::isnan((*v)[j]) : std::isfinite((*v)[j]),
                        "ols intervals: an output against its flag");
      }
    } else {
      for (const Vec *v : {&c6, &s6, &p6, &l6, &h6}) fuzz::unchanged(*v, "ols intervals");
      for (const int32_t f : flags) fuzz::require(f == 7, "ols intervals: flag written on failure");
    }
  }
  dpcov_rng_destroy(&rng);
}

// The release kept before its solve (dpcov_private_glasso_covariance), from a fresh generator of
// the one call's seed: S~ is symmetric and finite, or the call fails and writes nothing.
void private_glasso_kept(int32_t mechanism, int64_t d, const Vec &g, int64_t n, double bound,
                         double eps, double delta, const dpcov_mechanism_params &p) {
  Vec kept = fuzz::canaries(static_cast<size_t>(d * d));
  dpcov_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  dpcov_rng *rng = seeded();
  const std::vector<unsigned char> before = fuzz::rng_state(rng);
  const dpcov_status status = dpcov_private_glasso_covariance(
      mechanism, DPCOV_ROW_MAJOR, d, g.data(), d, n, bound, eps, delta, &p, rng, kept.data(),
      d, &receipt);
  fuzz::charged_if_drawn(status, before, rng, "private glasso covariance");
  dpcov_rng_destroy(&rng);
  fuzz::known_status(status);
  if (status != DPCOV_OK) {
    fuzz::unchanged(kept, "private glasso covariance");
    return;
  }
  fuzz::require(mechanism != DPCOV_MECHANISM_GLASSO_OUTPUT_WISHART,
                "output perturbation released a covariance");
  fuzz::symmetric(kept.data(), d, d, "private glasso covariance");
  fuzz::finite(kept.data(), static_cast<size_t>(d * d), "private glasso covariance");
}
void glasso(fuzz::Input &in) {
  const int64_t d = in.range(1, 4), n = in.range(1, 8);
  const double bound = epsilon(in);
  const Vec s = gram(in, d, n, bound);
  dpcov_glasso_params gp;
  fuzz::require(dpcov_glasso_params_default(&gp) == DPCOV_OK, "params");
  gp.penalize_diagonal = static_cast<int32_t>(in.range(0, 1));
  gp.max_iter = in.range(0, 3) == 0 ? in.range(-1, 5) : 50;
  gp.tol = in.range(0, 3) == 0 ? in.number() : 1e-6;
  const double rho = in.range(0, 3) == 0 ? in.number() : in.positive();
  const bool warm = in.range(0, 1);
  Vec w(static_cast<size_t>(d * d), 0.0);
  for (int64_t i = 0; i < d; ++i) w[static_cast<size_t>(i * d + i)] = in.positive();
  Vec precision = fuzz::canaries(static_cast<size_t>(d * d)), covariance = precision;
  dpcov_glasso_info info{};
  info.struct_size = sizeof info;
  const dpcov_status st =
      dpcov_glasso_solve(DPCOV_ROW_MAJOR, d, s.data(), d, rho, &gp, warm ? w.data() : nullptr, d,
                         precision.data(), d, covariance.data(), d, &info);
  fuzz::known_status(st);
  if (st == DPCOV_OK) {
    fuzz::symmetric(precision.data(), d, d, "glasso precision");
    fuzz::symmetric(covariance.data(), d, d, "glasso covariance");
  } else {
    fuzz::unchanged(precision, "glasso");
    fuzz::unchanged(covariance, "glasso");
  }
  // The private graphical lasso: plan, release, log-density (output perturbation takes no solver
  // options and reports no convergence).
  const int32_t mechanism =
      in.range(0, 3) == 0 ? static_cast<int32_t>(in.range(0, 14))
                      : static_cast<int32_t>(DPCOV_MECHANISM_GLASSO_OUTPUT_WISHART);
  const double eps = epsilon(in), delta = probability(in);
  dpcov_mechanism_params p;
  fuzz::require(dpcov_mechanism_params_default(&p) == DPCOV_OK, "params");
  p.neighbour = static_cast<int32_t>(in.range(0, 1));
  p.lambda_min_bound = in.range(0, 1) ? in.positive() : 0.0;
  dpcov_receipt planned{};
  planned.struct_size = sizeof planned;
  const dpcov_status ps =
      dpcov_private_glasso_plan(mechanism, d, n, bound, eps, delta, &p, rho, &planned);
  fuzz::known_status(ps);
  if (ps == DPCOV_OK) fuzz::finite(&planned.dof, 1, "private glasso dof");
  Vec released = fuzz::canaries(static_cast<size_t>(d * d));
  dpcov_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  dpcov_glasso_info pinfo{};
  pinfo.struct_size = sizeof pinfo;
  dpcov_rng *rng = seeded();
  const std::vector<unsigned char> before = fuzz::rng_state(rng);
  const dpcov_status rs = dpcov_private_glasso_release(
      mechanism, DPCOV_ROW_MAJOR, d, s.data(), d, n, bound, eps, delta, &p, rho,
      mechanism == DPCOV_MECHANISM_GLASSO_OUTPUT_WISHART ? nullptr : &gp, rng,
      released.data(), d, &receipt,
      mechanism == DPCOV_MECHANISM_GLASSO_OUTPUT_WISHART ? nullptr : &pinfo);
  fuzz::charged_if_drawn(rs, before, rng, "private glasso release");
  dpcov_rng_destroy(&rng);
  fuzz::known_status(rs);
  private_glasso_kept(mechanism, d, s, n, bound, eps, delta, p);
  if (ps != DPCOV_OK && rs != ps) fuzz::violated("private glasso: plan failed, release differs");
  if (rs != DPCOV_OK) {
    fuzz::unchanged(released, "private glasso");
    return;
  }
  fuzz::symmetric(released.data(), d, d, "private glasso");
  double ld = fuzz::kCanary;
  const dpcov_status ls = dpcov_private_glasso_log_density(
      mechanism, DPCOV_ROW_MAJOR, d, released.data(), d, s.data(), d, n, bound, eps, delta, &p, rho,
      &ld);
  fuzz::known_status(ls);
  if (ls == DPCOV_OK) fuzz::require(!std::isnan(ld), "NaN log-density");
  else fuzz::require(ld == fuzz::kCanary, "log-density written on error");
}

void pca_bound(fuzz::Input &in) {
  const int64_t d = in.range(1, 4), n = in.range(1, 8);
  const double bound = epsilon(in), eps = epsilon(in), delta = probability(in);
  const int32_t mechanism = static_cast<int32_t>(in.range(0, 14));
  dpcov_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  if (dpcov_mechanism_plan(mechanism, d, n, bound, eps, delta, nullptr, &receipt) != DPCOV_OK) return;
  const Vec released = gram(in, d, n, bound);
  double noise = fuzz::kCanary, gap = fuzz::kCanary, sin_theta = fuzz::kCanary;
  int32_t swamped = -7;
  dpcov_rng *rng = seeded();
  const dpcov_status s = dpcov_pca_subspace_error_bound(
      DPCOV_ROW_MAJOR, d, released.data(), d, &receipt, in.range(0, d + 1),
      in.range(0, 3) == 0 ? in.number() : 0.9, in.range(-1, 30), rng, &noise, &gap, &sin_theta,
      &swamped);
  dpcov_rng_destroy(&rng);
  fuzz::known_status(s);
  if (s == DPCOV_OK) {
    fuzz::require(std::isfinite(noise) && std::isfinite(gap), "pca bound");
    fuzz::require(!std::isnan(sin_theta), "pca bound sin theta");
  } else {
    fuzz::require(noise == fuzz::kCanary && gap == fuzz::kCanary && sin_theta == fuzz::kCanary &&
                      swamped == -7, "pca bound written on error");
  }
}

// The centred variant: a second moment of rows [c, x] (c = the bound in column 0 of the Gram of
// rows whose first entry the fuzzer chose), any constant column, public or estimated n.
void pca_centred_bound(fuzz::Input &in) {
  const int64_t dim = in.range(1, 4), n = in.range(1, 8);
  const double bound = epsilon(in), eps = epsilon(in), delta = probability(in);
  const int32_t mechanism = static_cast<int32_t>(in.range(0, 14));
  dpcov_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  if (dpcov_mechanism_plan(mechanism, dim, n, bound, eps, delta, nullptr, &receipt) != DPCOV_OK)
    return;
  const Vec released = gram(in, dim, n, bound);
  double noise = fuzz::kCanary, gap = fuzz::kCanary, sin_theta = fuzz::kCanary;
  int32_t swamped = -7;
  dpcov_rng *rng = seeded();
  const dpcov_status s = dpcov_pca_centred_subspace_error_bound(
      DPCOV_ROW_MAJOR, dim, released.data(), dim, &receipt, in.range(-1, dim),
      in.range(0, 3) == 0 ? in.number() : bound, in.range(0, 2) == 0 ? 0 : in.range(-1, n),
      in.range(0, dim), in.range(0, 3) == 0 ? in.number() : 0.9, in.range(-1, 30), rng, &noise,
      &gap, &sin_theta, &swamped);
  dpcov_rng_destroy(&rng);
  fuzz::known_status(s);
  if (s == DPCOV_OK) {
    fuzz::require(std::isfinite(noise) && std::isfinite(gap), "pca centred bound");
    fuzz::require(sin_theta >= 0.0 && sin_theta <= 1.0, "pca centred bound sin theta");
  } else {
    fuzz::require(noise == fuzz::kCanary && gap == fuzz::kCanary && sin_theta == fuzz::kCanary &&
                      swamped == -7, "pca centred bound written on error");
  }
}

void metrics(fuzz::Input &in) {
  const int64_t d = in.range(1, 4);
  const Vec a = gram(in, d, 3, 1.0), b = gram(in, d, 3, 1.0);
  const int32_t relative = static_cast<int32_t>(in.range(0, 3) == 0 ? in.range(-1, 2) : in.range(0, 1));
  for (auto metric : {dpcov_metric_frobenius_error, dpcov_metric_spectral_error}) {
    double out = fuzz::kCanary;
    const dpcov_status s = metric(DPCOV_ROW_MAJOR, d, d, a.data(), d, b.data(), d, relative, &out);
    fuzz::known_status(s);
    if (s == DPCOV_OK) fuzz::finite(&out, 1, "matrix metric");
    else fuzz::require(out == fuzz::kCanary, "metric written on error");
  }
  double out = fuzz::kCanary;
  const dpcov_status s =
      dpcov_metric_vector_error(d * d, a.data(), b.data(), relative, &out);
  fuzz::known_status(s);
  if (s == DPCOV_OK) fuzz::finite(&out, 1, "vector metric");
  else fuzz::require(out == fuzz::kCanary, "metric written on error");
  dpcov_support_recovery r{};
  r.struct_size = sizeof r;
  const dpcov_status t = dpcov_metric_support_recovery(DPCOV_ROW_MAJOR, d, a.data(), d, b.data(),
                                                       d, in.number(), &r);
  fuzz::known_status(t);
  if (t == DPCOV_OK)
    fuzz::require(std::isfinite(r.precision) && std::isfinite(r.recall), "support recovery");
}

void column_bounds(fuzz::Input &in) {
  const int64_t d = in.range(1, 3), n = in.range(0, 4);
  double b = fuzz::kCanary;
  const dpcov_status nb = dpcov_column_bounds_norm_bound(in.range(0, 3) == 0 ? in.range(-1, 1 << 20) : d, &b);
  fuzz::known_status(nb);
  if (nb == DPCOV_OK) fuzz::finite(&b, 1, "norm bound");
  else fuzz::require(b == fuzz::kCanary, "norm bound written on error");
  Vec lower(static_cast<size_t>(d)), upper(static_cast<size_t>(d));
  for (int64_t j = 0; j < d; ++j) {
    lower[static_cast<size_t>(j)] = in.number();
    upper[static_cast<size_t>(j)] =
        in.range(0, 3) == 0 ? in.number() : lower[static_cast<size_t>(j)] + in.positive();
  }
  const Vec a = rows(in, n, d, 1e300);
  Vec out = fuzz::canaries(static_cast<size_t>(n * (d + 1)));
  int64_t clamped = -7;
  const dpcov_status s = dpcov_column_bounds_scale_rows(DPCOV_ROW_MAJOR, n, d, a.data(), d, lower.data(),
                                                        upper.data(), out.data(), d + 1, &clamped);
  finite_or_unchanged(s, out, "scale rows");
  const Vec m = gram(in, d + 1, 3, 1.0);
  Vec mapped = fuzz::canaries(static_cast<size_t>((d + 1) * (d + 1)));
  const int32_t units = static_cast<int32_t>(in.range(0, 3) == 0 ? in.range(-1, 2) : in.range(0, 1));
  const dpcov_status t = dpcov_column_bounds_transform(d, lower.data(), upper.data(), units,
                                                       DPCOV_COL_MAJOR, m.data(), d + 1,
                                                       mapped.data(), d + 1);
  fuzz::known_status(t);
  if (t == DPCOV_OK) fuzz::symmetric(mapped.data(), d + 1, d + 1, "transform");
  else fuzz::unchanged(mapped, "transform");
  // Centring the (d + 1) x (d + 1) second moment with its constant column.
  Vec mean = fuzz::canaries(static_cast<size_t>(d)), cov = fuzz::canaries(static_cast<size_t>(d * d));
  double count = fuzz::kCanary;
  const dpcov_status c = dpcov_centre_second_moment(
      DPCOV_ROW_MAJOR, d + 1, m.data(), d + 1, in.range(0, 3) == 0 ? in.range(-1, d + 1) : 0,
      in.range(0, 3) == 0 ? in.number() : 1.0, in.range(0, 3) == 0 ? in.range(-1, INT64_MAX) : in.range(0, 5),
      mean.data(), cov.data(), d, &count);
  fuzz::known_status(c);
  if (c == DPCOV_OK) {
    fuzz::finite(mean.data(), mean.size(), "centred mean");
    fuzz::symmetric(cov.data(), d, d, "centred covariance");
    fuzz::finite(&count, 1, "centred count");
  } else {
    fuzz::unchanged(mean, "centring");
    fuzz::unchanged(cov, "centring");
  }
}

// Ledger charges of planned receipts, public receipts, zCDP conversion.
void accounting(fuzz::Input &in) {
  dpcov_ledger *ledger = nullptr;
  const int32_t accounting = static_cast<int32_t>(in.range(0, 3) == 0 ? in.range(-1, 3) : in.range(0, 1));
  const dpcov_status cs = dpcov_ledger_create(&ledger, accounting, epsilon(in), probability(in));
  fuzz::known_status(cs);
  for (int k = 0; k < 3 && cs == DPCOV_OK; ++k) {
    dpcov_receipt r{};
    r.struct_size = sizeof r;
    if (dpcov_mechanism_plan(static_cast<int32_t>(in.range(0, 14)), in.range(1, 3), 10,
                             epsilon(in), epsilon(in), probability(in), nullptr, &r) != DPCOV_OK)
      continue;
    if (in.range(0, 3) == 0) r.epsilon = in.number();
    if (in.range(0, 3) == 0) r.delta = in.number();
    dpcov_receipt pub{};
    pub.struct_size = sizeof pub;
    fuzz::known_status(dpcov_receipt_public(&r, &pub));
    // The common prefix of a receipt with fuzzed fields: a valid status, and a copy when OK.
    dpcov_receipt shown = r;
    if (in.range(0, 3) == 0) shown.mechanism = static_cast<int32_t>(in.range(-1, 30));
    if (in.range(0, 3) == 0) shown.privacy_model = static_cast<int32_t>(in.range(-1, 5));
    dpcov_receipt_prefix prefix{};
    prefix.struct_size = in.range(0, 3) == 0 ? static_cast<size_t>(in.range(0, 300)) : sizeof prefix;
    const dpcov_status ps = dpcov_receipt_prefix_of(&shown, &prefix);
    fuzz::known_status(ps);
    fuzz::require(ps != DPCOV_OK || (prefix.mechanism == shown.mechanism && prefix.n == shown.n &&
                                     std::memcmp(prefix.theorem, shown.theorem, sizeof shown.theorem) == 0),
                  "receipt prefix differs from the receipt");
    // The charge through the prefix, of a receipt whose prefix may be forged: check and charge
    // agree, and a refused charge changes nothing.
    dpcov_ledger_spent before{}, after{};
    before.struct_size = after.struct_size = sizeof before;
    fuzz::require(dpcov_ledger_get_spent(ledger, &before) == DPCOV_OK, "spent");
    const dpcov_status rc = dpcov_ledger_check_receipt(ledger, &shown);
    fuzz::known_status(rc);
    fuzz::require(rc == dpcov_ledger_charge_receipt(ledger, &shown),
                  "ledger check_receipt and charge_receipt disagree");
    fuzz::require(dpcov_ledger_get_spent(ledger, &after) == DPCOV_OK, "spent");
    if (rc != DPCOV_OK)
      fuzz::require(before.charges == after.charges && before.epsilon == after.epsilon,
                    "ledger changed by a refused receipt charge");
    const dpcov_status check = dpcov_ledger_check(ledger, &r);
    fuzz::known_status(check);
    const dpcov_status charge = dpcov_ledger_charge(ledger, &r);
    fuzz::require(check == charge, "ledger check and charge disagree");
    dpcov_ledger_spent spent{};
    spent.struct_size = sizeof spent;
    fuzz::require(dpcov_ledger_get_spent(ledger, &spent) == DPCOV_OK, "spent");
    fuzz::require(std::isfinite(spent.epsilon) && std::isfinite(spent.delta) && std::isfinite(spent.rho),
                  "ledger spent");
  }
  if (cs == DPCOV_OK) {
    // A release stated in zCDP: check and charge agree, and a refused charge changes nothing.
    const double rho = epsilon(in), e = epsilon(in), dl = probability(in);
    dpcov_ledger_spent before{}, after{};
    before.struct_size = after.struct_size = sizeof before;
    fuzz::require(dpcov_ledger_get_spent(ledger, &before) == DPCOV_OK, "spent");
    const dpcov_status check = dpcov_ledger_check_zcdp(ledger, rho, e, dl);
    fuzz::known_status(check);
    const dpcov_status charge = dpcov_ledger_charge_zcdp(ledger, rho, e, dl);
    fuzz::require(check == charge, "ledger zcdp check and charge disagree");
    fuzz::require(dpcov_ledger_get_spent(ledger, &after) == DPCOV_OK, "spent");
    fuzz::require(std::isfinite(after.epsilon) && std::isfinite(after.delta) && std::isfinite(after.rho),
                  "ledger spent after a zcdp charge");
    if (charge != DPCOV_OK)
      fuzz::require(before.charges == after.charges && before.epsilon == after.epsilon &&
                        before.delta == after.delta && before.rho == after.rho,
                    "ledger changed by a refused charge");
  }
  dpcov_ledger_destroy(&ledger);
  double out = fuzz::kCanary;
  const double a = epsilon(in), b = probability(in);
  // epsilon >= 0 (0 where the bound is negative: (0, delta)-DP); rho > 0.
  const bool to_epsilon = in.range(0, 1);
  const dpcov_status e = to_epsilon ? dpcov_zcdp_epsilon(a, b, &out) : dpcov_zcdp_rho(a, b, &out);
  fuzz::known_status(e);
  if (e == DPCOV_OK && !(std::isfinite(out) && (out > 0 || (to_epsilon && out == 0)))) {
    char detail[96];
    std::snprintf(detail, sizeof detail, "%a %a -> %a", a, b, out);
    fuzz::violated("zcdp conversion", detail);
  }
  if (e != DPCOV_OK && out != fuzz::kCanary) {
    char detail[96];
    std::snprintf(detail, sizeof detail, "%d %a %a -> %d %a", to_epsilon, a, b, e, out);
    fuzz::violated("zcdp written on error", detail);
  }
}

void private_bound(fuzz::Input &in) {
  // The release's rest after a bound step: r > 0 with spent + r <= total, or a status and r
  // untouched.
  const double total = in.number();
  const double spent =
      in.range(0, 1) == 0 ? in.number() : total * static_cast<double>(in.range(1, 1000)) / 1000.0;
  Vec rest = fuzz::canaries(1);
  const dpcov_status r = dpcov_bound_step_rest(total, spent, rest.data());
  fuzz::known_status(r);
  if (r == DPCOV_OK)
    fuzz::require(rest[0] > 0.0 && rest[0] < total && spent + rest[0] <= total, "bound step rest");
  else
    fuzz::unchanged(rest, "bound step rest");
  // The two steps as one: at least each, or a status and the output untouched.
  Vec together = fuzz::canaries(1);
  const dpcov_status both = dpcov_bound_step_total(spent, in.number(), together.data());
  fuzz::known_status(both);
  if (both == DPCOV_OK)
    fuzz::require(std::isfinite(together[0]) && together[0] > spent, "bound step total");
  else
    fuzz::unchanged(together, "bound step total");
  // A quantile target: in [0, n], or a status and the output untouched.
  const int64_t n = in.range(0, 3) == 0 ? in.range(INT64_MIN, INT64_MAX) : in.range(0, 1000000);
  int64_t quantile_target = -7;
  const dpcov_status t = dpcov_private_bound_quantile_target(in.number(), n, &quantile_target);
  fuzz::known_status(t);
  fuzz::require(
      t == DPCOV_OK ? quantile_target >= 0 && quantile_target <= n : quantile_target == -7,
      "quantile target");
  // Tightening a public bound: the candidates below it, finite, positive and increasing up to the
  // bound, or a status and the outputs untouched; the choice one of them, or a status, the output
  // untouched and nothing drawn.
  const double public_bound = in.range(0, 3) == 0 ? in.number() : in.positive();
  Vec below = fuzz::canaries(DPCOV_TIGHTEN_STEPS + 1);
  int64_t below_count = -7;
  const dpcov_status g = dpcov_private_bound_below_grid(
      public_bound, below.data(), static_cast<int64_t>(below.size()), &below_count);
  fuzz::known_status(g);
  if (g == DPCOV_OK) {
    fuzz::require(below_count == DPCOV_TIGHTEN_STEPS + 1 && below.back() == public_bound,
                  "below grid");
    for (size_t i = 1; i < below.size(); ++i)
      fuzz::require(below[i - 1] > 0.0 && below[i - 1] < below[i], "below grid increasing");
  } else {
    fuzz::unchanged(below, "below grid");
    fuzz::require(below_count == -7, "below grid count");
  }
  std::vector<int64_t> tighten_counts(DPCOV_TIGHTEN_STEPS + 2);
  int64_t tighten_rows = 0;
  for (int64_t &h : tighten_counts) {
    h = in.range(0, 7) == 0 ? in.range(INT64_MIN, INT64_MAX) : in.range(0, 50);
    tighten_rows += h > 0 && h <= 50 ? h : 0;
  }
  const int64_t tighten_n = in.range(0, 3) == 0 ? in.range(-5, 2000) : tighten_rows;
  dpcov_rng *tighten_rng = seeded();
  uint64_t next_word = 0, expected_word = 0;
  Vec tightened = fuzz::canaries(1);
  const dpcov_status tg =
      dpcov_private_bound_tighten(public_bound, tighten_counts.data(), tighten_n, in.number(),
                                  in.number(), tighten_rng, tightened.data());
  fuzz::known_status(tg);
  if (tg == DPCOV_OK) {
    fuzz::require(std::find(below.begin(), below.end(), tightened[0]) != below.end(),
                  "tightened bound on the grid");
  } else {
    fuzz::unchanged(tightened, "tightened bound");
    dpcov_rng *fresh = seeded();
    fuzz::require(dpcov_rng_next_u64(tighten_rng, &next_word) == DPCOV_OK &&
                      dpcov_rng_next_u64(fresh, &expected_word) == DPCOV_OK &&
                      next_word == expected_word,
                  "a refused tightening draws nothing");
    dpcov_rng_destroy(&fresh);
  }
  dpcov_rng_destroy(&tighten_rng);
  const double lo = epsilon(in), hi = in.range(0, 3) == 0 ? in.number() : lo * (1 + in.positive());
  const double ratio = in.range(0, 3) == 0 ? in.number() : 1.0 + in.positive();
  int64_t k = -7;
  const dpcov_status c = dpcov_private_bound_grid(lo, hi, ratio, nullptr, 0, &k);
  fuzz::known_status(c);
  if (c != DPCOV_OK || k < 1 || k > 64) return;
  Vec grid = fuzz::canaries(static_cast<size_t>(k));
  int64_t k2 = 0;
  fuzz::require(dpcov_private_bound_grid(lo, hi, ratio, grid.data(), k, &k2) == DPCOV_OK && k2 == k,
                "grid with capacity");
  fuzz::finite(grid.data(), grid.size(), "grid");
  std::vector<int64_t> histogram(static_cast<size_t>(k + 1));
  for (int64_t &h : histogram) h = in.range(0, 3) == 0 ? in.range(INT64_MIN, INT64_MAX) : in.range(0, 100);
  // The histogram of fuzzed rows: added on success (cell K holds non-finite rows), untouched on
  // failure.
  const int64_t rows = in.range(0, 4), cols = in.range(1, 3);
  Vec a(static_cast<size_t>(rows * cols));
  for (double &v : a) v = in.number();
  std::vector<int64_t> counted = histogram;
  const dpcov_status h = dpcov_private_bound_histogram(grid.data(), k, DPCOV_ROW_MAJOR, rows, cols,
                                                       a.data(), cols, counted.data());
  fuzz::known_status(h);
  int64_t added = 0;
  for (size_t i = 0; i < counted.size(); ++i) added += counted[i] - histogram[i];
  fuzz::require(h == DPCOV_OK ? added == rows : counted == histogram, "histogram");
  // Each row's cell: the cells of the histogram just added on success, untouched on failure.
  std::vector<int64_t> cells(static_cast<size_t>(rows), -7);
  const dpcov_status nc = dpcov_private_bound_norm_cells(grid.data(), k, DPCOV_ROW_MAJOR, rows,
                                                         cols, a.data(), cols, cells.data());
  fuzz::known_status(nc);
  if (nc == DPCOV_OK && h == DPCOV_OK) {
    std::vector<int64_t> from_cells = histogram;
    for (int64_t cell : cells) {
      fuzz::require(cell >= 0 && cell <= k, "norm cell in [0, K]");
      if (cell >= 0 && cell <= k) ++from_cells[static_cast<size_t>(cell)];
    }
    fuzz::require(from_cells == counted, "norm cells are the histogram's");
  }
  if (nc != DPCOV_OK)
    fuzz::require(std::all_of(cells.begin(), cells.end(), [](int64_t cell) { return cell == -7; }),
                  "norm cells written on error");
  // The same rows as units of fuzzed ids: one count per distinct id on success.
  std::vector<int64_t> ids(static_cast<size_t>(rows));
  for (int64_t &id : ids) id = in.range(-1, 1);
  std::vector<int64_t> units_counted = histogram;
  const dpcov_status u = dpcov_private_bound_unit_histogram(
      grid.data(), k, DPCOV_ROW_MAJOR, rows, cols, a.data(), cols, ids.data(), units_counted.data());
  fuzz::known_status(u);
  int64_t units_added = 0;
  for (size_t i = 0; i < units_counted.size(); ++i) units_added += units_counted[i] - histogram[i];
  std::sort(ids.begin(), ids.end());
  const auto distinct = static_cast<int64_t>(std::unique(ids.begin(), ids.end()) - ids.begin());
  fuzz::require(u == DPCOV_OK ? units_added == distinct : units_counted == histogram,
                "unit histogram");
  const int64_t target = in.range(-1, 200);
  const double eps = epsilon(in);
  // Both rules (the exponential mechanism and the scan) on the same arguments.
  for (auto choose : {dpcov_private_bound_select, dpcov_private_bound_scan}) {
    int64_t index = -7;
    double bound = fuzz::kCanary;
    dpcov_rng *rng = seeded();
    const std::vector<unsigned char> before = fuzz::rng_state(rng);
    const dpcov_status s = choose(grid.data(), k, histogram.data(), target, eps, rng, &index, &bound);
    fuzz::charged_if_drawn(s, before, rng, "private bound choice");
    dpcov_rng_destroy(&rng);
    fuzz::known_status(s);
    if (s == DPCOV_OK) fuzz::require(index >= 0 && index < k && bound == grid[static_cast<size_t>(index)], "selected");
    else fuzz::require(index == -7 && bound == fuzz::kCanary, "selection written on error");
  }
}

void densities(fuzz::Input &in) {
  const int64_t d = in.range(1, 4);
  const Vec x = gram(in, d, 4, 1.0), s = gram(in, d, 4, 1.0);
  const double dof = in.range(0, 3) == 0 ? in.number() : static_cast<double>(d) + in.positive();
  const double scale = in.range(0, 3) == 0 ? in.number() : in.positive();
  Vec u(static_cast<size_t>(d));
  for (double &v : u) v = in.number();
  double out[6];
  for (double &v : out) v = fuzz::kCanary;
  const dpcov_status st[6] = {
      dpcov_log_density_wishart(DPCOV_ROW_MAJOR, d, x.data(), d, dof, s.data(), d, &out[0]),
      dpcov_log_density_inverse_wishart(DPCOV_ROW_MAJOR, d, x.data(), d, dof, s.data(), d, &out[1]),
      dpcov_log_density_acg(DPCOV_ROW_MAJOR, d, s.data(), d, u.data(), &out[2]),
      dpcov_log_density_symmetric_gaussian(DPCOV_ROW_MAJOR, d, x.data(), d, scale, &out[3]),
      dpcov_log_density_symmetric_laplace(DPCOV_ROW_MAJOR, d, x.data(), d, scale, &out[4]),
      dpcov_mechanism_log_density_tested(
          static_cast<int32_t>(in.range(0, 14)), DPCOV_ROW_MAJOR, d, x.data(), d, in.number(),
          s.data(), d, in.range(0, 10), epsilon(in), epsilon(in), probability(in), nullptr, &out[5])};
  for (int i = 0; i < 6; ++i) {
    fuzz::known_status(st[i]);
    if (st[i] == DPCOV_OK) fuzz::require(!std::isnan(out[i]) && out[i] != INFINITY, "log-density");
    else fuzz::require(out[i] == fuzz::kCanary, "log-density written on error");
  }
}

// A small audit on a given pair (few trials), the generator's remaining calls and the names.
void audit_and_rng(fuzz::Input &in) {
  const int64_t d = in.range(1, 2), n = in.range(1, 3);
  const double bound = epsilon(in);
  const Vec a = rows(in, n, d, bound);
  Vec b = a;
  if (!b.empty()) b[0] = in.number();
  dpcov_audit_params ap;
  fuzz::require(dpcov_audit_params_default(&ap) == DPCOV_OK, "audit params");
  ap.trials = in.range(-1, 24);
  ap.first_checkpoint = in.range(-1, 12);
  ap.alpha = in.range(0, 3) == 0 ? in.number() : 1e-3;
  dpcov_audit_result result{};
  result.struct_size = sizeof result;
  const dpcov_status s = dpcov_audit_run_pair(
      static_cast<int32_t>(in.range(0, 3)), DPCOV_ROW_MAJOR, d, a.data(), n, d, b.data(), n, d,
      bound, epsilon(in), probability(in), nullptr, &ap, &result);
  fuzz::known_status(s);
  if (s == DPCOV_OK) fuzz::require(!std::isnan(result.delta_estimate), "audit delta");

  dpcov_rng *rng = seeded();
  dpcov_rng *child = nullptr;
  const dpcov_status c = dpcov_rng_substream(&child, rng, in.raw<uint64_t>());
  fuzz::known_status(c);
  int32_t fixed = -1;
  fuzz::require(dpcov_rng_seed_fixed(c == DPCOV_OK ? child : rng, &fixed) == DPCOV_OK && fixed == 1,
                "seed_fixed");
  std::vector<unsigned char> state(dpcov_rng_state_size() + 8);
  fuzz::require(dpcov_rng_state_save(rng, state.data(), dpcov_rng_state_size()) == DPCOV_OK, "save");
  if (in.range(0, 1)) state[static_cast<size_t>(in.range(0, static_cast<int64_t>(state.size()) - 1))] ^= in.raw<uint8_t>();
  fuzz::known_status(dpcov_rng_state_restore(rng, state.data(), static_cast<size_t>(in.range(0, static_cast<int64_t>(state.size())))));
  dpcov_rng_destroy(&child);
  dpcov_rng_destroy(&rng);
  fuzz::require(dpcov_rng_create_from_entropy(&rng) == DPCOV_OK, "entropy");
  fuzz::require(dpcov_rng_seed_fixed(rng, &fixed) == DPCOV_OK && fixed == 0, "entropy seed_fixed");
  dpcov_rng_destroy(&rng);
  fuzz::require(dpcov_mechanism_name(static_cast<int32_t>(in.range(-2, 20))) != nullptr, "name");
  fuzz::require(dpcov_version_string() != nullptr && dpcov_version_number() > 0, "version");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::Input in(data, size);
  switch (in.range(0, 12)) {
    case 0:
      coinpress(in);
      coinpress_mean(in);
      break;
    case 1: dly(in); break;
    case 2:
      exact(in);
      exact_gram(in);
      break;
    case 3: adassp(in); break;
    case 4: ols(in); break;
    case 5: glasso(in); break;
    case 6:
      pca_bound(in);
      pca_centred_bound(in);
      break;
    case 7: metrics(in); break;
    case 8: column_bounds(in); break;
    case 9: accounting(in); break;
    case 10: private_bound(in); break;
    case 11: densities(in); break;
    default: audit_and_rng(in); break;
  }
  return 0;
}
