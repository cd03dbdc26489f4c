// Inverse Gauss's refusal matches what its sensitivity assumes (proofs/inverse_gauss.md, "The data
// check"): a dataset of a covered pair is never refused, and a refusal's message carries no value
// computed from the data.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dpcov.h"

namespace {

class InverseGaussScopes : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(dpcov_rng_create_seeded(&rng_, 32, 0), DPCOV_OK); }
  void TearDown() override { dpcov_rng_destroy(&rng_); }

  // Releases diag(a, b) from n = 10 rows of norm <= B = 1 at theta^2 = 4 in `scope`.
  dpcov_status release_diag(double a, double b, int32_t scope) {
    const std::vector<double> g = {a, 0.0, 0.0, b};
    dpcov_mechanism_params p;
    dpcov_mechanism_params_default(&p);
    p.lambda_min_bound = 4.0;
    p.lambda_min_scope = scope;
    std::vector<double> out(4);
    dpcov_receipt r{};
    r.struct_size = sizeof r;
    return dpcov_mechanism_release(DPCOV_MECHANISM_INVERSE_GAUSS, DPCOV_ROW_MAJOR, 2, g.data(), 2,
                                   10, 1.0, 1.0, 1e-6, &p, rng_, out.data(), 2, &r);
  }

  dpcov_status log_density_diag(double a, double b, int32_t scope) {
    const std::vector<double> g = {a, 0.0, 0.0, b};
    const std::vector<double> y = {0.2, 0.0, 0.0, 0.2};
    dpcov_mechanism_params p;
    dpcov_mechanism_params_default(&p);
    p.lambda_min_bound = 4.0;
    p.lambda_min_scope = scope;
    double value = 0.0;
    return dpcov_mechanism_log_density(DPCOV_MECHANISM_INVERSE_GAUSS, DPCOV_ROW_MAJOR, 2, y.data(),
                                       2, g.data(), 2, 10, 1.0, 1.0, 1e-6, &p, &value);
  }

  dpcov_rng *rng_ = nullptr;
};

// diag(5, 4.5) meets theta^2 = 4; replacing its row (0, 1) by (1, 0) gives diag(6, 3.5), with
// lambda_min = 3.5 >= theta^2 - B^2 = 3: the pair the input scope's sensitivity was sized for.
// Both are released; the floor theta^2 refused the neighbour, a distinguishing output.
TEST_F(InverseGaussScopes, InputScopeReleasesBothDatasetsOfACoveredPair) {
  EXPECT_EQ(release_diag(5.0, 4.5, DPCOV_LAMBDA_MIN_INPUT), DPCOV_OK) << dpcov_last_error_message();
  EXPECT_EQ(release_diag(6.0, 3.5, DPCOV_LAMBDA_MIN_INPUT), DPCOV_OK) << dpcov_last_error_message();
  EXPECT_EQ(log_density_diag(6.0, 3.5, DPCOV_LAMBDA_MIN_INPUT), DPCOV_OK)
      << dpcov_last_error_message();
  // At the floor itself: the neighbour of diag(5, 4) that drops the (0, 1) row.
  EXPECT_EQ(release_diag(6.0, 3.0, DPCOV_LAMBDA_MIN_INPUT), DPCOV_OK) << dpcov_last_error_message();
}

TEST_F(InverseGaussScopes, InputScopeRefusesOnlyBelowThetaSquaredMinusBSquared) {
  EXPECT_EQ(release_diag(6.0, 2.9, DPCOV_LAMBDA_MIN_INPUT), DPCOV_E_PRECONDITION);
  EXPECT_EQ(log_density_diag(6.0, 2.9, DPCOV_LAMBDA_MIN_INPUT), DPCOV_E_PRECONDITION);
}

TEST_F(InverseGaussScopes, DomainScopeRefusesBelowThetaSquaredOnly) {
  EXPECT_EQ(release_diag(5.0, 4.0, DPCOV_LAMBDA_MIN_DOMAIN), DPCOV_OK)
      << dpcov_last_error_message();
  EXPECT_EQ(release_diag(6.0, 3.5, DPCOV_LAMBDA_MIN_DOMAIN), DPCOV_E_PRECONDITION);
}

// Two refused inputs with different lambda_min give the same message, so it holds no value
// computed from G; it names the public bound instead.
TEST_F(InverseGaussScopes, RefusalMessagesHoldNoDataValue) {
  for (const int32_t scope : {DPCOV_LAMBDA_MIN_DOMAIN, DPCOV_LAMBDA_MIN_INPUT}) {
    ASSERT_EQ(release_diag(6.0, 2.5, scope), DPCOV_E_PRECONDITION);
    const std::string first = dpcov_last_error_message();
    ASSERT_EQ(release_diag(5.5, 1.0 / 3.0, scope), DPCOV_E_PRECONDITION);
    EXPECT_EQ(dpcov_last_error_message(), first) << "scope " << scope;
    ASSERT_EQ(log_density_diag(7.0, 2.75, scope), DPCOV_E_PRECONDITION);
    EXPECT_EQ(dpcov_last_error_message(), first) << "scope " << scope;
    EXPECT_NE(first.find("theta^2 = 4"), std::string::npos) << first;
    EXPECT_EQ(first.find("2.5"), std::string::npos) << first;
    EXPECT_EQ(first.find("0.333"), std::string::npos) << first;
  }
}

}  // namespace
