// Privacy units through the C ABI (dpcov_row_bounding::max_rows_per_unit,
// dpcov_gram_add_unit_rows(), dpcov_gram_finish_units()): Analyze Gauss and symmetric Laplace,
// exact and idealized, under both relations release at the unit bound with n the number of
// units; the Wishart, eigenvector and projection mechanisms at the per-row budget of group privacy; partitions holding disjoint ranges of units merge, in one process or through their saved
// states, into the single-stream release byte for byte, and a unit split between partitions is
// refused; every misuse is refused with the
// accumulator and the outputs unchanged.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "dpcov.h"
#include "support/gram_info.hpp"

namespace {

using dpcov::test::gram_info_of;

constexpr int64_t kCols = 3;
constexpr int64_t kUnits = 10;
constexpr int64_t kMaxRows = 3;

// Unit u has u % 6 + 1 rows; entries of norm well within 1.
struct Data {
  std::vector<double> rows;
  std::vector<int64_t> ids;
  int64_t truncated = 0;
};

Data unit_data(int64_t first_unit, int64_t units) {
  Data data;
  for (int64_t u = first_unit; u < first_unit + units; ++u) {
    const int64_t size = u % 6 + 1;
    data.truncated += size > kMaxRows ? size - kMaxRows : 0;
    for (int64_t r = 0; r < size; ++r) {
      for (int64_t j = 0; j < kCols; ++j)
        data.rows.push_back(0.5 * std::sin(0.7 * static_cast<double>(u * 7 + r * 3 + j)));
      data.ids.push_back(u * 10);
    }
  }
  return data;
}

dpcov_row_bounding unit_spec(int32_t mechanism, int32_t numerics, int32_t neighbour,
                             int64_t k = kMaxRows) {
  dpcov_row_bounding s;
  EXPECT_EQ(dpcov_row_bounding_default(&s), DPCOV_OK);
  s.mechanism = mechanism;
  s.numerics = numerics;
  s.neighbour = neighbour;
  s.epsilon = 1.0;
  s.delta = 1e-6;
  s.max_rows_per_unit = k;
  return s;
}

dpcov_rng *seeded(uint64_t seed) {
  dpcov_rng *rng = nullptr;
  EXPECT_EQ(dpcov_rng_create_seeded(&rng, seed, 0), DPCOV_OK);
  return rng;
}

dpcov_gram *unit_gram(const dpcov_row_bounding &spec, const Data &data, dpcov_rng *rng,
                      bool finish = true) {
  dpcov_gram *g = nullptr;
  EXPECT_EQ(dpcov_gram_create_bounded(&g, kCols, &spec), DPCOV_OK) << dpcov_last_error_message();
  // In two chunks that split a unit: units span calls.
  const int64_t rows = static_cast<int64_t>(data.ids.size());
  const int64_t half = rows / 2 + 1;
  EXPECT_EQ(dpcov_gram_add_unit_rows(g, rng, DPCOV_ROW_MAJOR, half, kCols, data.rows.data(), kCols,
                                     data.ids.data(), nullptr),
            DPCOV_OK)
      << dpcov_last_error_message();
  EXPECT_EQ(dpcov_gram_add_unit_rows(g, rng, DPCOV_ROW_MAJOR, rows - half, kCols,
                                     data.rows.data() + half * kCols, kCols,
                                     data.ids.data() + half, nullptr),
            DPCOV_OK)
      << dpcov_last_error_message();
  if (finish) {
    EXPECT_EQ(dpcov_gram_finish_units(g), DPCOV_OK) << dpcov_last_error_message();
  }
  return g;
}

struct Released {
  dpcov_status status;
  std::vector<double> matrix;
  dpcov_receipt receipt;
};

Released release(int32_t mechanism, const dpcov_gram *g, int32_t neighbour, dpcov_rng *rng,
                 double epsilon = 1.0) {
  const int64_t d = gram_info_of(g).dim;
  dpcov_mechanism_params params;
  EXPECT_EQ(dpcov_mechanism_params_default(&params), DPCOV_OK);
  params.neighbour = neighbour;
  Released r{DPCOV_OK, std::vector<double>(static_cast<size_t>(d * d), -7.0), {}};
  r.receipt.struct_size = sizeof r.receipt;
  r.status = dpcov_mechanism_release_gram(mechanism, g, epsilon, 1e-6, &params, rng,
                                          DPCOV_ROW_MAJOR, r.matrix.data(), d, &r.receipt);
  return r;
}

TEST(CapiUnits, ReleasesAtTheUnitBoundWithNTheNumberOfUnits) {
  const Data data = unit_data(0, kUnits);
  for (const int32_t mechanism : {DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_MECHANISM_LAPLACE_SYM})
    for (const int32_t numerics : {DPCOV_NUMERICS_EXACT, DPCOV_NUMERICS_IDEALIZED})
      for (const int32_t neighbour : {DPCOV_NEIGHBOUR_REPLACE_ONE, DPCOV_NEIGHBOUR_ADD_REMOVE}) {
        SCOPED_TRACE(testing::Message() << mechanism << " " << numerics << " " << neighbour);
        dpcov_rng *rng = seeded(11);
        dpcov_gram *g = unit_gram(unit_spec(mechanism, numerics, neighbour), data, rng);
        const dpcov_gram_info info = gram_info_of(g);
        EXPECT_EQ(info.units, kUnits);
        EXPECT_EQ(info.truncated, data.truncated);
        EXPECT_EQ(info.rows, static_cast<int64_t>(data.ids.size()) - data.truncated);
        EXPECT_EQ(info.numerics, numerics);
        // B_u = sqrt(3) (1 + 2^-30), rounded up.
        EXPECT_GE(info.bound, std::sqrt(3.0) * (1.0 + 0x1p-30));
        EXPECT_LE(info.bound, std::sqrt(3.0) * (1.0 + 0x1p-30) * (1.0 + 1e-15));
        const Released r = release(mechanism, g, neighbour, rng);
        ASSERT_EQ(r.status, DPCOV_OK) << dpcov_last_error_message();
        EXPECT_EQ(r.receipt.n, kUnits);
        EXPECT_EQ(r.receipt.bound, info.bound);
        EXPECT_EQ(r.receipt.numerics, numerics);
        // k is public: the receipt states it, and the public receipt keeps it.
        EXPECT_EQ(r.receipt.max_rows_per_unit, kMaxRows);
        dpcov_receipt shown{};
        shown.struct_size = sizeof shown;
        ASSERT_EQ(dpcov_receipt_public(&r.receipt, &shown), DPCOV_OK);
        EXPECT_EQ(shown.max_rows_per_unit, kMaxRows);
        // The unit-level sensitivity: k B^2 times the row-level factor, never below.
        const bool replace = neighbour == DPCOV_NEIGHBOUR_REPLACE_ONE;
        const double expected = mechanism == DPCOV_MECHANISM_ANALYZE_GAUSS
                                    ? (replace ? std::sqrt(2.0) : 1.0) * 3.0
                                    : (kCols + 1) * 3.0 / (replace ? 1.0 : 2.0);
        EXPECT_GE(r.receipt.sensitivity, expected);
        EXPECT_LE(r.receipt.sensitivity, expected * 1.01);
        for (const double v : r.matrix) EXPECT_TRUE(std::isfinite(v));
        dpcov_gram_destroy(&g);
        dpcov_rng_destroy(&rng);
      }
}

// 10 units along each axis, of 3 rows of norm 0.9 each: lambda_min(G) = 24.3 >= theta^2 = 20.
TEST(CapiUnits, InverseGaussReleasesAtTheUnitBoundUnderItsLambdaMinBound) {
  Data data;
  for (int64_t u = 0; u < 3 * kUnits; ++u)
    for (int64_t r = 0; r < kMaxRows; ++r) {
      for (int64_t j = 0; j < kCols; ++j) data.rows.push_back(j == u % kCols ? 0.9 : 0.0);
      data.ids.push_back(u);
    }
  for (const int32_t neighbour : {DPCOV_NEIGHBOUR_REPLACE_ONE, DPCOV_NEIGHBOUR_ADD_REMOVE}) {
    SCOPED_TRACE(neighbour);
    dpcov_rng *rng = seeded(13);
    dpcov_gram *g = unit_gram(
        unit_spec(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NUMERICS_IDEALIZED, neighbour), data, rng);
    dpcov_mechanism_params params;
    ASSERT_EQ(dpcov_mechanism_params_default(&params), DPCOV_OK);
    params.neighbour = neighbour;
    params.lambda_min_bound = 20.0;
    std::vector<double> out(kCols * kCols, -7.0);
    dpcov_receipt receipt{};
    receipt.struct_size = sizeof receipt;
    ASSERT_EQ(dpcov_mechanism_release_gram(DPCOV_MECHANISM_INVERSE_GAUSS, g, 1.0, 1e-6, &params,
                                           rng, DPCOV_ROW_MAJOR, out.data(), kCols, &receipt),
              DPCOV_OK)
        << dpcov_last_error_message();
    EXPECT_EQ(receipt.n, 3 * kUnits);
    EXPECT_EQ(receipt.max_rows_per_unit, kMaxRows);
    EXPECT_EQ(receipt.bound, gram_info_of(g).bound);
    // c B_u^2 / theta^4 with B_u^2 = 3 (1 + 2^-30)^2, rounded up: never the row-level c / 400.
    const double c = neighbour == DPCOV_NEIGHBOUR_REPLACE_ONE ? std::sqrt(2.0) : 1.0;
    EXPECT_GE(receipt.sensitivity, c * 3.0 / 400.0);
    EXPECT_LE(receipt.sensitivity, c * 3.0 / 400.0 * 1.01);
    dpcov_gram_destroy(&g);
    dpcov_rng_destroy(&rng);
  }
}

TEST(CapiUnits, RefusesAReleaseWithAnOpenUnitOrAnotherMechanism) {
  const Data data = unit_data(0, kUnits);
  dpcov_rng *rng = seeded(12);
  dpcov_gram *g = unit_gram(
      unit_spec(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NUMERICS_IDEALIZED, DPCOV_NEIGHBOUR_REPLACE_ONE),
      data, rng, false);
  Released r = release(DPCOV_MECHANISM_ANALYZE_GAUSS, g, DPCOV_NEIGHBOUR_REPLACE_ONE, rng);
  EXPECT_EQ(r.status, DPCOV_E_PRECONDITION);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("dpcov_gram_finish_units"),
            std::string::npos);
  for (const double v : r.matrix) EXPECT_EQ(v, -7.0);
  ASSERT_EQ(dpcov_gram_finish_units(g), DPCOV_OK);
  ASSERT_EQ(dpcov_gram_finish_units(g), DPCOV_OK);  // a no-op
  EXPECT_EQ(gram_info_of(g).units, kUnits);
  r = release(DPCOV_MECHANISM_WISHART_JIANG, g, DPCOV_NEIGHBOUR_REPLACE_ONE, rng);
  EXPECT_EQ(r.status, DPCOV_E_INCOMPATIBLE);
  // The refusal names the Gram mechanisms whose registry entry has a unit proof, not the zCDP
  // row mechanisms, which name one too but take units of exactly k rows, never an accumulator.
  const std::string refusal = dpcov_last_error_message();
  EXPECT_NE(refusal.find("inverse_gauss"), std::string::npos);
  EXPECT_NE(refusal.find("wishart_additive"), std::string::npos);
  EXPECT_EQ(refusal.find("coinpress"), std::string::npos);
  EXPECT_EQ(refusal.find("dly"), std::string::npos);
  for (const int32_t rows : {DPCOV_MECHANISM_DLY, DPCOV_MECHANISM_COINPRESS,
                             DPCOV_MECHANISM_COINPRESS_MEAN}) {
    r = release(rows, g, DPCOV_NEIGHBOUR_REPLACE_ONE, rng);
    EXPECT_EQ(r.status, DPCOV_E_INVALID_ARGUMENT) << rows;
    for (const double v : r.matrix) EXPECT_EQ(v, -7.0);
  }
  // And why, as the registry words it.
  dpcov_mechanism_entry jiang{};
  jiang.struct_size = sizeof jiang;
  ASSERT_EQ(dpcov_mechanism_info_by_id(DPCOV_MECHANISM_WISHART_JIANG, &jiang), DPCOV_OK);
  ASSERT_NE(*jiang.unit_refusal, '\0');
  EXPECT_NE(refusal.find(jiang.unit_refusal), std::string::npos) << refusal;
  for (int32_t i = 0; i < dpcov_mechanism_count(); ++i) {
    dpcov_mechanism_entry e{};
    e.struct_size = sizeof e;
    ASSERT_EQ(dpcov_mechanism_info(i, &e), DPCOV_OK);
    const bool trace = e.id == DPCOV_MECHANISM_ANALYZE_GAUSS ||
                       e.id == DPCOV_MECHANISM_LAPLACE_SYM || e.id == DPCOV_MECHANISM_INVERSE_GAUSS;
    // Group privacy: the Wishart and projection mechanisms over a unit's add/remove steps, the
    // zCDP row mechanisms over its k replaced rows (proofs/unit_group_privacy.md).
    const bool group = e.id == DPCOV_MECHANISM_WISHART_ADDITIVE ||
                       e.id == DPCOV_MECHANISM_JL_RIDGE || e.id == DPCOV_MECHANISM_INVERSE_WISHART ||
                       e.id == DPCOV_MECHANISM_IEV || e.id == DPCOV_MECHANISM_KT_RANK1 ||
                       e.id == DPCOV_MECHANISM_DLY || e.id == DPCOV_MECHANISM_COINPRESS ||
                       e.id == DPCOV_MECHANISM_COINPRESS_MEAN;
    const bool adassp = e.id == DPCOV_MECHANISM_ADASSP;  // its own unit sensitivities
    const bool bound = e.id == DPCOV_MECHANISM_PRIVATE_BOUND;  // its histogram of units
    EXPECT_EQ(std::string(e.unit_proof), trace    ? "proofs/unit_gram_sensitivity.md"
                                         : group  ? "proofs/unit_group_privacy.md"
                                         : adassp ? "proofs/adassp_units.md"
                                         : bound  ? "proofs/private_bound.md"
                                                  : "")
        << e.name;
  }
  for (const double v : r.matrix) EXPECT_EQ(v, -7.0);
  dpcov_gram_destroy(&g);
  dpcov_rng_destroy(&rng);
}

// Where the per-row budget fails the theorem's eps < 1 (epsilon 9 over m = 3 or 6 steps), the
// refusal names the unit-level epsilon asked for beside the per-row one, before any draw.
TEST(CapiUnits, APerRowPreconditionNamesTheRequestedEpsilon) {
  const Data data = unit_data(0, kUnits);
  for (const int32_t neighbour : {DPCOV_NEIGHBOUR_REPLACE_ONE, DPCOV_NEIGHBOUR_ADD_REMOVE}) {
    dpcov_rng *rng = seeded(22);
    dpcov_gram *g = unit_gram(
        unit_spec(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NUMERICS_IDEALIZED, neighbour), data, rng);
    std::vector<unsigned char> before(dpcov_rng_state_size()), after(before.size());
    ASSERT_EQ(dpcov_rng_state_save(rng, before.data(), before.size()), DPCOV_OK);
    const Released r = release(DPCOV_MECHANISM_WISHART_ADDITIVE, g, neighbour, rng, 9.0);
    EXPECT_EQ(r.status, DPCOV_E_PRECONDITION);
    const std::string message = dpcov_last_error_message();
    EXPECT_NE(message.find("of the requested epsilon = 9 (group privacy)"), std::string::npos)
        << message;
    EXPECT_NE(message.find("eps < 1"), std::string::npos) << message;
    for (const double v : r.matrix) EXPECT_EQ(v, -7.0);
    ASSERT_EQ(dpcov_rng_state_save(rng, after.data(), after.size()), DPCOV_OK);
    EXPECT_EQ(before, after);
    dpcov_gram_destroy(&g);
    dpcov_rng_destroy(&rng);
  }
}

// Group privacy (proofs/unit_group_privacy.md): the Wishart release of units is planned at the
// rows' bound B = 1 under add/remove at (eps / m, delta / sum_{i<m} e^{i eps / m}), m = k or 2 k,
// and its receipt states the unit-level (eps, delta), relation, n = units and k. A plan made
// beforehand holds one budget: dpcov_plan_release_gram() refuses such an accumulator.
TEST(CapiUnits, WishartReleasesUnitsAtThePerRowBudgetOfGroupPrivacy) {
  const Data data = unit_data(0, kUnits);
  for (const int32_t neighbour : {DPCOV_NEIGHBOUR_REPLACE_ONE, DPCOV_NEIGHBOUR_ADD_REMOVE}) {
    dpcov_rng *rng = seeded(21);
    dpcov_gram *g = unit_gram(
        unit_spec(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NUMERICS_IDEALIZED, neighbour), data, rng);
    const Released r = release(DPCOV_MECHANISM_WISHART_ADDITIVE, g, neighbour, rng);
    ASSERT_EQ(r.status, DPCOV_OK) << dpcov_last_error_message();
    EXPECT_EQ(r.receipt.epsilon, 1.0);
    EXPECT_EQ(r.receipt.delta, 1e-6);
    EXPECT_EQ(r.receipt.neighbour, neighbour);
    EXPECT_EQ(r.receipt.n, kUnits);
    EXPECT_EQ(r.receipt.max_rows_per_unit, kMaxRows);
    EXPECT_EQ(r.receipt.bound, 1.0);
    // The row-level plan at the per-row budget: m = 3 (add/remove) or 6 (replace) steps.
    const double m = neighbour == DPCOV_NEIGHBOUR_ADD_REMOVE ? 3.0 : 6.0;
    const double eps_r = 1.0 / m;
    const double delta_r = 1e-6 * std::expm1(eps_r) / std::expm1(1.0);
    dpcov_mechanism_params params;
    ASSERT_EQ(dpcov_mechanism_params_default(&params), DPCOV_OK);
    params.neighbour = DPCOV_NEIGHBOUR_ADD_REMOVE;
    dpcov_receipt row{};
    row.struct_size = sizeof row;
    ASSERT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_WISHART_ADDITIVE, kCols, 1, 1.0, eps_r,
                                   delta_r * (1.0 - 1e-12), &params, &row),
              DPCOV_OK);
    EXPECT_EQ(r.receipt.dof, row.dof);
    EXPECT_EQ(r.receipt.scale, row.scale);
    // Far more degrees of freedom than the unit budget at row level would give (at epsilon 0.9:
    // the theorem needs epsilon < 1 there), about (0.9 m)^2 times.
    ASSERT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_WISHART_ADDITIVE, kCols, 1, 1.0, 0.9, 1e-6,
                                   &params, &row),
              DPCOV_OK);
    EXPECT_GT(r.receipt.dof, 0.9 * (0.9 * m) * (0.9 * m) * row.dof);
    dpcov_plan *plan = nullptr;
    // A plan of the accumulator's own d and bound, refused for its single budget.
    ASSERT_EQ(dpcov_plan_create(&plan, DPCOV_MECHANISM_WISHART_ADDITIVE, DPCOV_NUMERICS_IDEALIZED,
                                kCols, 0, gram_info_of(g).bound, 0.9, 1e-6, &params),
              DPCOV_OK);
    std::vector<double> out(kCols * kCols, -7.0);
    dpcov_receipt unused{};
    unused.struct_size = sizeof unused;
    EXPECT_EQ(dpcov_plan_release_gram(plan, g, rng, DPCOV_ROW_MAJOR, out.data(), kCols, &unused),
              DPCOV_E_INCOMPATIBLE);
    EXPECT_NE(std::string(dpcov_last_error_message()).find("per-row budget"), std::string::npos);
    for (const double v : out) EXPECT_EQ(v, -7.0);
    dpcov_plan_destroy(&plan);
    dpcov_gram_destroy(&g);
    dpcov_rng_destroy(&rng);
  }
}

// The Johnson-Lindenstrauss ridge and the inverse-Wishart posterior take units the same way.
TEST(CapiUnits, ProjectionMechanismsReleaseUnitsByGroupPrivacy) {
  const Data data = unit_data(0, kUnits);
  dpcov_rng *rng = seeded(22);
  dpcov_gram *g = unit_gram(unit_spec(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NUMERICS_IDEALIZED,
                                      DPCOV_NEIGHBOUR_ADD_REMOVE),
                            data, rng);
  for (const int32_t mechanism : {DPCOV_MECHANISM_JL_RIDGE, DPCOV_MECHANISM_INVERSE_WISHART}) {
    dpcov_mechanism_params params;
    ASSERT_EQ(dpcov_mechanism_params_default(&params), DPCOV_OK);
    params.neighbour = DPCOV_NEIGHBOUR_ADD_REMOVE;
    if (mechanism == DPCOV_MECHANISM_JL_RIDGE) params.projection_rows = 20;
    else params.posterior_dof = 20;
    std::vector<double> out(kCols * kCols, -7.0);
    dpcov_receipt receipt{};
    receipt.struct_size = sizeof receipt;
    ASSERT_EQ(dpcov_mechanism_release_gram(mechanism, g, 1.0, 1e-6, &params, rng, DPCOV_ROW_MAJOR,
                                           out.data(), kCols, &receipt),
              DPCOV_OK)
        << dpcov_last_error_message();
    EXPECT_EQ(receipt.epsilon, 1.0);
    EXPECT_EQ(receipt.max_rows_per_unit, kMaxRows);
    EXPECT_EQ(receipt.bound, 1.0);
    // w^2 at eps / 3 is more than 3 times w^2 at eps.
    dpcov_receipt row{};
    row.struct_size = sizeof row;
    ASSERT_EQ(dpcov_mechanism_plan(mechanism, kCols, 1, 1.0, 1.0, 1e-6, &params, &row), DPCOV_OK);
    EXPECT_GT(receipt.appended_w * receipt.appended_w, 3.0 * row.appended_w * row.appended_w);
  }
  dpcov_gram_destroy(&g);
  dpcov_rng_destroy(&rng);
}

// The eigenvector mechanisms are pure: group privacy runs them at eps / m (m = k or 2 k steps,
// delta 0) at the rows' bound, so their eigenvalue noise is m times the row-level noise at eps,
// and the receipt states the unit-level eps, delta 0, the relation, n = units and k.
TEST(CapiUnits, EigenvectorMechanismsReleaseUnitsAtEpsilonOverTheSteps) {
  const Data data = unit_data(0, kUnits);
  for (const int32_t mechanism : {DPCOV_MECHANISM_IEV, DPCOV_MECHANISM_KT_RANK1})
    for (const int32_t neighbour : {DPCOV_NEIGHBOUR_REPLACE_ONE, DPCOV_NEIGHBOUR_ADD_REMOVE}) {
      dpcov_rng *rng = seeded(23);
      dpcov_gram *g = unit_gram(
          unit_spec(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NUMERICS_IDEALIZED, neighbour), data,
          rng);
      const Released r = release(mechanism, g, neighbour, rng);
      ASSERT_EQ(r.status, DPCOV_OK) << dpcov_last_error_message();
      EXPECT_EQ(r.receipt.epsilon, 1.0);
      EXPECT_EQ(r.receipt.delta, 0.0);
      EXPECT_EQ(r.receipt.neighbour, neighbour);
      EXPECT_EQ(r.receipt.n, kUnits);
      EXPECT_EQ(r.receipt.max_rows_per_unit, kMaxRows);
      EXPECT_EQ(r.receipt.bound, 1.0);
      const double m = neighbour == DPCOV_NEIGHBOUR_ADD_REMOVE ? 3.0 : 6.0;
      dpcov_mechanism_params params;
      ASSERT_EQ(dpcov_mechanism_params_default(&params), DPCOV_OK);
      params.neighbour = DPCOV_NEIGHBOUR_ADD_REMOVE;
      dpcov_receipt row{};
      row.struct_size = sizeof row;
      double eps_r = 0.0, delta_r = -1.0;
      ASSERT_EQ(dpcov_unit_row_budget(neighbour, DPCOV_NEIGHBOUR_ADD_REMOVE, kMaxRows, 1.0, 0.0,
                                      &eps_r, &delta_r),
                DPCOV_OK);
      EXPECT_EQ(delta_r, 0.0);
      EXPECT_LE(m * eps_r, 1.0);
      ASSERT_EQ(dpcov_mechanism_plan(mechanism, kCols, 1, 1.0, eps_r, 0.0, &params, &row),
                DPCOV_OK);
      EXPECT_EQ(r.receipt.scale, row.scale);
      ASSERT_EQ(dpcov_mechanism_plan(mechanism, kCols, 1, 1.0, 1.0, 0.0, &params, &row), DPCOV_OK);
      EXPECT_NEAR(r.receipt.scale, m * row.scale, 1e-9 * m * row.scale);
      dpcov_gram_destroy(&g);
      dpcov_rng_destroy(&rng);
    }
}

// dpcov_audit_units: the release of units is not flagged and the rows-only variant is (k = 60,
// tests/privacy/units_release_audit_test.cpp says why); every bad argument is refused with the
// result untouched. alpha = 1e-6 per audit at fixed seeds.
TEST(CapiUnits, AuditOfUnitsPassesTheReleaseFlagsRowsOnlyBoundingAndRefusesBadArguments) {
  dpcov_audit_params ap;
  ASSERT_EQ(dpcov_audit_params_default(&ap), DPCOV_OK);
  ap.first_checkpoint = 250;
  ap.seed = 5;
  for (const int32_t broken : {0, 1}) {
    dpcov_audit_result r{};
    r.struct_size = sizeof r;
    ASSERT_EQ(dpcov_audit_units(DPCOV_MECHANISM_WISHART_ADDITIVE, 3, 60, 1.0, 0.9, 1e-6, broken,
                                nullptr, &ap, &r),
              DPCOV_OK)
        << dpcov_last_error_message();
    EXPECT_EQ(r.verdict, broken ? DPCOV_AUDIT_VIOLATION : DPCOV_AUDIT_NO_VIOLATION_FOUND);
    EXPECT_EQ(r.epsilon, 0.9);
    EXPECT_EQ(r.delta, 1e-6);
    // No density: black-box, by two statistics of the release, against the pure unit claim.
    // The pair is the audit's own: the dataset and neighbour kinds are ignored, even the -1 the
    // registry gives a mechanism without a standard exact pair (what `dpcov audit` passes).
    dpcov_audit_params own_pair = ap;
    own_pair.dataset = -1;
    own_pair.neighbour_kind = -1;
    for (const int32_t mechanism : {DPCOV_MECHANISM_IEV, DPCOV_MECHANISM_KT_RANK1}) {
      ASSERT_EQ(dpcov_audit_units(mechanism, 3, 60, 1.0, 0.9, 0.0, broken, nullptr, &own_pair, &r),
                DPCOV_OK)
          << dpcov_last_error_message();
      EXPECT_EQ(r.verdict, broken ? DPCOV_AUDIT_VIOLATION : DPCOV_AUDIT_NO_VIOLATION_FOUND)
          << mechanism;
      EXPECT_EQ(r.epsilon, 0.9);
      EXPECT_EQ(r.delta, 0.0);
    }
  }
  struct Bad {
    int32_t mechanism;
    int64_t dim, k;
    double bound, eps, delta;
    int32_t broken;
    dpcov_status status;
  };
  const double nan = std::nan("");
  const Bad bad[] = {
      {DPCOV_MECHANISM_WISHART_JIANG, 3, 2, 1.0, 0.9, 1e-6, 0, DPCOV_E_INCOMPATIBLE},
      {9999, 3, 2, 1.0, 0.9, 1e-6, 0, DPCOV_E_INVALID_ARGUMENT},
      {DPCOV_MECHANISM_ANALYZE_GAUSS, 1, 2, 1.0, 0.9, 1e-6, 0, DPCOV_E_DIMENSION},
      {DPCOV_MECHANISM_ANALYZE_GAUSS, 0, 2, 1.0, 0.9, 1e-6, 0, DPCOV_E_DIMENSION},
      {DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 0, 1.0, 0.9, 1e-6, 0, DPCOV_E_INVALID_ARGUMENT},
      {DPCOV_MECHANISM_ANALYZE_GAUSS, 3, (int64_t{1} << 20) + 1, 1.0, 0.9, 1e-6, 0,
       DPCOV_E_INVALID_ARGUMENT},
      {DPCOV_MECHANISM_WISHART_ADDITIVE, 3, -4, 1.0, 0.9, 1e-6, 0, DPCOV_E_INVALID_ARGUMENT},
      {DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 2, 1.0, 0.9, 1e-6, 2, DPCOV_E_INVALID_ARGUMENT},
      {DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 2, 1.0, 0.0, 1e-6, 0, DPCOV_E_INVALID_ARGUMENT},
      {DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 2, 1.0, nan, 1e-6, 0, DPCOV_E_NON_FINITE},
      {DPCOV_MECHANISM_WISHART_ADDITIVE, 3, 2, 1.0, 0.9, 1.5, 0, DPCOV_E_INVALID_ARGUMENT},
      {DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 2, nan, 0.9, 1e-6, 0, DPCOV_E_NON_FINITE},
      {DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 2, -1.0, 0.9, 1e-6, 0, DPCOV_E_INVALID_ARGUMENT},
      {DPCOV_MECHANISM_ANALYZE_GAUSS, 46340, int64_t{1} << 20, 1.0, 0.9, 1e-6, 0,
       DPCOV_E_TOO_LARGE},
  };
  for (const Bad &b : bad) {
    dpcov_audit_result r{};
    r.struct_size = sizeof r;
    r.samples = -7;
    const dpcov_status s = dpcov_audit_units(b.mechanism, b.dim, b.k, b.bound, b.eps, b.delta,
                                             b.broken, nullptr, &ap, &r);
    EXPECT_EQ(s, b.status) << b.mechanism << " d " << b.dim << " k " << b.k << " bound "
                           << b.bound << " eps " << b.eps << " delta " << b.delta << ": "
                           << dpcov_last_error_message();
    EXPECT_NE(std::string(dpcov_last_error_message()), "");
    EXPECT_EQ(r.samples, -7);
  }
  EXPECT_EQ(dpcov_audit_units(DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 2, 1.0, 0.9, 1e-6, 0, nullptr,
                              &ap, nullptr),
            DPCOV_E_NULL_POINTER);
}

TEST(CapiUnits, DisjointPartitionsMergeIntoTheSingleStreamReleaseByteForByte) {
  // k large enough that no unit is truncated: no draw before the noise, so each partition's
  // generator is irrelevant and the merged state is the single stream's.
  const Data all = unit_data(0, kUnits), low = unit_data(0, 4), high = unit_data(4, kUnits - 4);
  for (const int32_t mechanism : {DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_MECHANISM_LAPLACE_SYM}) {
    const dpcov_row_bounding spec = unit_spec(mechanism, DPCOV_NUMERICS_EXACT,
                                              DPCOV_NEIGHBOUR_ADD_REMOVE, 6);
    dpcov_rng *a = seeded(1), *b = seeded(2), *c = seeded(3);
    dpcov_gram *single = unit_gram(spec, all, a);
    dpcov_gram *first = unit_gram(spec, low, b);
    dpcov_gram *second = unit_gram(spec, high, c);
    ASSERT_EQ(dpcov_gram_merge(second, first), DPCOV_OK) << dpcov_last_error_message();
    EXPECT_EQ(gram_info_of(second).units, kUnits);
    dpcov_rng *r1 = seeded(99), *r2 = seeded(99);
    const Released one = release(mechanism, single, DPCOV_NEIGHBOUR_ADD_REMOVE, r1);
    const Released merged = release(mechanism, second, DPCOV_NEIGHBOUR_ADD_REMOVE, r2);
    ASSERT_EQ(one.status, DPCOV_OK) << dpcov_last_error_message();
    ASSERT_EQ(merged.status, DPCOV_OK) << dpcov_last_error_message();
    EXPECT_EQ(std::memcmp(one.matrix.data(), merged.matrix.data(),
                          one.matrix.size() * sizeof(double)),
              0);
    for (dpcov_gram *g : {single, first, second}) dpcov_gram_destroy(&g);
    for (dpcov_rng *r : {a, b, c, r1, r2}) dpcov_rng_destroy(&r);
  }
}

std::vector<unsigned char> exported(const dpcov_gram *g) {
  size_t size = 0;
  EXPECT_EQ(dpcov_gram_export_state(g, nullptr, 0, &size), DPCOV_OK) << dpcov_last_error_message();
  std::vector<unsigned char> bytes(size);
  EXPECT_EQ(dpcov_gram_export_state(g, bytes.data(), bytes.size(), &size), DPCOV_OK);
  return bytes;
}

dpcov_gram *imported(const std::vector<unsigned char> &bytes) {
  dpcov_gram *g = nullptr;
  EXPECT_EQ(dpcov_gram_import_state(&g, bytes.data(), bytes.size()), DPCOV_OK)
      << dpcov_last_error_message();
  return g;
}

// Partitions saved in other processes: their states, imported and merged in any order, release
// the single stream's bytes, with the units and truncated counts carried; a split unit is still
// refused after the round trip.
TEST(CapiUnits, SavedStatesOfPartitionsMergeIntoTheSingleStreamRelease) {
  const Data all = unit_data(0, kUnits), low = unit_data(0, 4), high = unit_data(4, kUnits - 4);
  for (const int32_t numerics : {DPCOV_NUMERICS_EXACT, DPCOV_NUMERICS_IDEALIZED}) {
    const dpcov_row_bounding spec =
        unit_spec(DPCOV_MECHANISM_ANALYZE_GAUSS, numerics, DPCOV_NEIGHBOUR_REPLACE_ONE, 6);
    dpcov_rng *a = seeded(1);
    dpcov_gram *single = unit_gram(spec, all, a), *first = unit_gram(spec, low, a),
               *second = unit_gram(spec, high, a);
    dpcov_gram *merged = imported(exported(second));
    dpcov_gram *other = imported(exported(first));
    ASSERT_EQ(dpcov_gram_merge(merged, other), DPCOV_OK) << dpcov_last_error_message();
    const dpcov_gram_info info = gram_info_of(merged);
    EXPECT_EQ(info.units, kUnits);
    EXPECT_EQ(info.truncated, gram_info_of(single).truncated);
    dpcov_rng *r1 = seeded(99), *r2 = seeded(99);
    const Released one = release(DPCOV_MECHANISM_ANALYZE_GAUSS, single, DPCOV_NEIGHBOUR_REPLACE_ONE, r1);
    const Released many = release(DPCOV_MECHANISM_ANALYZE_GAUSS, merged, DPCOV_NEIGHBOUR_REPLACE_ONE, r2);
    ASSERT_EQ(many.status, DPCOV_OK) << dpcov_last_error_message();
    EXPECT_EQ(many.receipt.n, kUnits);
    if (numerics == DPCOV_NUMERICS_EXACT) {
      EXPECT_EQ(std::memcmp(one.matrix.data(), many.matrix.data(),
                            one.matrix.size() * sizeof(double)),
                0);
    }
    // The merged state holds both ranges: the first partition again overlaps.
    dpcov_gram *again = imported(exported(first));
    EXPECT_EQ(dpcov_gram_merge(merged, again), DPCOV_E_INCOMPATIBLE);
    for (dpcov_gram *h : {single, first, second, merged, other, again}) dpcov_gram_destroy(&h);
    for (dpcov_rng *r : {a, r1, r2}) dpcov_rng_destroy(&r);
  }
}

TEST(CapiUnits, RefusesToMergeAUnitSplitBetweenPartitions) {
  const Data low = unit_data(0, 5), high = unit_data(4, 5);  // unit 4 (id 40) in both
  const dpcov_row_bounding spec =
      unit_spec(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NUMERICS_EXACT, DPCOV_NEIGHBOUR_ADD_REMOVE);
  dpcov_rng *rng = seeded(4);
  dpcov_gram *first = unit_gram(spec, low, rng), *second = unit_gram(spec, high, rng);
  const dpcov_gram_info before = gram_info_of(first);
  EXPECT_EQ(dpcov_gram_merge(first, second), DPCOV_E_INCOMPATIBLE);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("split"), std::string::npos);
  // Nor does it name the unit ids (40 here): the message reaches Dask worker logs.
  EXPECT_EQ(std::string(dpcov_last_error_message()).find_first_of("0123456789"),
            std::string::npos)
      << dpcov_last_error_message();
  const dpcov_gram_info after = gram_info_of(first);
  EXPECT_EQ(after.units, before.units);
  EXPECT_EQ(after.rows, before.rows);
  // Units and rows do not merge either.
  dpcov_row_bounding rows_spec = spec;
  rows_spec.max_rows_per_unit = 0;
  dpcov_gram *plain = nullptr;
  ASSERT_EQ(dpcov_gram_create_bounded(&plain, kCols, &rows_spec), DPCOV_OK);
  EXPECT_NE(dpcov_gram_merge(first, plain), DPCOV_OK);
  for (dpcov_gram *g : {first, second, plain}) dpcov_gram_destroy(&g);
  dpcov_rng_destroy(&rng);
}

TEST(CapiUnits, RefusesBadArgumentsLeavingTheAccumulatorUnchanged) {
  const Data data = unit_data(0, 3);
  const dpcov_row_bounding spec =
      unit_spec(DPCOV_MECHANISM_LAPLACE_SYM, DPCOV_NUMERICS_EXACT, DPCOV_NEIGHBOUR_REPLACE_ONE);
  dpcov_rng *rng = seeded(5);
  dpcov_gram *g = unit_gram(spec, data, rng, false);
  const dpcov_gram_info before = gram_info_of(g);
  const int64_t rows = 4;
  const std::vector<double> a(rows * kCols, 0.1);
  const std::vector<int64_t> ids = {100, 101, 101, 102};
  const auto add = [&](dpcov_gram *gram, dpcov_rng *r, int32_t layout, int64_t n, int64_t cols,
                       const double *x, int64_t ld, const int64_t *u) {
    return dpcov_gram_add_unit_rows(gram, r, layout, n, cols, x, ld, u, nullptr);
  };
  EXPECT_EQ(add(nullptr, rng, DPCOV_ROW_MAJOR, rows, kCols, a.data(), kCols, ids.data()),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(add(g, nullptr, DPCOV_ROW_MAJOR, rows, kCols, a.data(), kCols, ids.data()),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(add(g, rng, DPCOV_ROW_MAJOR, rows, kCols, nullptr, kCols, ids.data()),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(add(g, rng, DPCOV_ROW_MAJOR, rows, kCols, a.data(), kCols, nullptr),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(add(g, rng, 7, rows, kCols, a.data(), kCols, ids.data()), DPCOV_E_LAYOUT);
  EXPECT_NE(add(g, rng, DPCOV_ROW_MAJOR, -1, kCols, a.data(), kCols, ids.data()), DPCOV_OK);
  EXPECT_EQ(add(g, rng, DPCOV_ROW_MAJOR, rows, kCols - 1, a.data(), kCols, ids.data()),
            DPCOV_E_DIMENSION);
  EXPECT_NE(add(g, rng, DPCOV_ROW_MAJOR, rows, kCols, a.data(), kCols - 1, ids.data()), DPCOV_OK);
  // An id below the open unit's (the last of unit_data(0, 3) is 20).
  const std::vector<int64_t> back = {30, 31, 5, 32};
  EXPECT_EQ(add(g, rng, DPCOV_ROW_MAJOR, rows, kCols, a.data(), kCols, back.data()),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("row 2"), std::string::npos);
  std::vector<double> nan = a;
  nan[5] = NAN;
  dpcov_row_refusal refusal{};
  refusal.struct_size = sizeof refusal;
  EXPECT_EQ(dpcov_gram_add_unit_rows(g, rng, DPCOV_ROW_MAJOR, rows, kCols, nan.data(), kCols,
                                     ids.data(), &refusal),
            DPCOV_E_NON_FINITE);
  EXPECT_EQ(refusal.row, 1);
  const dpcov_gram_info after = gram_info_of(g);
  EXPECT_EQ(after.rows, before.rows);
  EXPECT_EQ(after.units, before.units);
  EXPECT_EQ(after.truncated, before.truncated);
  // The row paths refuse an accumulator of units, and the unit paths one of rows.
  EXPECT_EQ(dpcov_gram_add_raw_rows(g, DPCOV_ROW_MAJOR, rows, kCols, a.data(), kCols, nullptr),
            DPCOV_E_INVALID_ARGUMENT);
  dpcov_row_bounding idealized = spec;
  idealized.numerics = DPCOV_NUMERICS_IDEALIZED;
  dpcov_gram *ig = unit_gram(idealized, data, rng);
  EXPECT_EQ(dpcov_gram_add_rows(ig, DPCOV_ROW_MAJOR, rows, kCols, a.data(), kCols, 1.0,
                                DPCOV_BOUND_CLIP),
            DPCOV_E_INVALID_ARGUMENT);
  size_t size = 0;
  EXPECT_EQ(dpcov_gram_export_state(g, nullptr, 0, &size), DPCOV_E_PRECONDITION);
  EXPECT_EQ(size, 0u);
  dpcov_gram *plain = nullptr;
  ASSERT_EQ(dpcov_gram_create(&plain, kCols), DPCOV_OK);
  EXPECT_EQ(add(plain, rng, DPCOV_ROW_MAJOR, rows, kCols, a.data(), kCols, ids.data()),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_gram_finish_units(plain), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_gram_finish_units(nullptr), DPCOV_E_NULL_POINTER);
  for (dpcov_gram *h : {g, ig, plain}) dpcov_gram_destroy(&h);
  dpcov_rng_destroy(&rng);
}

TEST(CapiUnits, RefusesBadSpecs) {
  dpcov_gram *g = nullptr;
  for (const int64_t k : {int64_t{-1}, (int64_t{1} << 20) + 1, INT64_MAX}) {
    const dpcov_row_bounding spec = unit_spec(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NUMERICS_EXACT,
                                              DPCOV_NEIGHBOUR_REPLACE_ONE, k);
    EXPECT_EQ(dpcov_gram_create_bounded(&g, kCols, &spec), DPCOV_E_INVALID_ARGUMENT) << k;
    EXPECT_EQ(g, nullptr);
  }
  dpcov_row_bounding reject = unit_spec(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NUMERICS_EXACT,
                                        DPCOV_NEIGHBOUR_REPLACE_ONE);
  reject.policy = DPCOV_BOUND_REJECT;
  EXPECT_EQ(dpcov_gram_create_bounded(&g, kCols, &reject), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(g, nullptr);
  // A unit bound that overflows.
  dpcov_row_bounding huge = unit_spec(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NUMERICS_IDEALIZED,
                                      DPCOV_NEIGHBOUR_REPLACE_ONE, int64_t{1} << 20);
  huge.bound = 1e307;
  EXPECT_EQ(dpcov_gram_create_bounded(&g, kCols, &huge), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(g, nullptr);
}

}  // namespace

namespace {

// The truncated units (k = 3, units of up to 6 rows) of `data` added `step` rows per call, with
// the generator seeded 12: the finished state's bytes.
std::vector<unsigned char> state_in_steps(const Data &data, int64_t step) {
  const dpcov_row_bounding spec =
      unit_spec(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NUMERICS_EXACT, DPCOV_NEIGHBOUR_REPLACE_ONE);
  dpcov_gram *g = nullptr;
  EXPECT_EQ(dpcov_gram_create_bounded(&g, kCols, &spec), DPCOV_OK);
  dpcov_rng *rng = seeded(12);
  const int64_t rows = static_cast<int64_t>(data.ids.size());
  for (int64_t first = 0; first < rows; first += step) {
    const int64_t count = std::min(step, rows - first);
    EXPECT_EQ(dpcov_gram_add_unit_rows(g, rng, DPCOV_ROW_MAJOR, count, kCols,
                                       data.rows.data() + first * kCols, kCols,
                                       data.ids.data() + first, nullptr),
              DPCOV_OK)
        << dpcov_last_error_message();
  }
  EXPECT_EQ(dpcov_gram_finish_units(g), DPCOV_OK);
  std::vector<unsigned char> bytes = exported(g);
  dpcov_gram_destroy(&g);
  dpcov_rng_destroy(&rng);
  return bytes;
}

}  // namespace

// A chunk larger than the library's slices (it takes a chunk a few thousand rows at a time) gives
// the state of the same rows in small calls, byte for byte: the same rows kept with the same
// draws, the same exact sums and counters.
TEST(CapiUnits, ALargeChunkGivesTheStateOfSmallCalls) {
  const Data data = unit_data(0, 6000);  // 21 000 rows, truncated units among them
  EXPECT_EQ(state_in_steps(data, static_cast<int64_t>(data.ids.size())),
            state_in_steps(data, 777));
}
