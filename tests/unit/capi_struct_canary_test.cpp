// Every entry point that fills a caller's struct honours its struct_size (docs/abi-policy.md):
// each such struct is passed at its smallest accepted size (its first shipped size) at the start
// of a larger buffer filled with a canary pattern, the call succeeds, and every byte past
// struct_size still holds the canary. A program compiled against the oldest header would otherwise
// have its memory written past the end of its struct. The list of entry points is checked against
// the public headers, so a new entry point that fills a struct fails here until it is added.
// GCC 12 with -fsanitize=address at -O2 reports libstdc++'s own std::regex automaton as
// maybe-uninitialized (inside <functional>, not in this file's code).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "capi/struct_size.hpp"
#include "dpcov.h"

namespace {

constexpr unsigned char kCanary = 0xC3;

// A caller's struct at its first shipped size (or at `size`, a later version's) inside a
// canary-filled buffer.
template <class T>
class Canary {
 public:
  explicit Canary(size_t size = dpcov::capi::kFirstShippedSize<T>)
      : size_(size), bytes_(sizeof(T) + 64, kCanary) {
    std::memcpy(bytes_.data(), &size_, sizeof size_);
  }
  T *get() { return reinterpret_cast<T *>(bytes_.data()); }
  // The offset of the first byte past struct_size that lost the canary, or 0 if none did.
  size_t first_overwritten() const {
    for (size_t i = size_; i < bytes_.size(); ++i)
      if (bytes_[i] != kCanary) return i;
    return 0;
  }

 private:
  size_t size_;
  std::vector<unsigned char> bytes_;
};

#define EXPECT_INTACT(canary) \
  EXPECT_EQ((canary).first_overwritten(), 0u) << #canary " written past its struct_size"
#define ASSERT_CALL_OK(call) ASSERT_EQ((call), DPCOV_OK) << dpcov_last_error_message()

struct Seeded {
  dpcov_rng *rng = nullptr;
  Seeded() { dpcov_rng_create_seeded(&rng, 5, 0); }
  ~Seeded() { dpcov_rng_destroy(&rng); }
};

// d x d Gram matrix of n rows of norm <= 1 (diagonal n / (2 d), off-diagonal small).
std::vector<double> gram(int64_t d, int64_t n) {
  std::vector<double> g(static_cast<size_t>(d * d), 0.01 * static_cast<double>(n) / (2.0 * d));
  for (int64_t i = 0; i < d; ++i) g[static_cast<size_t>(i * d + i)] = static_cast<double>(n) / (2.0 * d);
  return g;
}

std::vector<double> rows(int64_t n, int64_t d, double scale) {
  std::vector<double> r;
  for (int64_t i = 0; i < n * d; ++i) r.push_back(scale * std::sin(0.7 * static_cast<double>(i)));
  return r;
}

dpcov_mechanism_params mechanism_params() {
  dpcov_mechanism_params p;
  dpcov_mechanism_params_default(&p);
  return p;
}

void mechanism_receipts() {
  Seeded s;
  const auto g = gram(3, 100);
  std::vector<double> out(9);
  Canary<dpcov_receipt> plan, release, public_receipt;
  ASSERT_CALL_OK(dpcov_mechanism_plan(DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 100, 1.0, 1.0, 1e-6,
                                      nullptr, plan.get()));
  ASSERT_CALL_OK(dpcov_mechanism_release(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_ROW_MAJOR, 3,
                                         g.data(), 3, 100, 1.0, 1.0, 1e-6, nullptr, s.rng,
                                         out.data(), 3, release.get()));
  dpcov_receipt full{};
  full.struct_size = sizeof full;
  ASSERT_CALL_OK(dpcov_mechanism_plan(DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 100, 1.0, 1.0, 1e-6,
                                      nullptr, &full));
  ASSERT_CALL_OK(dpcov_receipt_public(&full, public_receipt.get()));
  Canary<dpcov_receipt_prefix> prefix;
  ASSERT_CALL_OK(dpcov_receipt_prefix_of(&full, prefix.get()));
  EXPECT_INTACT(plan);
  EXPECT_INTACT(release);
  EXPECT_INTACT(public_receipt);
  EXPECT_INTACT(prefix);
}

void gram_accumulators() {
  Seeded s;
  const auto r = rows(10, 2, 0.5);
  dpcov_gram *g = nullptr;
  ASSERT_CALL_OK(dpcov_gram_create(&g, 2));
  ASSERT_CALL_OK(dpcov_gram_add_rows(g, DPCOV_ROW_MAJOR, 10, 2, r.data(), 2, 1.0, DPCOV_BOUND_CLIP));
  Canary<dpcov_gram_info> info;
  Canary<dpcov_receipt> receipt;
  std::vector<double> out(4);
  ASSERT_CALL_OK(dpcov_gram_get_info(g, info.get()));
  ASSERT_CALL_OK(dpcov_mechanism_release_gram(DPCOV_MECHANISM_ANALYZE_GAUSS, g, 1.0, 1e-6,
                                              nullptr, s.rng, DPCOV_ROW_MAJOR, out.data(), 2,
                                              receipt.get()));
  dpcov_gram_destroy(&g);
  EXPECT_INTACT(info);
  EXPECT_INTACT(receipt);
}

void row_bounding() {
  const auto r = rows(4, 2, 2.0);
  dpcov_row_bounding spec;
  dpcov_row_bounding_default(&spec);
  spec.bound = 1.0;
  std::vector<double> out(8);
  Canary<dpcov_gram_info> info;
  Canary<dpcov_row_refusal> refusal, raw_refusal;
  ASSERT_CALL_OK(dpcov_row_bounding_apply(&spec, DPCOV_ROW_MAJOR, 4, 2, r.data(), 2, out.data(),
                                          2, info.get(), refusal.get()));
  dpcov_gram *g = nullptr;
  ASSERT_CALL_OK(dpcov_gram_create_bounded(&g, 2, &spec));
  ASSERT_CALL_OK(dpcov_gram_add_raw_rows(g, DPCOV_ROW_MAJOR, 4, 2, r.data(), 2, raw_refusal.get()));
  dpcov_gram_destroy(&g);
  EXPECT_INTACT(info);
  EXPECT_INTACT(refusal);
  EXPECT_INTACT(raw_refusal);
}

void exact_releases() {
  Seeded s;
  const auto r = rows(20, 2, 0.5);
  std::vector<double> out(4);
  Canary<dpcov_receipt> plan_receipt, rows_receipt, gram_receipt;
  Canary<dpcov_exact_grid> plan_grid, rows_grid, gram_grid;
  Canary<dpcov_gram_info> info;
  const int32_t m = DPCOV_MECHANISM_ANALYZE_GAUSS;
  ASSERT_CALL_OK(dpcov_exact_plan(m, 2, 20, 1.0, 1.0, 1e-6, nullptr, plan_receipt.get(),
                                  plan_grid.get()));
  ASSERT_CALL_OK(dpcov_exact_release_rows(m, DPCOV_ROW_MAJOR, 20, 2, r.data(), 2, 1.0,
                                          DPCOV_BOUND_CLIP, 1.0, 1e-6, nullptr, s.rng, out.data(),
                                          2, rows_receipt.get(), rows_grid.get()));
  dpcov_exact_gram *acc = nullptr;
  ASSERT_CALL_OK(dpcov_exact_gram_create(&acc, m, 2, 1.0, DPCOV_BOUND_CLIP, 1.0, 1e-6, nullptr));
  ASSERT_CALL_OK(dpcov_exact_gram_add_rows(acc, DPCOV_ROW_MAJOR, 20, 2, r.data(), 2));
  ASSERT_CALL_OK(dpcov_exact_gram_get_info(acc, info.get()));
  ASSERT_CALL_OK(dpcov_exact_gram_release(acc, s.rng, out.data(), 2, gram_receipt.get(),
                                          gram_grid.get()));
  dpcov_exact_gram_destroy(&acc);
  EXPECT_INTACT(plan_receipt);
  EXPECT_INTACT(plan_grid);
  EXPECT_INTACT(rows_receipt);
  EXPECT_INTACT(rows_grid);
  EXPECT_INTACT(info);
  EXPECT_INTACT(gram_receipt);
  EXPECT_INTACT(gram_grid);
}

void sketches() {
  Seeded s;
  const auto r = rows(6, 2, 0.4);
  dpcov_sketch *sk = nullptr;
  ASSERT_CALL_OK(dpcov_sketch_create(&sk, 2, 4, s.rng));
  ASSERT_CALL_OK(dpcov_sketch_add_rows(sk, DPCOV_ROW_MAJOR, 6, 2, r.data(), 2, 0, 1.0,
                                       DPCOV_BOUND_CLIP));
  dpcov_mechanism_params p = mechanism_params();
  p.projection_rows = 4;
  std::vector<double> sketch_out(8), out(4);
  Canary<dpcov_gram_info> info;
  Canary<dpcov_receipt> receipt;
  ASSERT_CALL_OK(dpcov_sketch_get_info(sk, info.get()));
  ASSERT_CALL_OK(dpcov_sketch_release(DPCOV_MECHANISM_JL_RIDGE, sk, 1.0, 1e-6, &p, s.rng,
                                      DPCOV_COL_MAJOR, sketch_out.data(), 4, out.data(), 2,
                                      receipt.get()));
  dpcov_sketch_destroy(&sk);
  EXPECT_INTACT(info);
  EXPECT_INTACT(receipt);
}

void private_ols() {
  Seeded s;
  const auto g = gram(4, 5000);
  const int64_t features[3] = {0, 1, 2};
  double coef[3];
  Canary<dpcov_regression_summary> jl_summary, ag_summary;
  Canary<dpcov_receipt> jl_receipt, ag_receipt;
  dpcov_mechanism_params p = mechanism_params();
  p.projection_rows = 200;
  ASSERT_CALL_OK(dpcov_ols_jl(DPCOV_COL_MAJOR, 4, g.data(), 4, 5000, 1.0, 1.0, 1e-6, &p, 3,
                              features, 3, nullptr, s.rng, coef, nullptr, nullptr, nullptr,
                              nullptr, nullptr, nullptr, jl_summary.get(), jl_receipt.get()));
  ASSERT_CALL_OK(dpcov_ols_analyze_gauss(DPCOV_COL_MAJOR, 4, g.data(), 4, 5000, 1.0, 1.0, 1e-6,
                                         nullptr, 3, features, 3, nullptr, s.rng, coef, nullptr,
                                         nullptr, nullptr, nullptr, nullptr, nullptr,
                                         ag_summary.get(), ag_receipt.get()));
  EXPECT_INTACT(jl_summary);
  EXPECT_INTACT(jl_receipt);
  EXPECT_INTACT(ag_summary);
  EXPECT_INTACT(ag_receipt);
}

void estimators() {
  const auto g = gram(4, 100);
  const int64_t features[3] = {0, 1, 2};
  double coef[3];
  std::vector<double> precision(16), truth(16, 0.0);
  for (int i = 0; i < 4; ++i) truth[static_cast<size_t>(5 * i)] = 1.0;
  Canary<dpcov_regression_summary> summary;
  Canary<dpcov_glasso_info> info;
  Canary<dpcov_support_recovery> support;
  ASSERT_CALL_OK(dpcov_regression_fit(DPCOV_COL_MAJOR, 4, g.data(), 4, 100, 3, features, 3,
                                      nullptr, coef, nullptr, nullptr, nullptr, nullptr, nullptr,
                                      summary.get()));
  ASSERT_CALL_OK(dpcov_glasso_solve(DPCOV_COL_MAJOR, 4, truth.data(), 4, 0.1, nullptr, nullptr, 0,
                                    precision.data(), 4, nullptr, 0, info.get()));
  ASSERT_CALL_OK(dpcov_metric_support_recovery(DPCOV_COL_MAJOR, 4, precision.data(), 4,
                                               truth.data(), 4, 1e-8, support.get()));
  EXPECT_INTACT(summary);
  EXPECT_INTACT(info);
  EXPECT_INTACT(support);
}

void private_glasso() {
  Seeded s;
  const auto g = gram(3, 1000);
  std::vector<double> precision(9);
  Canary<dpcov_receipt> plan, release;
  Canary<dpcov_glasso_info> info;
  const int32_t m = DPCOV_MECHANISM_ANALYZE_GAUSS;
  ASSERT_CALL_OK(dpcov_private_glasso_plan(m, 3, 1000, 1.0, 1.0, 1e-6, nullptr, 0.05, plan.get()));
  ASSERT_CALL_OK(dpcov_private_glasso_release(m, DPCOV_COL_MAJOR, 3, g.data(), 3, 1000, 1.0, 1.0,
                                              1e-6, nullptr, 0.05, nullptr, s.rng,
                                              precision.data(), 3, release.get(), info.get()));
  EXPECT_INTACT(plan);
  EXPECT_INTACT(release);
  EXPECT_INTACT(info);
}

void private_glasso_covariance() {
  Seeded s;
  const auto g = gram(3, 1000);
  std::vector<double> covariance(9);
  Canary<dpcov_receipt> release;
  ASSERT_CALL_OK(dpcov_private_glasso_covariance(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_COL_MAJOR, 3,
                                                 g.data(), 3, 1000, 1.0, 1.0, 1e-6, nullptr,
                                                 s.rng, covariance.data(), 3, release.get()));
  EXPECT_INTACT(release);
}

void ledger() {
  dpcov_ledger *l = nullptr;
  ASSERT_CALL_OK(dpcov_ledger_create(&l, DPCOV_ACCOUNTING_BASIC, 10.0, 1e-3));
  Canary<dpcov_ledger_spent> spent;
  ASSERT_CALL_OK(dpcov_ledger_get_spent(l, spent.get()));
  dpcov_ledger_destroy(&l);
  EXPECT_INTACT(spent);
}

void registry() {
  Canary<dpcov_mechanism_entry> by_index, by_id;
  ASSERT_CALL_OK(dpcov_mechanism_info(0, by_index.get()));
  ASSERT_CALL_OK(dpcov_mechanism_info_by_id(DPCOV_MECHANISM_COINPRESS, by_id.get()));
  EXPECT_INTACT(by_index);
  EXPECT_INTACT(by_id);
  // A caller of the version that ended at unit_proof, before options and the usage texts.
  constexpr size_t kBeforeOptions = offsetof(dpcov_mechanism_entry, options);
  Canary<dpcov_mechanism_entry> older(kBeforeOptions);
  ASSERT_CALL_OK(dpcov_mechanism_info_by_id(DPCOV_MECHANISM_JL_RIDGE, older.get()));
  EXPECT_INTACT(older);
  EXPECT_NE(older.get()->unit_proof, nullptr);
  // A caller of the version that ended at inference, before unit_refusal.
  Canary<dpcov_mechanism_entry> before_refusal(offsetof(dpcov_mechanism_entry, unit_refusal));
  ASSERT_CALL_OK(dpcov_mechanism_info_by_id(DPCOV_MECHANISM_OLS_JL, before_refusal.get()));
  EXPECT_INTACT(before_refusal);
  EXPECT_EQ(before_refusal.get()->inference, DPCOV_MECHANISM_INFERENCE_PROJECTION_T);
}

void adassp() {
  Seeded s;
  const auto g = gram(4, 200);
  const int64_t features[3] = {0, 1, 2};
  double coef[3], xtx[9], xty[3];
  Canary<dpcov_adassp_receipt> plan, fit;
  ASSERT_CALL_OK(dpcov_adassp_plan(3, 1.0, 1.0, 1.0, 1e-6, nullptr, plan.get()));
  ASSERT_CALL_OK(dpcov_adassp_fit(DPCOV_COL_MAJOR, 4, g.data(), 4, 3, features, 3, 1.0, 1.0, 1.0,
                                  1e-6, nullptr, s.rng, coef, xtx, 3, xty, fit.get()));
  EXPECT_INTACT(plan);
  EXPECT_INTACT(fit);
  Canary<dpcov_sandwich_budget> budget;
  ASSERT_CALL_OK(dpcov_adassp_sandwich_plan(1.5, 1.0, 1.0, 1e-6, budget.get()));
  EXPECT_INTACT(budget);
}

void coinpress() {
  Seeded s;
  dpcov_coinpress_params p;
  dpcov_coinpress_params_default(&p);
  p.k_bound = 10.0;
  const auto r = rows(200, 3, 2.0);
  std::vector<double> out(9);
  Canary<dpcov_coinpress_receipt> plan, release;
  ASSERT_CALL_OK(dpcov_coinpress_plan(200, 3, &p, plan.get()));
  ASSERT_CALL_OK(dpcov_coinpress_release(DPCOV_ROW_MAJOR, 200, 3, r.data(), 3, &p, s.rng,
                                         out.data(), 3, release.get()));
  EXPECT_INTACT(plan);
  EXPECT_INTACT(release);
}

void coinpress_mean() {
  Seeded s;
  dpcov_coinpress_mean_params p;
  dpcov_coinpress_mean_params_default(&p);
  p.radius = 10.0;
  const auto r = rows(200, 3, 2.0);
  const double centre[3] = {0.5, -0.5, 0.0};
  double mean[3];
  Canary<dpcov_coinpress_mean_receipt> plan, release;
  ASSERT_CALL_OK(dpcov_coinpress_mean_plan(200, 3, &p, plan.get()));
  ASSERT_CALL_OK(dpcov_coinpress_mean_release(DPCOV_ROW_MAJOR, 200, 3, r.data(), 3, centre, &p,
                                              s.rng, mean, release.get()));
  EXPECT_INTACT(plan);
  EXPECT_INTACT(release);
}

void dong_liang_yi() {
  Seeded s;
  dpcov_dly_params p;
  dpcov_dly_params_default(&p);
  const auto r = rows(100, 3, 0.3);
  std::vector<double> out(9);
  Canary<dpcov_dly_receipt> plan, release;
  ASSERT_CALL_OK(dpcov_dly_plan(100, 3, &p, plan.get()));
  ASSERT_CALL_OK(dpcov_dly_release(DPCOV_ROW_MAJOR, 100, 3, r.data(), 3, &p, s.rng, out.data(), 3,
                                   release.get()));
  EXPECT_INTACT(plan);
  EXPECT_INTACT(release);
}

// Runs every pass of `session` over all of `r` in one partial.
void run_passes(dpcov_row_session *session, const std::vector<double> &r, int64_t n, int64_t d) {
  int32_t done = 0;
  ASSERT_CALL_OK(dpcov_row_session_done(session, &done));
  while (done == 0) {
    dpcov_row_partial *partial = nullptr;
    ASSERT_CALL_OK(dpcov_row_partial_create(&partial, session));
    ASSERT_CALL_OK(dpcov_row_partial_add_rows(partial, DPCOV_ROW_MAJOR, n, d, r.data(), d));
    ASSERT_CALL_OK(dpcov_row_session_finish_pass(session, &partial));
    dpcov_row_partial_destroy(&partial);
    ASSERT_CALL_OK(dpcov_row_session_done(session, &done));
  }
}

void row_sessions() {
  Seeded dly_seed, coinpress_seed;
  const auto r = rows(200, 3, 0.3);
  std::vector<double> out(9);
  dpcov_dly_params dp;
  dpcov_dly_params_default(&dp);
  dpcov_row_session *session = nullptr;
  ASSERT_CALL_OK(dpcov_dly_session_create(&session, 200, 3, &dp, &dly_seed.rng));
  run_passes(session, r, 200, 3);
  Canary<dpcov_dly_receipt> dly;
  ASSERT_CALL_OK(dpcov_dly_session_result(session, DPCOV_ROW_MAJOR, out.data(), 3, dly.get()));
  dpcov_row_session_destroy(&session);
  dpcov_coinpress_params cp;
  dpcov_coinpress_params_default(&cp);
  cp.k_bound = 10.0;
  ASSERT_CALL_OK(dpcov_coinpress_session_create(&session, 200, 3, &cp, &coinpress_seed.rng));
  run_passes(session, r, 200, 3);
  Canary<dpcov_coinpress_receipt> coinpress;
  ASSERT_CALL_OK(
      dpcov_coinpress_session_result(session, DPCOV_ROW_MAJOR, out.data(), 3, coinpress.get()));
  dpcov_row_session_destroy(&session);
  Seeded mean_seed;
  dpcov_coinpress_mean_params mp;
  dpcov_coinpress_mean_params_default(&mp);
  mp.radius = 10.0;
  ASSERT_CALL_OK(
      dpcov_coinpress_mean_session_create(&session, 200, 3, nullptr, &mp, &mean_seed.rng));
  run_passes(session, r, 200, 3);
  Canary<dpcov_coinpress_mean_receipt> mean;
  ASSERT_CALL_OK(dpcov_coinpress_mean_session_result(session, out.data(), mean.get()));
  dpcov_row_session_destroy(&session);
  EXPECT_INTACT(dly);
  EXPECT_INTACT(coinpress);
  EXPECT_INTACT(mean);
}

void unit_rows() {
  Seeded s;
  const auto r = rows(4, 2, 2.0);
  const int64_t units[4] = {0, 0, 1, 2};
  dpcov_row_bounding spec;
  dpcov_row_bounding_default(&spec);
  spec.max_rows_per_unit = 1;
  dpcov_gram *g = nullptr;
  ASSERT_CALL_OK(dpcov_gram_create_bounded(&g, 2, &spec));
  Canary<dpcov_row_refusal> refusal;
  ASSERT_CALL_OK(
      dpcov_gram_add_unit_rows(g, s.rng, DPCOV_ROW_MAJOR, 4, 2, r.data(), 2, units, refusal.get()));
  dpcov_gram_destroy(&g);
  EXPECT_INTACT(refusal);
}

void audits() {
  dpcov_audit_params p;
  dpcov_audit_params_default(&p);
  p.trials = 200;
  p.first_checkpoint = 100;
  const double r[4] = {0.5, 0.0, 0.0, 0.5}, r_prime[4] = {0.5, 0.0, 0.0, -0.5};
  Canary<dpcov_audit_result> run, pair;
  Canary<dpcov_black_box_result> black_box;
  Canary<dpcov_coinpress_mean_audit_result> mean;
  Canary<dpcov_rows_exact_audit_result> exact, exact_pairs;
  ASSERT_CALL_OK(dpcov_audit_run(DPCOV_MECHANISM_ANALYZE_GAUSS, 2, 10, 1.0, 1.0, 1e-6, nullptr, &p,
                                 run.get()));
  ASSERT_CALL_OK(dpcov_audit_run_pair(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_ROW_MAJOR, 2, r, 2, 2,
                                      r_prime, 2, 2, 1.0, 1.0, 1e-6, nullptr, &p, pair.get()));
  ASSERT_CALL_OK(dpcov_audit_rows_black_box(DPCOV_AUDIT_ROWS_DLY_GAUSS, 3, 20, 0.1, 1e-6, 1.0,
                                            DPCOV_BLACK_BOX_TOP_EIGENVALUE, 10, 1e-6, 0,
                                            black_box.get()));
  dpcov_coinpress_mean_params mp;
  dpcov_coinpress_mean_params_default(&mp);
  mp.radius = 10.0;
  ASSERT_CALL_OK(dpcov_audit_coinpress_mean(3, 1000, &mp, 2, 1e-6, 7, mean.get()));
  int64_t worst = 0;
  ASSERT_CALL_OK(dpcov_audit_rows_exact(DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 1.0, 1e-6, 2, 1e-6, 7,
                                        exact.get()));
  ASSERT_CALL_OK(dpcov_audit_rows_exact_pairs(DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 1.0, 1e-6, 2, 1e-6, 7,
                                              2, exact_pairs.get(), &worst));
  Canary<dpcov_rows_exact_audit_result> rows_units;
  ASSERT_CALL_OK(dpcov_audit_rows_units(DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 2, 1.0, 1e-6, 0, 2, 1e-6, 7,
                                        rows_units.get()));
  Canary<dpcov_audit_result> units;
  ASSERT_CALL_OK(dpcov_audit_units(DPCOV_MECHANISM_ANALYZE_GAUSS, 2, 2, 1.0, 1.0, 1e-6, 0, nullptr,
                                   &p, units.get()));
  EXPECT_INTACT(run);
  EXPECT_INTACT(pair);
  EXPECT_INTACT(black_box);
  EXPECT_INTACT(mean);
  EXPECT_INTACT(exact);
  EXPECT_INTACT(exact_pairs);
  EXPECT_INTACT(units);
  EXPECT_INTACT(rows_units);
}

void forecasts() {
  dpcov_receipt plan{};
  plan.struct_size = sizeof plan;
  ASSERT_CALL_OK(dpcov_mechanism_plan(DPCOV_MECHANISM_ANALYZE_GAUSS, 4, 1000, 1.0, 1.0, 1e-6,
                                      nullptr, &plan));
  dpcov_adassp_receipt adassp_plan{};
  adassp_plan.struct_size = sizeof adassp_plan;
  ASSERT_CALL_OK(dpcov_adassp_plan(3, 1.0, 1.0, 1.0, 1e-6, nullptr, &adassp_plan));
  Canary<dpcov_regression_forecast> release, adassp, intercept;
  ASSERT_CALL_OK(dpcov_regression_forecast_release(&plan, 1000.0, 0.95, 1.0, release.get()));
  ASSERT_CALL_OK(dpcov_regression_forecast_adassp(&adassp_plan, 1000.0, 0.95, 1.0, adassp.get()));
  adassp_plan.bound = 2.0;
  ASSERT_CALL_OK(dpcov_regression_forecast_adassp_intercept(&adassp_plan, 1000.0, 0.95, 1.0,
                                                            intercept.get()));
  dpcov_adassp_fit_request request{};
  request.struct_size = sizeof request;
  request.num_regressors = 3;
  request.bound = 2.0;
  request.bound_y = 1.0;
  request.epsilon = 1.0;
  request.delta = 1e-6;
  request.rows = 1000.0;
  request.level = 0.95;
  request.intervals = DPCOV_FIT_INTERVALS_DECIDED;
  request.robust = 1;
  request.small_n_posterior = 1;
  Canary<dpcov_adassp_params> decided;
  Canary<dpcov_adassp_fit_decision> decision;
  Canary<dpcov_regression_forecast> deciding;
  ASSERT_CALL_OK(dpcov_adassp_default_fit(&request, nullptr, decided.get(), decision.get(),
                                          deciding.get()));
  EXPECT_INTACT(release);
  EXPECT_INTACT(adassp);
  EXPECT_INTACT(intercept);
  EXPECT_INTACT(decided);
  EXPECT_INTACT(decision);
  EXPECT_INTACT(deciding);
}

// An initialiser given the first shipped size, as a program compiled against the oldest header
// passes it through dpcov_X_default(): it writes that many bytes and says so in struct_size.
template <class T>
void first_shipped_init(dpcov_status (*init)(T *, size_t)) {
  Canary<T> c;
  const size_t size = dpcov::capi::kFirstShippedSize<T>;
  ASSERT_CALL_OK(init(c.get(), size));
  EXPECT_EQ(c.get()->struct_size, size);
  EXPECT_INTACT(c);
}

void initialisers() {
  first_shipped_init(dpcov_mechanism_params_init);
  first_shipped_init(dpcov_row_bounding_init);
  first_shipped_init(dpcov_regression_params_init);
  first_shipped_init(dpcov_glasso_params_init);
  first_shipped_init(dpcov_audit_params_init);
  first_shipped_init(dpcov_adassp_params_init);
  first_shipped_init(dpcov_coinpress_params_init);
  first_shipped_init(dpcov_coinpress_mean_params_init);
  first_shipped_init(dpcov_dly_params_init);
}

void planned_releases() {
  Seeded s;
  const auto r = rows(20, 2, 0.5);
  std::vector<double> out(4);
  Canary<dpcov_receipt> plan_receipt, release_receipt;
  Canary<dpcov_exact_grid> plan_grid;
  dpcov_plan *plan = nullptr;
  ASSERT_CALL_OK(dpcov_plan_create(&plan, DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NUMERICS_EXACT, 2,
                                   0, 1.0, 1.0, 1e-6, nullptr));
  ASSERT_CALL_OK(dpcov_plan_get_receipt(plan, plan_receipt.get()));
  ASSERT_CALL_OK(dpcov_plan_get_exact_grid(plan, plan_grid.get()));
  dpcov_row_bounding spec;
  ASSERT_CALL_OK(dpcov_row_bounding_default(&spec));
  dpcov_gram *g = nullptr;
  ASSERT_CALL_OK(dpcov_gram_create_planned(&g, 2, &spec, plan));
  ASSERT_CALL_OK(dpcov_gram_add_raw_rows(g, DPCOV_ROW_MAJOR, 20, 2, r.data(), 2, nullptr));
  ASSERT_CALL_OK(dpcov_plan_release_gram(plan, g, s.rng, DPCOV_ROW_MAJOR, out.data(), 2,
                                         release_receipt.get()));
  dpcov_gram_destroy(&g);
  dpcov_plan_destroy(&plan);
  EXPECT_INTACT(plan_receipt);
  EXPECT_INTACT(plan_grid);
  EXPECT_INTACT(release_receipt);
  Canary<dpcov_receipt> matrix_receipt;
  const auto statistic = gram(2, 20);
  ASSERT_CALL_OK(dpcov_plan_create(&plan, DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NUMERICS_IDEALIZED,
                                   2, 20, 1.0, 1.0, 1e-6, nullptr));
  ASSERT_CALL_OK(dpcov_plan_release_matrix(plan, DPCOV_ROW_MAJOR, 2, statistic.data(), 2, s.rng,
                                           out.data(), 2, matrix_receipt.get()));
  dpcov_plan_destroy(&plan);
  EXPECT_INTACT(matrix_receipt);
}

// Each entry point that fills a caller's struct, with the case that calls it.
const std::map<std::string, void (*)()> &cases() {
  static const std::map<std::string, void (*)()> table = {
      {"dpcov_mechanism_plan", mechanism_receipts},
      {"dpcov_mechanism_release", mechanism_receipts},
      {"dpcov_receipt_public", mechanism_receipts},
      {"dpcov_receipt_prefix_of", mechanism_receipts},
      {"dpcov_gram_get_info", gram_accumulators},
      {"dpcov_mechanism_release_gram", gram_accumulators},
      {"dpcov_row_bounding_apply", row_bounding},
      {"dpcov_gram_add_raw_rows", row_bounding},
      {"dpcov_exact_plan", exact_releases},
      {"dpcov_exact_release_rows", exact_releases},
      {"dpcov_exact_gram_get_info", exact_releases},
      {"dpcov_exact_gram_release", exact_releases},
      {"dpcov_plan_get_receipt", planned_releases},
      {"dpcov_plan_get_exact_grid", planned_releases},
      {"dpcov_plan_release_gram", planned_releases},
      {"dpcov_plan_release_matrix", planned_releases},
      {"dpcov_sketch_get_info", sketches},
      {"dpcov_sketch_release", sketches},
      {"dpcov_ols_jl", private_ols},
      {"dpcov_ols_analyze_gauss", private_ols},
      {"dpcov_regression_fit", estimators},
      {"dpcov_glasso_solve", estimators},
      {"dpcov_metric_support_recovery", estimators},
      {"dpcov_private_glasso_plan", private_glasso},
      {"dpcov_private_glasso_release", private_glasso},
      {"dpcov_private_glasso_covariance", private_glasso_covariance},
      {"dpcov_ledger_get_spent", ledger},
      {"dpcov_mechanism_info", registry},
      {"dpcov_mechanism_info_by_id", registry},
      {"dpcov_adassp_plan", adassp},
      {"dpcov_adassp_fit", adassp},
      {"dpcov_adassp_sandwich_plan", adassp},
      {"dpcov_coinpress_plan", coinpress},
      {"dpcov_coinpress_release", coinpress},
      {"dpcov_coinpress_mean_plan", coinpress_mean},
      {"dpcov_coinpress_mean_release", coinpress_mean},
      {"dpcov_dly_plan", dong_liang_yi},
      {"dpcov_dly_release", dong_liang_yi},
      {"dpcov_dly_session_result", row_sessions},
      {"dpcov_coinpress_session_result", row_sessions},
      {"dpcov_coinpress_mean_session_result", row_sessions},
      {"dpcov_gram_add_unit_rows", unit_rows},
      {"dpcov_audit_run", audits},
      {"dpcov_audit_run_pair", audits},
      {"dpcov_audit_rows_black_box", audits},
      {"dpcov_audit_coinpress_mean", audits},
      {"dpcov_audit_rows_exact", audits},
      {"dpcov_audit_rows_exact_pairs", audits},
      {"dpcov_audit_units", audits},
      {"dpcov_audit_rows_units", audits},
      {"dpcov_regression_forecast_release", forecasts},
      {"dpcov_regression_forecast_adassp", forecasts},
      {"dpcov_regression_forecast_adassp_intercept", forecasts},
      {"dpcov_adassp_default_fit", forecasts},
      {"dpcov_mechanism_params_init", initialisers},
      {"dpcov_row_bounding_init", initialisers},
      {"dpcov_regression_params_init", initialisers},
      {"dpcov_glasso_params_init", initialisers},
      {"dpcov_audit_params_init", initialisers},
      {"dpcov_adassp_params_init", initialisers},
      {"dpcov_coinpress_params_init", initialisers},
      {"dpcov_coinpress_mean_params_init", initialisers},
      {"dpcov_dly_params_init", initialisers},
  };
  return table;
}

TEST(CapiStructCanary, EveryStructFilledAtItsFirstShippedSizeLeavesTheCanaryIntact) {
  std::set<void (*)()> run;
  for (const auto &[name, fn] : cases()) {
    if (!run.insert(fn).second) continue;
    SCOPED_TRACE(name);
    fn();
  }
}

// The public headers' entry points with a non-const pointer to a struct that begins with
// struct_size, the initialisers (dpcov_X_init) included.
std::set<std::string> struct_filling_entry_points(const std::filesystem::path &dir) {
  std::string text;
  for (const auto &entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path());
    std::stringstream ss;
    ss << in.rdbuf();
    text += std::regex_replace(ss.str(), std::regex(R"(/\*[^*]*\*+(?:[^/*][^*]*\*+)*/)"), " ");
  }
  std::set<std::string> sized;
  const std::regex sized_struct(R"(typedef struct (dpcov_\w+)\s*\{\s*size_t struct_size;)");
  for (std::sregex_iterator it(text.begin(), text.end(), sized_struct), end; it != end; ++it)
    sized.insert((*it)[1]);
  std::set<std::string> names;
  const std::regex function(R"(DPCOV_API\s+dpcov_status\s+(dpcov_\w+)\s*\(([^)]*)\))");
  const std::regex out_param(R"((?:^|,)\s*(dpcov_\w+)\s*\*)");
  for (std::sregex_iterator it(text.begin(), text.end(), function), end; it != end; ++it) {
    const std::string name = (*it)[1], params = (*it)[2];
    for (std::sregex_iterator p(params.begin(), params.end(), out_param); p != end; ++p)
      if (sized.count((*p)[1])) names.insert(name);
  }
  return names;
}

TEST(CapiStructCanary, EveryEntryPointThatFillsAStructIsCovered) {
  const char *dir = std::getenv("DPCOV_PUBLIC_HEADER_DIR");
  ASSERT_NE(dir, nullptr) << "DPCOV_PUBLIC_HEADER_DIR must name capi/include/dpcov";
  const std::set<std::string> in_headers = struct_filling_entry_points(dir);
  ASSERT_GT(in_headers.size(), 20u) << "the header scan found too few entry points";
  for (const std::string &name : in_headers)
    EXPECT_TRUE(cases().count(name)) << name << " fills a caller's struct and has no canary case";
  for (const auto &[name, fn] : cases())
    EXPECT_TRUE(in_headers.count(name)) << name << " is not an entry point that fills a struct";
}

}  // namespace
