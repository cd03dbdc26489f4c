// The public receipt (dpcov_receipt_public, proofs/public_receipt.md): what it withholds, its bad
// arguments, and the claim that neighbouring datasets released with the same generator give equal
// public receipts; the drop policy refused under replace-one.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

dpcov_receipt fresh_receipt() {
  dpcov_receipt r;
  std::memset(&r, 0xAB, sizeof r);
  r.struct_size = sizeof r;
  return r;
}

// Every field but struct_size and the padding, compared one by one.
void expect_same_fields(const dpcov_receipt &a, const dpcov_receipt &b) {
#define DPCOV_SAME(field) EXPECT_EQ(a.field, b.field) << #field
  DPCOV_SAME(mechanism);
  DPCOV_SAME(privacy_model);
  DPCOV_SAME(neighbour);
  DPCOV_SAME(calibration);
  DPCOV_SAME(not_dp);
  DPCOV_SAME(seed_fixed);
  DPCOV_SAME(sensitivity_norm);
  DPCOV_SAME(lambda_min_scope);
  DPCOV_SAME(dim);
  DPCOV_SAME(n);
  DPCOV_SAME(bound);
  DPCOV_SAME(epsilon);
  DPCOV_SAME(delta);
  DPCOV_SAME(rho);
  DPCOV_SAME(sensitivity);
  DPCOV_SAME(sigma);
  DPCOV_SAME(scale);
  DPCOV_SAME(dof);
  DPCOV_SAME(lambda_min_bound);
  EXPECT_STREQ(a.theorem, b.theorem);
  DPCOV_SAME(epsilon_eigenvalues);
  DPCOV_SAME(epsilon_step);
  DPCOV_SAME(budget_split);
  DPCOV_SAME(rank);
  DPCOV_SAME(beta);
  DPCOV_SAME(tau);
  DPCOV_SAME(exponent_factor);
  DPCOV_SAME(clip_upper);
  DPCOV_SAME(bingham_proposals);
  DPCOV_SAME(bingham_rejections);
  DPCOV_SAME(projection_rows);
  DPCOV_SAME(threshold_w2);
  DPCOV_SAME(appended_w);
  DPCOV_SAME(test_epsilon);
  DPCOV_SAME(test_delta);
  DPCOV_SAME(test_scale);
  DPCOV_SAME(test_shift);
  DPCOV_SAME(test_value);
  DPCOV_SAME(test_passed);
  DPCOV_SAME(glasso_rho);
  DPCOV_SAME(max_rows_per_unit);
#undef DPCOV_SAME
}

// Rows of a 3-column dataset, row-major; row 0 is over the bound 1 when `over` (clipped).
std::vector<double> rows(int n, bool over) {
  std::vector<double> a;
  for (int i = 0; i < n; ++i) {
    const double t = 0.1 * (i % 5);
    a.insert(a.end(), {0.3 + t, -0.2, 0.1 * t});
  }
  if (over) a[0] = 4.0;
  return a;
}

// The release of `a` (n x 3, bound 1, policy `policy`) by `mechanism` under `neighbour`, with the
// generator of seed 5: returns the status and fills the full receipt.
dpcov_status release(int32_t mechanism, int32_t neighbour, const std::vector<double> &a,
                     int32_t policy, dpcov_receipt &receipt) {
  const int64_t n = static_cast<int64_t>(a.size() / 3);
  dpcov_gram *gram = nullptr;
  dpcov_rng *rng = nullptr;
  EXPECT_EQ(dpcov_gram_create(&gram, 3), DPCOV_OK);
  EXPECT_EQ(dpcov_gram_add_rows(gram, DPCOV_ROW_MAJOR, n, 3, a.data(), 3, 1.0, policy), DPCOV_OK);
  EXPECT_EQ(dpcov_rng_create_seeded(&rng, 5, 0), DPCOV_OK);
  dpcov_mechanism_params params;
  dpcov_mechanism_params_default(&params);
  params.neighbour = neighbour;
  const double delta = mechanism == DPCOV_MECHANISM_LAPLACE_SYM || mechanism == DPCOV_MECHANISM_IEV ||
                               mechanism == DPCOV_MECHANISM_KT_RANK1
                           ? 0.0
                           : 1e-6;
  const double epsilon = mechanism == DPCOV_MECHANISM_WISHART_ADDITIVE ? 0.9 : 1.0;
  std::vector<double> out(9);
  const dpcov_status status = dpcov_mechanism_release_gram(mechanism, gram, epsilon, delta, &params,
                                                           rng, DPCOV_ROW_MAJOR, out.data(), 3,
                                                           &receipt);
  dpcov_rng_destroy(&rng);
  dpcov_gram_destroy(&gram);
  return status;
}

dpcov_receipt public_of(const dpcov_receipt &full) {
  dpcov_receipt shown = fresh_receipt();
  EXPECT_EQ(dpcov_receipt_public(&full, &shown), DPCOV_OK) << dpcov_last_error_message();
  return shown;
}

const int32_t kMechanisms[] = {DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_MECHANISM_LAPLACE_SYM,
                               DPCOV_MECHANISM_WISHART_ADDITIVE, DPCOV_MECHANISM_IEV,
                               DPCOV_MECHANISM_KT_RANK1};

TEST(PublicReceipt, ReplaceOneNeighboursGiveEqualPublicReceipts) {
  // Row 0 replaced by one over the bound (clipped): the clipped count differs, n does not.
  for (const int32_t m : kMechanisms) {
    dpcov_receipt a = fresh_receipt(), b = fresh_receipt();
    ASSERT_EQ(release(m, DPCOV_NEIGHBOUR_REPLACE_ONE, rows(40, false), DPCOV_BOUND_CLIP, a),
              DPCOV_OK)
        << dpcov_last_error_message();
    ASSERT_EQ(release(m, DPCOV_NEIGHBOUR_REPLACE_ONE, rows(40, true), DPCOV_BOUND_CLIP, b),
              DPCOV_OK);
    SCOPED_TRACE(dpcov_mechanism_name(m));
    expect_same_fields(public_of(a), public_of(b));
    EXPECT_EQ(public_of(a).n, 40);
  }
}

TEST(PublicReceipt, AddRemoveNeighboursGiveEqualPublicReceiptsWithoutN) {
  for (const int32_t m : kMechanisms) {
    dpcov_receipt a = fresh_receipt(), b = fresh_receipt();
    ASSERT_EQ(release(m, DPCOV_NEIGHBOUR_ADD_REMOVE, rows(40, false), DPCOV_BOUND_CLIP, a),
              DPCOV_OK)
        << dpcov_last_error_message();
    ASSERT_EQ(release(m, DPCOV_NEIGHBOUR_ADD_REMOVE, rows(41, false), DPCOV_BOUND_CLIP, b),
              DPCOV_OK);
    SCOPED_TRACE(dpcov_mechanism_name(m));
    EXPECT_NE(a.n, b.n);  // the full receipt is the curator's
    expect_same_fields(public_of(a), public_of(b));
    EXPECT_EQ(public_of(a).n, DPCOV_RECEIPT_N_WITHHELD);
  }
}

TEST(PublicReceipt, BinghamProposalCountsStayWithTheCurator) {
  dpcov_receipt full = fresh_receipt();
  ASSERT_EQ(release(DPCOV_MECHANISM_IEV, DPCOV_NEIGHBOUR_REPLACE_ONE, rows(40, false),
                    DPCOV_BOUND_CLIP, full),
            DPCOV_OK);
  EXPECT_GE(full.bingham_proposals, 3);
  const dpcov_receipt shown = public_of(full);
  EXPECT_EQ(shown.bingham_proposals, 0);
  EXPECT_EQ(shown.bingham_rejections, 0);
  EXPECT_EQ(shown.sigma, full.sigma);
  EXPECT_EQ(shown.scale, full.scale);
}

TEST(PublicReceipt, MayOverwriteItsInput) {
  dpcov_receipt r = fresh_receipt();
  ASSERT_EQ(release(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NEIGHBOUR_ADD_REMOVE, rows(10, false),
                    DPCOV_BOUND_CLIP, r),
            DPCOV_OK);
  ASSERT_EQ(dpcov_receipt_public(&r, &r), DPCOV_OK);
  EXPECT_EQ(r.n, DPCOV_RECEIPT_N_WITHHELD);
}

TEST(PublicReceipt, BadArgumentsLeaveTheOutputUntouched) {
  dpcov_receipt r = fresh_receipt();
  ASSERT_EQ(release(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NEIGHBOUR_REPLACE_ONE, rows(10, false),
                    DPCOV_BOUND_CLIP, r),
            DPCOV_OK);
  const dpcov_receipt before = fresh_receipt();
  dpcov_receipt out = before;
  EXPECT_EQ(dpcov_receipt_public(nullptr, &out), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_receipt_public(&r, nullptr), DPCOV_E_NULL_POINTER);
  dpcov_receipt small = r;
  // Below the first version of the struct (through glasso_rho); an older struct above it is read.
  small.struct_size = offsetof(dpcov_receipt, max_rows_per_unit) - 1;
  EXPECT_EQ(dpcov_receipt_public(&small, &out), DPCOV_E_INVALID_ARGUMENT);
  out.struct_size = 0;
  EXPECT_EQ(dpcov_receipt_public(&r, &out), DPCOV_E_INVALID_ARGUMENT);
  out.struct_size = sizeof out;
  dpcov_receipt odd = r;
  for (const int32_t neighbour : {-1, 2, 99}) {
    odd.neighbour = neighbour;
    EXPECT_EQ(dpcov_receipt_public(&odd, &out), DPCOV_E_INVALID_ARGUMENT);
    EXPECT_NE(std::strstr(dpcov_last_error_message(), "neighbour"), nullptr);
  }
  EXPECT_EQ(std::memcmp(&out, &before, sizeof out), 0);
}

// A caller's receipt whose theorem fills its array without a terminating NUL is refused: copied
// through, the public receipt's theorem would be read past its end by any C-string reader.
TEST(PublicReceipt, ATheoremWithoutItsNulIsRefused) {
  dpcov_receipt r = fresh_receipt();
  ASSERT_EQ(release(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NEIGHBOUR_REPLACE_ONE, rows(10, false),
                    DPCOV_BOUND_CLIP, r),
            DPCOV_OK);
  std::memset(r.theorem, 'x', sizeof r.theorem);
  const dpcov_receipt before = fresh_receipt();
  dpcov_receipt out = before;
  EXPECT_EQ(dpcov_receipt_public(&r, &out), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(dpcov_last_error_message(), "theorem"), nullptr);
  EXPECT_EQ(std::memcmp(&out, &before, sizeof out), 0);
}

TEST(PublicReceipt, TheDropPolicyIsRefusedUnderReplaceOneOnly) {
  dpcov_receipt r = fresh_receipt();
  const dpcov_receipt before = r;
  EXPECT_EQ(release(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NEIGHBOUR_REPLACE_ONE, rows(10, true),
                    DPCOV_BOUND_DROP, r),
            DPCOV_E_PRECONDITION);
  const std::string refusal = dpcov_last_error_message();
  EXPECT_NE(refusal.find("DPCOV_BOUND_DROP"), std::string::npos);
  EXPECT_EQ(std::memcmp(&r, &before, sizeof r), 0);
  // Nothing dropped: refused all the same, with the same message, so that the refusal does not
  // tell a dataset with a row over the bound from its neighbour without one.
  EXPECT_EQ(release(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NEIGHBOUR_REPLACE_ONE, rows(10, false),
                    DPCOV_BOUND_DROP, r),
            DPCOV_E_PRECONDITION);
  EXPECT_EQ(refusal, dpcov_last_error_message());
  EXPECT_EQ(std::memcmp(&r, &before, sizeof r), 0);
  // Add/remove: dropping is 1-stable, and n (9 rows kept) stays with the curator.
  ASSERT_EQ(release(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_NEIGHBOUR_ADD_REMOVE, rows(10, true),
                    DPCOV_BOUND_DROP, r),
            DPCOV_OK);
  EXPECT_EQ(r.n, 9);
  EXPECT_EQ(public_of(r).n, DPCOV_RECEIPT_N_WITHHELD);
}

}  // namespace
