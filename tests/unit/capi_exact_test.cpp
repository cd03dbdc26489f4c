// Exact numerics through the C ABI (dpcov/exact.h): plan and release agree, the release is unit^2
// times integers with the recorded grid and noise law, the ChaCha20 default is recorded, a release
// from an exact accumulator fed in chunks is the release from the rows, and every bad argument
// gets its status with outputs and generator untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "dpcov.h"

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Fixture {
  int64_t n = 50, d = 3;
  std::vector<double> a;  // row-major
  Fixture() : a(static_cast<size_t>(n * d)) {
    for (int64_t i = 0; i < n * d; ++i) a[static_cast<size_t>(i)] = 0.3 * std::sin(1.7 * static_cast<double>(i));
  }
};

dpcov_receipt empty_receipt() {
  dpcov_receipt r{};
  r.struct_size = sizeof r;
  return r;
}

dpcov_exact_grid empty_grid() {
  dpcov_exact_grid g{};
  g.struct_size = sizeof g;
  return g;
}

std::vector<unsigned char> state_of(const dpcov_rng *rng) {
  std::vector<unsigned char> s(dpcov_rng_state_size());
  EXPECT_EQ(dpcov_rng_state_save(rng, s.data(), s.size()), DPCOV_OK);
  return s;
}

TEST(CapiExact, ReleaseMatchesItsPlanAndIsUnitSquaredTimesIntegers) {
  Fixture f;
  dpcov_rng *rng = nullptr;
  ASSERT_EQ(dpcov_rng_create_from_entropy(&rng), DPCOV_OK);
  for (int32_t m : {DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_MECHANISM_LAPLACE_SYM}) {
    const double delta = m == DPCOV_MECHANISM_ANALYZE_GAUSS ? 1e-6 : 0.0;
    dpcov_receipt planned = empty_receipt(), released = empty_receipt();
    dpcov_exact_grid pg = empty_grid(), rg = empty_grid();
    ASSERT_EQ(dpcov_exact_plan(m, f.d, f.n, 1.0, 1.0, delta, nullptr, &planned, &pg), DPCOV_OK)
        << dpcov_last_error_message();
    std::vector<double> out(static_cast<size_t>(f.d * f.d), kNaN);
    ASSERT_EQ(dpcov_exact_release_rows(m, DPCOV_ROW_MAJOR, f.n, f.d, f.a.data(), f.d, 1.0,
                                       DPCOV_BOUND_CLIP, 1.0, delta, nullptr, rng, out.data(), f.d,
                                       &released, &rg),
              DPCOV_OK)
        << dpcov_last_error_message();
    EXPECT_EQ(std::memcmp(&pg, &rg, sizeof pg), 0);
    EXPECT_EQ(released.numerics, DPCOV_NUMERICS_EXACT);
    EXPECT_EQ(planned.numerics, DPCOV_NUMERICS_EXACT);
    EXPECT_EQ(released.generator, DPCOV_GENERATOR_CHACHA20);
    EXPECT_EQ(released.seed_fixed, 0);
    EXPECT_EQ(released.sigma, planned.sigma);
    EXPECT_EQ(released.scale, planned.scale);
    EXPECT_EQ(rg.bits, 12);
    EXPECT_EQ(rg.unit, std::ldexp(1.0, -12));
    EXPECT_EQ(rg.noise_law, m == DPCOV_MECHANISM_ANALYZE_GAUSS
                                ? DPCOV_INTEGER_NOISE_DISCRETE_GAUSSIAN
                                : DPCOV_INTEGER_NOISE_DISCRETE_LAPLACE);
    if (m == DPCOV_MECHANISM_ANALYZE_GAUSS)
      EXPECT_EQ(planned.sigma, std::sqrt(static_cast<double>(rg.noise_parameter)) * rg.unit * rg.unit);
    else
      EXPECT_EQ(planned.scale, static_cast<double>(rg.noise_parameter) * rg.unit * rg.unit);
    for (int64_t i = 0; i < f.d; ++i)
      for (int64_t j = 0; j < f.d; ++j) {
        const double units = out[static_cast<size_t>(i * f.d + j)] / (rg.unit * rg.unit);
        EXPECT_EQ(units, std::nearbyint(units));
        EXPECT_EQ(out[static_cast<size_t>(i * f.d + j)], out[static_cast<size_t>(j * f.d + i)]);
      }
  }
  dpcov_rng_destroy(&rng);
}

TEST(CapiExact, BadArgumentsLeaveOutputsAndGeneratorUntouched) {
  Fixture f;
  dpcov_rng *rng = nullptr;
  ASSERT_EQ(dpcov_rng_create_seeded(&rng, 1, 0), DPCOV_OK);
  const std::vector<unsigned char> before = state_of(rng);
  const int32_t ag = DPCOV_MECHANISM_ANALYZE_GAUSS;
  std::vector<double> out(static_cast<size_t>(f.d * f.d), 7.0);
  dpcov_receipt r = empty_receipt();
  dpcov_exact_grid g = empty_grid();
  const auto release = [&](int32_t m, int32_t layout, int64_t rows, int64_t cols, const double *a,
                           int64_t lda, double bound, int32_t policy, double eps, double delta,
                           const dpcov_mechanism_params *p, dpcov_rng *gen, double *o, int64_t ldo,
                           dpcov_receipt *rr, dpcov_exact_grid *gg) {
    return dpcov_exact_release_rows(m, layout, rows, cols, a, lda, bound, policy, eps, delta, p,
                                    gen, o, ldo, rr, gg);
  };
  const double *a = f.a.data();
  double *o = out.data();
  EXPECT_EQ(release(DPCOV_MECHANISM_WISHART_ADDITIVE, DPCOV_ROW_MAJOR, f.n, f.d, a, f.d, 1, 0, 0.5, 1e-6, nullptr, rng, o, f.d, &r, &g), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(release(99, DPCOV_ROW_MAJOR, f.n, f.d, a, f.d, 1, 0, 1, 1e-6, nullptr, rng, o, f.d, &r, &g), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(release(ag, 7, f.n, f.d, a, f.d, 1, 0, 1, 1e-6, nullptr, rng, o, f.d, &r, &g), DPCOV_E_LAYOUT);
  EXPECT_EQ(release(ag, DPCOV_ROW_MAJOR, f.n, f.d, nullptr, f.d, 1, 0, 1, 1e-6, nullptr, rng, o, f.d, &r, &g), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(release(ag, DPCOV_ROW_MAJOR, f.n, f.d, a, f.d - 1, 1, 0, 1, 1e-6, nullptr, rng, o, f.d, &r, &g), DPCOV_E_LAYOUT);
  EXPECT_EQ(release(ag, DPCOV_ROW_MAJOR, f.n, 0, a, f.d, 1, 0, 1, 1e-6, nullptr, rng, o, f.d, &r, &g), DPCOV_E_DIMENSION);
  EXPECT_EQ(release(ag, DPCOV_ROW_MAJOR, -1, f.d, a, f.d, 1, 0, 1, 1e-6, nullptr, rng, o, f.d, &r, &g), DPCOV_E_DIMENSION);
  EXPECT_EQ(release(ag, DPCOV_ROW_MAJOR, f.n, f.d, a, f.d, 0.0, 0, 1, 1e-6, nullptr, rng, o, f.d, &r, &g), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(release(ag, DPCOV_ROW_MAJOR, f.n, f.d, a, f.d, kNaN, 0, 1, 1e-6, nullptr, rng, o, f.d, &r, &g), DPCOV_E_NON_FINITE);
  EXPECT_EQ(release(ag, DPCOV_ROW_MAJOR, f.n, f.d, a, f.d, 1, DPCOV_BOUND_DROP, 1, 1e-6, nullptr, rng, o, f.d, &r, &g), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(release(ag, DPCOV_ROW_MAJOR, f.n, f.d, a, f.d, 1, 0, 0.0, 1e-6, nullptr, rng, o, f.d, &r, &g), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(release(ag, DPCOV_ROW_MAJOR, f.n, f.d, a, f.d, 1, 0, 1, 0.0, nullptr, rng, o, f.d, &r, &g), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(release(ag, DPCOV_ROW_MAJOR, f.n, f.d, a, f.d, 1, 0, 1, 1e-6, nullptr, nullptr, o, f.d, &r, &g), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(release(ag, DPCOV_ROW_MAJOR, f.n, f.d, a, f.d, 1, 0, 1, 1e-6, nullptr, rng, nullptr, f.d, &r, &g), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(release(ag, DPCOV_ROW_MAJOR, f.n, f.d, a, f.d, 1, 0, 1, 1e-6, nullptr, rng, o, f.d - 1, &r, &g), DPCOV_E_LAYOUT);
  EXPECT_EQ(release(ag, DPCOV_ROW_MAJOR, f.n, f.d, a, f.d, 1, 0, 1, 1e-6, nullptr, rng, o, f.d, nullptr, &g), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(release(ag, DPCOV_ROW_MAJOR, f.n, f.d, a, f.d, 1, 0, 1, 1e-6, nullptr, rng, o, f.d, &r, nullptr), DPCOV_E_NULL_POINTER);
  dpcov_exact_grid small = empty_grid();
  small.struct_size = 4;
  EXPECT_EQ(release(ag, DPCOV_ROW_MAJOR, f.n, f.d, a, f.d, 1, 0, 1, 1e-6, nullptr, rng, o, f.d, &r, &small), DPCOV_E_INVALID_ARGUMENT);
  // An option that does not apply, and a calibration: the exact mode has its own.
  dpcov_mechanism_params p{};
  ASSERT_EQ(dpcov_mechanism_params_default(&p), DPCOV_OK);
  p.calibration = DPCOV_CALIBRATION_CLASSICAL_GAUSSIAN;
  EXPECT_EQ(release(ag, DPCOV_ROW_MAJOR, f.n, f.d, a, f.d, 1, 0, 0.5, 1e-6, &p, rng, o, f.d, &r, &g), DPCOV_E_INVALID_ARGUMENT);
  ASSERT_EQ(dpcov_mechanism_params_default(&p), DPCOV_OK);
  p.projection_rows = 5;
  EXPECT_EQ(release(ag, DPCOV_ROW_MAJOR, f.n, f.d, a, f.d, 1, 0, 1, 1e-6, &p, rng, o, f.d, &r, &g), DPCOV_E_INVALID_ARGUMENT);
  // A non-finite entry, and a row above the bound under reject: found before any draw.
  std::vector<double> bad = f.a;
  bad[4] = kNaN;
  EXPECT_EQ(release(ag, DPCOV_ROW_MAJOR, f.n, f.d, bad.data(), f.d, 1, 0, 1, 1e-6, nullptr, rng, o, f.d, &r, &g), DPCOV_E_NON_FINITE);
  bad[4] = 3.0;
  EXPECT_EQ(release(ag, DPCOV_ROW_MAJOR, f.n, f.d, bad.data(), f.d, 1, DPCOV_BOUND_REJECT, 1, 1e-6, nullptr, rng, o, f.d, &r, &g), DPCOV_E_NORM_BOUND);
  // Epsilon so small that no grid keeps the integer noise in the samplers' range.
  EXPECT_EQ(release(ag, DPCOV_ROW_MAJOR, f.n, f.d, a, f.d, 1, 0, 1e-30, 1e-300, nullptr, rng, o, f.d, &r, &g), DPCOV_E_PRECONDITION);
  for (double v : out) EXPECT_EQ(v, 7.0);
  EXPECT_EQ(r.struct_size, sizeof r);
  EXPECT_EQ(r.mechanism, 0);
  EXPECT_EQ(g.bits, 0);
  EXPECT_EQ(state_of(rng), before);
  // The plan: the same checks.
  EXPECT_EQ(dpcov_exact_plan(ag, f.d, f.n, 1, 1, 1e-6, nullptr, nullptr, &g), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_exact_plan(ag, f.d, f.n, 1, 1, 1e-6, nullptr, &r, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_exact_plan(DPCOV_MECHANISM_IEV, f.d, f.n, 1, 1, 1e-6, nullptr, &r, &g), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_exact_plan(ag, f.d, -1, 1, 1, 1e-6, nullptr, &r, &g), DPCOV_E_DIMENSION);
  EXPECT_EQ(dpcov_exact_plan(ag, f.d, f.n, 1, kNaN, 1e-6, nullptr, &r, &g), DPCOV_E_NON_FINITE);
  EXPECT_EQ(r.mechanism, 0);
  EXPECT_EQ(g.bits, 0);
  dpcov_rng_destroy(&rng);
}

TEST(CapiExact, ASeededGeneratorIsRecordedAndReproducible) {
  Fixture f;
  std::vector<double> first(9), second(9);
  for (std::vector<double> *out : {&first, &second}) {
    dpcov_rng *rng = nullptr;
    ASSERT_EQ(dpcov_rng_create_seeded(&rng, 42, 0), DPCOV_OK);
    dpcov_receipt r = empty_receipt();
    dpcov_exact_grid g = empty_grid();
    ASSERT_EQ(dpcov_exact_release_rows(DPCOV_MECHANISM_LAPLACE_SYM, DPCOV_COL_MAJOR, f.d, f.d,
                                       f.a.data(), f.d, 1.0, DPCOV_BOUND_CLIP, 2.0, 0.0, nullptr,
                                       rng, out->data(), f.d, &r, &g),
              DPCOV_OK);
    EXPECT_EQ(r.generator, DPCOV_GENERATOR_PCG64);
    EXPECT_EQ(r.seed_fixed, 1);
    dpcov_rng_destroy(&rng);
  }
  EXPECT_EQ(first, second);
}


// Plan and release agree where the bound's square leaves the double range: both refuse with the
// same status, the output and the generator untouched (the release converted NaN to an integer at
// a tiny bound, found by fuzz_solvers).
TEST(CapiExact, PlanAndReleaseAgreeWhereTheSquareOfTheBoundLeavesTheRange) {
  Fixture f;
  for (int32_t mechanism : {DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_MECHANISM_LAPLACE_SYM})
    for (double bound : {5e-324, 1e-200, 1e200, std::numeric_limits<double>::max()}) {
      const double delta = mechanism == DPCOV_MECHANISM_ANALYZE_GAUSS ? 1e-6 : 0.0;
      dpcov_receipt planned = empty_receipt(), released = empty_receipt();
      dpcov_exact_grid pg = empty_grid(), rg = empty_grid();
      const dpcov_status ps =
          dpcov_exact_plan(mechanism, f.d, f.n, bound, 1.0, delta, nullptr, &planned, &pg);
      dpcov_rng *rng = nullptr;
      ASSERT_EQ(dpcov_rng_create_seeded(&rng, 3, 0), DPCOV_OK);
      const std::vector<unsigned char> before = state_of(rng);
      std::vector<double> out(static_cast<size_t>(f.d * f.d), -7.0);
      const dpcov_status rs = dpcov_exact_release_rows(
          mechanism, DPCOV_ROW_MAJOR, f.n, f.d, f.a.data(), f.d, bound, DPCOV_BOUND_CLIP, 1.0,
          delta, nullptr, rng, out.data(), f.d, &released, &rg);
      EXPECT_EQ(ps, rs) << "B = " << bound;
      EXPECT_NE(ps, DPCOV_OK) << "B = " << bound;
      for (double v : out) EXPECT_EQ(v, -7.0);
      EXPECT_EQ(state_of(rng), before);
      dpcov_rng_destroy(&rng);
    }
}

// The exact accumulator (dpcov_exact_gram_*): rows in chunks of either layout, merged, give the
// release dpcov_exact_release_rows makes from the same rows with the same generator, byte for
// byte; its counters; and every bad argument gets its status with the accumulator, the outputs
// and the generator untouched.
constexpr int64_t kRows = 3000, kDim = 4;
constexpr int32_t kGauss = DPCOV_MECHANISM_ANALYZE_GAUSS;
constexpr int32_t kLaplace = DPCOV_MECHANISM_LAPLACE_SYM;

// Row-major rows, a tenth of them above B = 1.
std::vector<double> rows_data() {
  std::vector<double> a(static_cast<size_t>(kRows * kDim));
  for (int64_t i = 0; i < kRows * kDim; ++i)
    a[static_cast<size_t>(i)] = (i / kDim) % 10 == 0 ? 1.5 : 0.4 * std::sin(1.3 * static_cast<double>(i));
  return a;
}

dpcov_exact_gram *created(int32_t mechanism, double bound = 1.0) {
  dpcov_exact_gram *acc = nullptr;
  const double delta = mechanism == kGauss ? 1e-6 : 0.0;
  EXPECT_EQ(dpcov_exact_gram_create(&acc, mechanism, kDim, bound, DPCOV_BOUND_CLIP, 1.0, delta,
                                    nullptr),
            DPCOV_OK)
      << dpcov_last_error_message();
  return acc;
}

TEST(CapiExactGram, ChunksAndMergesReleaseWhatTheRowsReleaseByteForByte) {
  const std::vector<double> a = rows_data();
  for (int32_t m : {kGauss, kLaplace}) {
    const double delta = m == kGauss ? 1e-6 : 0.0;
    dpcov_rng *one = nullptr, *two = nullptr;
    ASSERT_EQ(dpcov_rng_create_seeded(&one, 8, 0), DPCOV_OK);
    ASSERT_EQ(dpcov_rng_create_seeded(&two, 8, 0), DPCOV_OK);
    std::vector<double> whole(kDim * kDim), streamed(kDim * kDim);
    dpcov_receipt rw = empty_receipt(), rs = empty_receipt();
    dpcov_exact_grid gw = empty_grid(), gs = empty_grid();
    ASSERT_EQ(dpcov_exact_release_rows(m, DPCOV_ROW_MAJOR, kRows, kDim, a.data(), kDim, 1.0,
                                       DPCOV_BOUND_CLIP, 1.0, delta, nullptr, one, whole.data(),
                                       kDim, &rw, &gw),
              DPCOV_OK);
    // Rows [0, 1000) row-major into one accumulator; rows [1000, 3000) as a column-major copy
    // in two chunks into another; then merged.
    dpcov_exact_gram *left = created(m), *right = created(m);
    ASSERT_EQ(dpcov_exact_gram_add_rows(left, DPCOV_ROW_MAJOR, 1000, kDim, a.data(), kDim), DPCOV_OK);
    std::vector<double> col(static_cast<size_t>(2000 * kDim));
    for (int64_t i = 0; i < 2000; ++i)
      for (int64_t j = 0; j < kDim; ++j)
        col[static_cast<size_t>(i + j * 2000)] = a[static_cast<size_t>((1000 + i) * kDim + j)];
    ASSERT_EQ(dpcov_exact_gram_add_rows(right, DPCOV_COL_MAJOR, 700, kDim, col.data(), 2000), DPCOV_OK);
    ASSERT_EQ(dpcov_exact_gram_add_rows(right, DPCOV_COL_MAJOR, 1300, kDim, col.data() + 700, 2000),
              DPCOV_OK);
    ASSERT_EQ(dpcov_exact_gram_add_rows(right, DPCOV_ROW_MAJOR, 0, kDim, nullptr, kDim), DPCOV_OK);
    ASSERT_EQ(dpcov_exact_gram_merge(left, right), DPCOV_OK);
    dpcov_gram_info info{};
    info.struct_size = sizeof info;
    ASSERT_EQ(dpcov_exact_gram_get_info(left, &info), DPCOV_OK);
    EXPECT_EQ(info.dim, kDim);
    EXPECT_EQ(info.rows, kRows);
    EXPECT_EQ(info.clipped, kRows / 10);
    EXPECT_EQ(info.dropped, 0);
    EXPECT_EQ(info.bound, 1.0);
    ASSERT_EQ(dpcov_exact_gram_release(left, two, streamed.data(), kDim, &rs, &gs), DPCOV_OK)
        << dpcov_last_error_message();
    EXPECT_EQ(std::memcmp(whole.data(), streamed.data(), whole.size() * sizeof(double)), 0);
    EXPECT_EQ(std::memcmp(&rw, &rs, sizeof rw), 0);
    EXPECT_EQ(std::memcmp(&gw, &gs, sizeof gw), 0);
    EXPECT_EQ(state_of(one), state_of(two));
    dpcov_exact_gram_destroy(&left);
    dpcov_exact_gram_destroy(&right);
    EXPECT_EQ(left, nullptr);
    dpcov_rng_destroy(&one);
    dpcov_rng_destroy(&two);
  }
  dpcov_exact_gram_destroy(nullptr);
}

TEST(CapiExactGram, AnEmptyAccumulatorReleasesNoise) {
  // n = 0 is a dataset like any other (private under add/remove): a release of noise alone.
  dpcov_exact_gram *acc = created(DPCOV_MECHANISM_LAPLACE_SYM);
  dpcov_rng *rng = nullptr;
  ASSERT_EQ(dpcov_rng_create_seeded(&rng, 2, 0), DPCOV_OK);
  std::vector<double> out(kDim * kDim, kNaN);
  dpcov_receipt r = empty_receipt();
  dpcov_exact_grid g = empty_grid();
  ASSERT_EQ(dpcov_exact_gram_release(acc, rng, out.data(), kDim, &r, &g), DPCOV_OK);
  EXPECT_EQ(r.n, 0);
  for (double v : out) EXPECT_TRUE(std::isfinite(v));
  dpcov_exact_gram_destroy(&acc);
  dpcov_rng_destroy(&rng);
}

TEST(CapiExactGram, CreateRefusesWhatThePlanRefusesAndTheDropPolicy) {
  dpcov_exact_gram *acc = nullptr;
  const auto create = [&](int32_t m, int64_t d, double bound, int32_t policy, double eps,
                          double delta, const dpcov_mechanism_params *p) {
    return dpcov_exact_gram_create(&acc, m, d, bound, policy, eps, delta, p);
  };
  EXPECT_EQ(dpcov_exact_gram_create(nullptr, kGauss, kDim, 1, 0, 1, 1e-6, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(create(DPCOV_MECHANISM_WISHART_ADDITIVE, kDim, 1, 0, 1, 1e-6, nullptr), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(create(99, kDim, 1, 0, 1, 1e-6, nullptr), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(create(kGauss, 0, 1, 0, 1, 1e-6, nullptr), DPCOV_E_DIMENSION);
  EXPECT_EQ(create(kGauss, -1, 1, 0, 1, 1e-6, nullptr), DPCOV_E_DIMENSION);
  EXPECT_EQ(create(kGauss, 46341, 1, 0, 1, 1e-6, nullptr), DPCOV_E_TOO_LARGE);
  EXPECT_EQ(create(kGauss, kDim, 0.0, 0, 1, 1e-6, nullptr), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(create(kGauss, kDim, -1.0, 0, 1, 1e-6, nullptr), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(create(kGauss, kDim, kNaN, 0, 1, 1e-6, nullptr), DPCOV_E_NON_FINITE);
  EXPECT_EQ(create(kGauss, kDim, INFINITY, 0, 1, 1e-6, nullptr), DPCOV_E_NON_FINITE);
  EXPECT_EQ(create(kGauss, kDim, 1, DPCOV_BOUND_DROP, 1, 1e-6, nullptr), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(create(kGauss, kDim, 1, -1, 1, 1e-6, nullptr), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(create(kGauss, kDim, 1, 0, 0.0, 1e-6, nullptr), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(create(kGauss, kDim, 1, 0, -1.0, 1e-6, nullptr), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(create(kGauss, kDim, 1, 0, kNaN, 1e-6, nullptr), DPCOV_E_NON_FINITE);
  EXPECT_EQ(create(kGauss, kDim, 1, 0, INFINITY, 1e-6, nullptr), DPCOV_E_NON_FINITE);
  EXPECT_EQ(create(kGauss, kDim, 1, 0, 1, 0.0, nullptr), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(create(kGauss, kDim, 1, 0, 1, 1.0, nullptr), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(create(kGauss, kDim, 1, 0, 1, kNaN, nullptr), DPCOV_E_NON_FINITE);
  EXPECT_EQ(create(kGauss, kDim, 1, 0, 1e-30, 1e-300, nullptr), DPCOV_E_PRECONDITION);
  dpcov_mechanism_params p{};
  ASSERT_EQ(dpcov_mechanism_params_default(&p), DPCOV_OK);
  p.calibration = DPCOV_CALIBRATION_CLASSICAL_GAUSSIAN;
  EXPECT_EQ(create(kGauss, kDim, 1, 0, 0.5, 1e-6, &p), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(acc, nullptr);
}

TEST(CapiExactGram, BadRowsMergesAndReleasesLeaveEverythingUntouched) {
  const std::vector<double> a = rows_data();
  dpcov_exact_gram *acc = created(kGauss);
  ASSERT_EQ(dpcov_exact_gram_add_rows(acc, DPCOV_ROW_MAJOR, 100, kDim, a.data(), kDim), DPCOV_OK);
  dpcov_rng *rng = nullptr, *reference = nullptr;
  ASSERT_EQ(dpcov_rng_create_seeded(&rng, 5, 0), DPCOV_OK);
  ASSERT_EQ(dpcov_rng_create_seeded(&reference, 5, 0), DPCOV_OK);
  const std::vector<unsigned char> before = state_of(rng);

  const int32_t row = DPCOV_ROW_MAJOR;
  EXPECT_EQ(dpcov_exact_gram_add_rows(nullptr, row, 10, kDim, a.data(), kDim), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_exact_gram_add_rows(acc, 7, 10, kDim, a.data(), kDim), DPCOV_E_LAYOUT);
  EXPECT_EQ(dpcov_exact_gram_add_rows(acc, row, 10, kDim, nullptr, kDim), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_exact_gram_add_rows(acc, row, 10, kDim, a.data(), kDim - 1), DPCOV_E_LAYOUT);
  EXPECT_EQ(dpcov_exact_gram_add_rows(acc, row, -1, kDim, a.data(), kDim), DPCOV_E_DIMENSION);
  EXPECT_EQ(dpcov_exact_gram_add_rows(acc, row, 10, kDim - 1, a.data(), kDim), DPCOV_E_DIMENSION);
  EXPECT_EQ(dpcov_exact_gram_add_rows(acc, row, 10, 0, a.data(), kDim), DPCOV_E_DIMENSION);
  std::vector<double> bad(a.begin(), a.begin() + 10 * kDim);
  bad[37] = kNaN;
  EXPECT_EQ(dpcov_exact_gram_add_rows(acc, row, 10, kDim, bad.data(), kDim), DPCOV_E_NON_FINITE);
  bad[37] = INFINITY;
  EXPECT_EQ(dpcov_exact_gram_add_rows(acc, row, 10, kDim, bad.data(), kDim), DPCOV_E_NON_FINITE);
  // Under reject, a row above the bound refuses the chunk and names the chunk's row.
  dpcov_exact_gram *strict = nullptr;
  ASSERT_EQ(dpcov_exact_gram_create(&strict, kGauss, kDim, 1, DPCOV_BOUND_REJECT, 1, 1e-6, nullptr),
            DPCOV_OK);
  EXPECT_EQ(dpcov_exact_gram_add_rows(strict, row, 20, kDim, a.data(), kDim), DPCOV_E_NORM_BOUND);
  EXPECT_NE(std::strstr(dpcov_last_error_message(), "row 0 "), nullptr) << dpcov_last_error_message();
  EXPECT_EQ(dpcov_exact_gram_merge(acc, strict), DPCOV_OK);  // an empty one: the same grid
  dpcov_exact_gram_destroy(&strict);

  // Merges: null, itself, another grid (another bound; another mechanism's grid).
  dpcov_exact_gram *other_bound = created(kGauss, 2.0);
  dpcov_exact_gram *laplace = created(DPCOV_MECHANISM_LAPLACE_SYM);
  ASSERT_EQ(dpcov_exact_gram_add_rows(other_bound, row, 10, kDim, a.data(), kDim), DPCOV_OK);
  EXPECT_EQ(dpcov_exact_gram_merge(nullptr, acc), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_exact_gram_merge(acc, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_exact_gram_merge(acc, acc), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_exact_gram_merge(acc, other_bound), DPCOV_E_INCOMPATIBLE);
  dpcov_exact_grid gauss_grid = empty_grid(), laplace_grid = empty_grid();
  dpcov_receipt scratch = empty_receipt();
  ASSERT_EQ(dpcov_exact_plan(kGauss, kDim, 0, 1, 1, 1e-6, nullptr, &scratch, &gauss_grid), DPCOV_OK);
  ASSERT_EQ(dpcov_exact_plan(DPCOV_MECHANISM_LAPLACE_SYM, kDim, 0, 1, 1, 0, nullptr, &scratch,
                             &laplace_grid), DPCOV_OK);
  EXPECT_EQ(dpcov_exact_gram_merge(acc, laplace),
            gauss_grid.bits == laplace_grid.bits ? DPCOV_OK : DPCOV_E_INCOMPATIBLE);
  dpcov_exact_gram_destroy(&other_bound);
  dpcov_exact_gram_destroy(&laplace);

  // Info: nulls and a struct_size too small.
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  EXPECT_EQ(dpcov_exact_gram_get_info(nullptr, &info), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_exact_gram_get_info(acc, nullptr), DPCOV_E_NULL_POINTER);
  dpcov_gram_info small_info{};
  small_info.struct_size = 4;
  EXPECT_EQ(dpcov_exact_gram_get_info(acc, &small_info), DPCOV_E_INVALID_ARGUMENT);
  ASSERT_EQ(dpcov_exact_gram_get_info(acc, &info), DPCOV_OK);
  EXPECT_EQ(info.rows, 100);

  // Releases: nulls, ldo, struct sizes; outputs and the generator untouched.
  std::vector<double> out(kDim * kDim, 7.0);
  dpcov_receipt r = empty_receipt();
  dpcov_exact_grid g = empty_grid();
  double *o = out.data();
  EXPECT_EQ(dpcov_exact_gram_release(nullptr, rng, o, kDim, &r, &g), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_exact_gram_release(acc, nullptr, o, kDim, &r, &g), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_exact_gram_release(acc, rng, nullptr, kDim, &r, &g), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_exact_gram_release(acc, rng, o, kDim - 1, &r, &g), DPCOV_E_LAYOUT);
  EXPECT_EQ(dpcov_exact_gram_release(acc, rng, o, kDim, nullptr, &g), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_exact_gram_release(acc, rng, o, kDim, &r, nullptr), DPCOV_E_NULL_POINTER);
  dpcov_receipt small_receipt = empty_receipt();
  small_receipt.struct_size = 4;
  EXPECT_EQ(dpcov_exact_gram_release(acc, rng, o, kDim, &small_receipt, &g), DPCOV_E_INVALID_ARGUMENT);
  dpcov_exact_grid small_grid = empty_grid();
  small_grid.struct_size = 4;
  EXPECT_EQ(dpcov_exact_gram_release(acc, rng, o, kDim, &r, &small_grid), DPCOV_E_INVALID_ARGUMENT);
  for (double v : out) EXPECT_EQ(v, 7.0);
  EXPECT_EQ(r.mechanism, 0);
  EXPECT_EQ(g.bits, 0);
  EXPECT_EQ(state_of(rng), before);

  // After all the refusals, the accumulator holds its 100 rows and nothing else: its release is
  // the release of those rows.
  std::vector<double> expected(kDim * kDim);
  dpcov_receipt re = empty_receipt();
  dpcov_exact_grid ge = empty_grid();
  ASSERT_EQ(dpcov_exact_release_rows(kGauss, row, 100, kDim, a.data(), kDim, 1, DPCOV_BOUND_CLIP, 1,
                                     1e-6, nullptr, reference, expected.data(), kDim, &re, &ge),
            DPCOV_OK);
  ASSERT_EQ(dpcov_exact_gram_release(acc, rng, o, kDim, &r, &g), DPCOV_OK);
  EXPECT_EQ(out, expected);
  dpcov_exact_gram_destroy(&acc);
  dpcov_rng_destroy(&rng);
  dpcov_rng_destroy(&reference);
}

}  // namespace
