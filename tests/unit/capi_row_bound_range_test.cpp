// Row bounds below the proven range: proofs/row_bound.md proves that every row kept whole or
// clipped has exact norm <= B for B >= 2^-960; below, the entries of a clipped row round in the
// subnormals by more than the shave covers (at B = 3 2^-1070 the row (2^-60, 2^-60) clipped to a
// norm above B). Every entry point where a row bound enters refuses such a B with
// DPCOV_E_INVALID_ARGUMENT, a message naming the range, and its outputs (and generator) untouched;
// B = 2^-960 itself is accepted and bounds rows within it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

constexpr double kSmallest = 0x1p-960;
const double kBelow[] = {0x1p-1074, 0x1p-1000, 0x1p-961, 3 * 0x1p-1070,
                         std::nextafter(kSmallest, 0.0)};

void expect_refused(dpcov_status status, double bound) {
  EXPECT_EQ(status, DPCOV_E_INVALID_ARGUMENT) << "B = " << bound;
  EXPECT_NE(std::string(dpcov_last_error_message()).find("2^-960"), std::string::npos)
      << dpcov_last_error_message();
}

std::vector<double> rows_of(int64_t n, int64_t d, double scale) {
  std::vector<double> rows;
  for (int64_t i = 0; i < n * d; ++i) rows.push_back(scale * std::sin(0.7 * static_cast<double>(i)));
  return rows;
}

std::vector<unsigned char> state_of(const dpcov_rng *rng) {
  std::vector<unsigned char> state(dpcov_rng_state_size());
  EXPECT_EQ(dpcov_rng_state_save(rng, state.data(), state.size()), DPCOV_OK);
  return state;
}

TEST(CapiRowBoundRange, AccumulatorsRefuseAndKeepTheirState) {
  const std::vector<double> a = rows_of(5, 3, 1.0);
  for (double bound : kBelow) {
    dpcov_gram *g = nullptr;
    ASSERT_EQ(dpcov_gram_create(&g, 3), DPCOV_OK);
    ASSERT_EQ(dpcov_gram_add_rows(g, DPCOV_ROW_MAJOR, 5, 3, a.data(), 3, 1.0, DPCOV_BOUND_CLIP),
              DPCOV_OK);
    std::vector<double> before(9), after(9);
    dpcov_gram_get_matrix(g, DPCOV_ROW_MAJOR, before.data(), 3);
    for (int32_t policy : {DPCOV_BOUND_CLIP, DPCOV_BOUND_DROP, DPCOV_BOUND_REJECT})
      expect_refused(
          dpcov_gram_add_rows(g, DPCOV_ROW_MAJOR, 5, 3, a.data(), 3, bound, policy), bound);
    dpcov_gram_get_matrix(g, DPCOV_ROW_MAJOR, after.data(), 3);
    EXPECT_EQ(before, after);
    // A state summed elsewhere under such a bound.
    dpcov_gram_info info{};
    info.struct_size = sizeof info;
    ASSERT_EQ(dpcov_gram_get_info(g, &info), DPCOV_OK);
    info.bound = bound;
    const std::vector<double> zero(9, 0.0);
    info.rows = 0;
    info.clipped = 0;
    info.dropped = 0;
    dpcov_gram *restored = nullptr;
    expect_refused(dpcov_gram_create_from_state(&restored, &info, DPCOV_ROW_MAJOR, zero.data(), 3),
                   bound);
    EXPECT_EQ(restored, nullptr);
    dpcov_gram_destroy(&g);

    dpcov_rng *rng = nullptr;
    ASSERT_EQ(dpcov_rng_create_seeded(&rng, 5, 0), DPCOV_OK);
    dpcov_sketch *s = nullptr;
    ASSERT_EQ(dpcov_sketch_create(&s, 3, 8, rng), DPCOV_OK);
    expect_refused(
        dpcov_sketch_add_rows(s, DPCOV_ROW_MAJOR, 5, 3, a.data(), 3, 0, bound, DPCOV_BOUND_CLIP),
        bound);
    dpcov_gram_info sinfo{};
    sinfo.struct_size = sizeof sinfo;
    ASSERT_EQ(dpcov_sketch_get_info(s, &sinfo), DPCOV_OK);
    EXPECT_EQ(sinfo.rows, 0);
    dpcov_sketch_destroy(&s);
    dpcov_rng_destroy(&rng);
  }
}

TEST(CapiRowBoundRange, MechanismsRefuseBeforeAnyNoise) {
  const std::vector<double> gram = {1e-300, 0, 0, 0, 1e-300, 0, 0, 0, 1e-300};
  const std::vector<double> a = rows_of(10, 3, 1.0);
  for (double bound : kBelow) {
    dpcov_receipt receipt{};
    receipt.struct_size = sizeof receipt;
    expect_refused(dpcov_mechanism_plan(DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 10, bound, 1.0, 1e-6,
                                        nullptr, &receipt),
                   bound);
    dpcov_rng *rng = nullptr;
    ASSERT_EQ(dpcov_rng_create_seeded(&rng, 7, 0), DPCOV_OK);
    const std::vector<unsigned char> before = state_of(rng);
    std::vector<double> out(9, -7.0);
    expect_refused(dpcov_mechanism_release(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_ROW_MAJOR, 3,
                                           gram.data(), 3, 10, bound, 1.0, 1e-6, nullptr, rng,
                                           out.data(), 3, &receipt),
                   bound);
    dpcov_exact_grid grid{};
    grid.struct_size = sizeof grid;
    expect_refused(dpcov_exact_release_rows(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_ROW_MAJOR, 10, 3,
                                            a.data(), 3, bound, DPCOV_BOUND_CLIP, 1.0, 1e-6,
                                            nullptr, rng, out.data(), 3, &receipt, &grid),
                   bound);
    dpcov_dly_params p;
    dpcov_dly_params_default(&p);
    p.radius = bound;
    dpcov_dly_receipt dr{};
    dr.struct_size = sizeof dr;
    expect_refused(dpcov_dly_plan(10, 3, &p, &dr), bound);
    expect_refused(
        dpcov_dly_release(DPCOV_ROW_MAJOR, 10, 3, a.data(), 3, &p, rng, out.data(), 3, &dr),
        bound);
    for (double v : out) EXPECT_EQ(v, -7.0);
    EXPECT_EQ(state_of(rng), before);
    dpcov_rng_destroy(&rng);
  }
}

// CoinPress's mean bounds the centred rows by a clip radius R_i >= max(r_i, scale gamma): a scale
// so small that a step's radius falls below the range refuses at the plan, naming the scale.
TEST(CapiRowBoundRange, CoinPressMeanRefusesAClipRadiusBelowTheRange) {
  dpcov_coinpress_mean_params p;
  dpcov_coinpress_mean_params_default(&p);
  p.radius = 0.0;
  dpcov_coinpress_mean_receipt r{};
  r.struct_size = sizeof r;
  for (double scale : {1e-300, 0x1p-1074, 0x1p-965}) {
    p.scale = scale;
    expect_refused(dpcov_coinpress_mean_plan(100, 3, &p, &r), p.scale);
    EXPECT_NE(std::string(dpcov_last_error_message()).find("scale = "), std::string::npos)
        << dpcov_last_error_message();
  }
  p.scale = 1e-100;
  EXPECT_EQ(dpcov_coinpress_mean_plan(100, 3, &p, &r), DPCOV_OK) << dpcov_last_error_message();
}

// CoinPress's mean plans and releases at every scale whose radii are in the range, from 1 down to
// scale gamma = 2^-960: its radii squared r^2 and (scale gamma)^2, which underflowed for
// scale gamma below about 1e-154 (R was 0 at r = 0, refused as "got 0"; the next prior radius was
// 0). Each R_i is at least max(r_i, scale gamma), and the release's estimate is finite.
TEST(CapiRowBoundRange, CoinPressMeanReleasesDownToTheSmallestRadius) {
  std::vector<double> scales;
  for (int k = 0; k <= 960; k += 8) scales.push_back(std::ldexp(1.0, -k));
  for (int k = 500; k <= 957; k += 19) scales.push_back(std::ldexp(1.61, -k));
  dpcov_coinpress_mean_params p;
  dpcov_coinpress_mean_params_default(&p);
  dpcov_coinpress_mean_receipt r{};
  r.struct_size = sizeof r;
  for (double scale : scales) {
    for (double radius : {0.0, 10.0 * scale}) {
      p.scale = scale;
      p.radius = radius;
      // gamma at d = 3, beta = 0.01 (Laurent & Massart; pinned in proofs/check/coinpress.py).
      const double log_100 = std::log(100.0);
      const double gamma = std::sqrt(3.0 + 2.0 * std::sqrt(3.0 * log_100) + 2.0 * log_100);
      const double low = scale * gamma * (1.0 - 0x1p-40);  // scale gamma from below
      const double high = scale * gamma * (1.0 + 0x1p-40);
      const dpcov_status planned = dpcov_coinpress_mean_plan(200, 3, &p, &r);
      if (std::max(radius, high) < kSmallest) {
        expect_refused(planned, scale);
        continue;
      }
      // In between, R_1 >= r may be in the range and a later step's R_i (>= scale gamma) not.
      if (low < kSmallest) continue;
      ASSERT_EQ(planned, DPCOV_OK) << "scale = " << scale << ": " << dpcov_last_error_message();
      const std::vector<double> a = rows_of(200, 3, scale);
      dpcov_rng *rng = nullptr;
      ASSERT_EQ(dpcov_rng_create_seeded(&rng, 3, 0), DPCOV_OK);
      std::vector<double> mean(3, 0.0);
      ASSERT_EQ(dpcov_coinpress_mean_release(DPCOV_ROW_MAJOR, 200, 3, a.data(), 3, nullptr, &p,
                                             rng, mean.data(), &r),
                DPCOV_OK)
          << "scale = " << scale << ": " << dpcov_last_error_message();
      EXPECT_GE(r.step_clip_radius[0], std::max(radius, low)) << "scale = " << scale;
      for (int64_t i = 0; i < r.steps; ++i) {
        EXPECT_GE(r.step_clip_radius[i], low) << "scale = " << scale << ", step " << i;
        EXPECT_TRUE(r.step_sigma[i] > 0.0 && std::isfinite(r.step_sigma[i])) << scale;
      }
      for (double m : mean) EXPECT_TRUE(std::isfinite(m)) << "scale = " << scale;
      dpcov_rng_destroy(&rng);
    }
  }
}

// B = 2^-960 itself is accepted, for rows of every scale from far below it to far above (that
// every row kept whole or clipped there has exact norm <= B is tests/property/row_bound_test.cpp's).
TEST(CapiRowBoundRange, TheSmallestBoundIsAcceptedAndHolds) {
  for (double scale : {0x1p-1000, 0x1p-961, 0x1p-960, 0x1p-900, 1.0, 1e300}) {
    const std::vector<double> a = rows_of(64, 5, scale);
    dpcov_gram *g = nullptr;
    ASSERT_EQ(dpcov_gram_create(&g, 5), DPCOV_OK);
    ASSERT_EQ(dpcov_gram_add_rows(g, DPCOV_ROW_MAJOR, 64, 5, a.data(), 5, kSmallest,
                                  DPCOV_BOUND_CLIP),
              DPCOV_OK)
        << dpcov_last_error_message();
    dpcov_gram_info info{};
    info.struct_size = sizeof info;
    ASSERT_EQ(dpcov_gram_get_info(g, &info), DPCOV_OK);
    EXPECT_EQ(info.bound, kSmallest);
    dpcov_gram_destroy(&g);
  }
}

// Analyze Gauss at every bound from 1 down to 2^-960: from B = 2^-500 on it releases, with a
// finite sigma at least sigma(1) times the sensitivity (sigma is homogeneous in the sensitivity;
// proofs/check/analyze_gauss.py checks it against mpmath); below, where the Gram's entries round
// in the subnormals by as much as the sensitivity B^2, it refuses naming 2^-500 (it refused with
// DPCOV_E_NO_CONVERGENCE from the calibration below about 2^-511).
TEST(CapiRowBoundRange, AnalyzeGaussReleasesOrRefusesClearlyDownToTheSmallestBound) {
  std::vector<double> bounds;
  for (int k = 0; k <= 960; k += 8) bounds.push_back(std::ldexp(1.0, -k));
  for (int k = 500; k <= 959; k += 23) bounds.push_back(std::ldexp(1.37, -k));
  for (double edge : {0x1p-500, 0x1p-537}) {
    bounds.push_back(std::nextafter(edge, 0.0));
    bounds.push_back(std::nextafter(edge, 1.0));
  }
  bounds.push_back(std::nextafter(kSmallest, 1.0));
  for (double bound : bounds) {
    const std::vector<double> a = rows_of(16, 3, bound);
    dpcov_gram *g = nullptr;
    ASSERT_EQ(dpcov_gram_create(&g, 3), DPCOV_OK);
    ASSERT_EQ(dpcov_gram_add_rows(g, DPCOV_ROW_MAJOR, 16, 3, a.data(), 3, bound, DPCOV_BOUND_CLIP),
              DPCOV_OK)
        << dpcov_last_error_message();
    dpcov_rng *rng = nullptr;
    ASSERT_EQ(dpcov_rng_create_seeded(&rng, 11, 0), DPCOV_OK);
    std::vector<double> out(9, 0.0);
    dpcov_receipt receipt{};
    receipt.struct_size = sizeof receipt;
    const dpcov_status status =
        dpcov_mechanism_release_gram(DPCOV_MECHANISM_ANALYZE_GAUSS, g, 1.0, 1e-6, nullptr, rng,
                                     DPCOV_ROW_MAJOR, out.data(), 3, &receipt);
    if (bound < 0x1p-500) {
      EXPECT_EQ(status, DPCOV_E_INVALID_ARGUMENT) << "B = " << bound;
      EXPECT_NE(std::string(dpcov_last_error_message()).find("2^-500"), std::string::npos)
          << dpcov_last_error_message();
      for (double x : out) EXPECT_EQ(x, 0.0) << "B = " << bound;
      dpcov_rng_destroy(&rng);
      dpcov_gram_destroy(&g);
      continue;
    }
    EXPECT_EQ(status, DPCOV_OK) << "B = " << bound << ": " << dpcov_last_error_message();
    EXPECT_TRUE(receipt.sigma > 0.0 && std::isfinite(receipt.sigma)) << "B = " << bound;
    for (double x : out) EXPECT_TRUE(std::isfinite(x)) << "B = " << bound;
    // sigma(1) = 4.224679 at epsilon = 1, delta = 1e-6 (constants.md section 2), from below.
    const int e = std::ilogb(receipt.sensitivity);
    EXPECT_GE(std::scalbn(receipt.sigma, -e),
              4.2246 * std::scalbn(receipt.sensitivity, -e))
        << "B = " << bound;
    dpcov_rng_destroy(&rng);
    dpcov_gram_destroy(&g);
  }
}

// AdaSSP takes the caller's Gram with B_X and B_Y: X'X, X'y and y'y are entries of a computed Gram,
// so each bound is refused below 2^-500 as every mechanism on the Gram refuses B (it accepted
// B_X = 1e-300, below even the row-bound range, with sigma_gram = 18 subnormal steps), in the
// plan and in the fit before any noise (generator, outputs and receipt untouched); 2^-500 itself
// is accepted.
TEST(CapiRowBoundRange, AdasspRefusesBoundsBelowTheGramRange) {
  const double g[9] = {2.0, 0.5, 0.1, 0.5, 3.0, 0.2, 0.1, 0.2, 1.0};
  const int64_t features[2] = {0, 1};
  for (const double bound : {0x1p-1074, 1e-300, 0x1p-537, std::nextafter(0x1p-500, 0.0), 0x1p-500}) {
    for (const int which : {0, 1}) {
      const double bx = which == 0 ? bound : 1.0, by = which == 1 ? bound : 1.0;
      dpcov_adassp_receipt receipt{};
      receipt.struct_size = sizeof receipt;
      const dpcov_status planned = dpcov_adassp_plan(2, bx, by, 1.0, 1e-6, nullptr, &receipt);
      dpcov_rng *rng = nullptr;
      ASSERT_EQ(dpcov_rng_create_seeded(&rng, 5, 0), DPCOV_OK);
      const std::vector<unsigned char> before = state_of(rng);
      double coefficients[2] = {-7.0, -7.0};
      dpcov_adassp_receipt fitted{};
      fitted.struct_size = sizeof fitted;
      const dpcov_status fit = dpcov_adassp_fit(DPCOV_ROW_MAJOR, 3, g, 3, 2, features, 2, bx, by,
                                                1.0, 1e-6, nullptr, rng, coefficients, nullptr,
                                                0, nullptr, &fitted);
      if (bound >= 0x1p-500) {
        EXPECT_EQ(planned, DPCOV_OK) << dpcov_last_error_message();
        EXPECT_EQ(fit, DPCOV_OK) << dpcov_last_error_message();
      } else {
        for (const dpcov_status status : {planned, fit}) {
          EXPECT_EQ(status, DPCOV_E_INVALID_ARGUMENT) << "B = " << bound;
        }
        EXPECT_NE(std::string(dpcov_last_error_message()).find("2^-500"), std::string::npos)
            << dpcov_last_error_message();
        EXPECT_EQ(state_of(rng), before);
        EXPECT_EQ(coefficients[0], -7.0);
        EXPECT_EQ(fitted.sigma_gram, 0.0);
      }
      dpcov_rng_destroy(&rng);
    }
  }
}

}  // namespace
