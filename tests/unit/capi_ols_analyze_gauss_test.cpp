// dpcov_ols_analyze_gauss (dpcov/ols.h): refused under add/remove before any draw (its inference
// reads n, which they keep private), and an indefinite noisy X'X after the draw names what was
// spent and the entry points that keep a release, not a ridge this function refuses.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

struct Fixture {
  dpcov_rng *rng = nullptr;
  dpcov_receipt receipt{};
  std::vector<double> g = std::vector<double>(16, 0.0);
  const int64_t features[3] = {0, 1, 2};
  double coef[3] = {7.0, 7.0, 7.0};
  Fixture() {
    EXPECT_EQ(dpcov_rng_create_seeded(&rng, 3, 0), DPCOV_OK);
    receipt.struct_size = sizeof receipt;
  }
  ~Fixture() { dpcov_rng_destroy(&rng); }
  Fixture(const Fixture &) = delete;
  Fixture &operator=(const Fixture &) = delete;

  dpcov_status call(int64_t n, double epsilon, const dpcov_mechanism_params *params) {
    return dpcov_ols_analyze_gauss(DPCOV_COL_MAJOR, 4, g.data(), 4, n, 1.0, epsilon, 1e-6, params,
                                   3, features, 3, nullptr, rng, coef, nullptr, nullptr, nullptr,
                                   nullptr, nullptr, nullptr, nullptr, &receipt);
  }
};

TEST(CapiOlsAnalyzeGauss, AddRemoveIsRefusedBeforeAnyDraw) {
  Fixture f;
  for (int i = 0; i < 4; ++i) f.g[static_cast<size_t>(5 * i)] = 1000.0;
  dpcov_mechanism_params params;
  ASSERT_EQ(dpcov_mechanism_params_default(&params), DPCOV_OK);
  params.neighbour = DPCOV_NEIGHBOUR_ADD_REMOVE;
  unsigned char before[DPCOV_RNG_STATE_SIZE], after[DPCOV_RNG_STATE_SIZE];
  ASSERT_EQ(dpcov_rng_state_save(f.rng, before, sizeof before), DPCOV_OK);
  EXPECT_EQ(f.call(5000, 1.0, &params), DPCOV_E_INCOMPATIBLE);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("add/remove"), std::string::npos);
  ASSERT_EQ(dpcov_rng_state_save(f.rng, after, sizeof after), DPCOV_OK);
  EXPECT_EQ(std::memcmp(before, after, sizeof before), 0);
  EXPECT_EQ(f.coef[0], 7.0);
  EXPECT_EQ(f.receipt.epsilon, 0.0);
  // Replace-one (the default) runs.
  EXPECT_EQ(f.call(5000, 1.0, nullptr), DPCOV_OK) << dpcov_last_error_message();
}

TEST(CapiOlsAnalyzeGauss, AnIndefiniteReleaseSaysTheNoiseWasDrawnAndHowToKeepOne) {
  Fixture f;
  for (int i = 0; i < 4; ++i) f.g[static_cast<size_t>(5 * i)] = 1.0;  // swamped by the noise
  unsigned char before[DPCOV_RNG_STATE_SIZE], after[DPCOV_RNG_STATE_SIZE];
  ASSERT_EQ(dpcov_rng_state_save(f.rng, before, sizeof before), DPCOV_OK);
  dpcov_status status = DPCOV_OK;
  for (int attempt = 0; attempt < 20 && status != DPCOV_E_NOT_POSITIVE_DEFINITE; ++attempt)
    status = f.call(5000, 0.5, nullptr);
  ASSERT_EQ(status, DPCOV_E_NOT_POSITIVE_DEFINITE);
  const std::string message = dpcov_last_error_message();
  EXPECT_NE(message.find("budget is spent"), std::string::npos) << message;
  EXPECT_NE(message.find("dpcov_mechanism_release"), std::string::npos) << message;
  EXPECT_EQ(message.find("pass a ridge penalty"), std::string::npos) << message;
  ASSERT_EQ(dpcov_rng_state_save(f.rng, after, sizeof after), DPCOV_OK);
  EXPECT_NE(std::memcmp(before, after, sizeof before), 0);  // noise once drawn is consumed
}

}  // namespace
