// The generator through the C ABI: creation, destruction, substreams, state save/restore and the
// failure of every argument.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <vector>

#include "dpcov.h"

namespace {

struct RngPtr {
  dpcov_rng *p = nullptr;
  ~RngPtr() { dpcov_rng_destroy(&p); }
};

std::vector<uint64_t> draws(dpcov_rng *rng, int count) {
  std::vector<uint64_t> out(static_cast<size_t>(count));
  for (auto &v : out) EXPECT_EQ(dpcov_rng_next_u64(rng, &v), DPCOV_OK);
  return out;
}

TEST(CapiRng, SeededGeneratorMatchesTheKernelKnownAnswer) {
  RngPtr r;
  ASSERT_EQ(dpcov_rng_create_seeded(&r.p, 20261122, 7), DPCOV_OK);
  EXPECT_EQ(draws(r.p, 2), (std::vector<uint64_t>{0x9ba7f5697a3f639bULL, 0xf1f16ac50d3675c8ULL}));
  int32_t fixed = -1;
  EXPECT_EQ(dpcov_rng_seed_fixed(r.p, &fixed), DPCOV_OK);
  EXPECT_EQ(fixed, 1);
}

TEST(CapiRng, EntropyGeneratorIsNotSeedFixedAndDiffersFromAnother) {
  RngPtr a, b;
  ASSERT_EQ(dpcov_rng_create_from_entropy(&a.p), DPCOV_OK);
  ASSERT_EQ(dpcov_rng_create_from_entropy(&b.p), DPCOV_OK);
  int32_t fixed = -1;
  EXPECT_EQ(dpcov_rng_seed_fixed(a.p, &fixed), DPCOV_OK);
  EXPECT_EQ(fixed, 0);
  // Two keys from the OS give the same 256 bits with probability 2^-256.
  EXPECT_NE(draws(a.p, 4), draws(b.p, 4));
}

TEST(CapiRng, CreateRefusesANullOutput) {
  EXPECT_EQ(dpcov_rng_create_seeded(nullptr, 1, 2), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_rng_create_from_entropy(nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_NE(std::strstr(dpcov_last_error_message(), "out"), nullptr);
}

TEST(CapiRng, DestroyAcceptsNullAndSetsTheHandleToNull) {
  dpcov_rng_destroy(nullptr);
  dpcov_rng *r = nullptr;
  dpcov_rng_destroy(&r);
  ASSERT_EQ(dpcov_rng_create_seeded(&r, 1, 1), DPCOV_OK);
  dpcov_rng_destroy(&r);
  EXPECT_EQ(r, nullptr);
}

TEST(CapiRng, SubstreamDependsOnlyOnTheParentKeyAndIndex) {
  RngPtr parent, a, b;
  ASSERT_EQ(dpcov_rng_create_seeded(&parent.p, 20261122, 7), DPCOV_OK);
  ASSERT_EQ(dpcov_rng_substream(&a.p, parent.p, 3), DPCOV_OK);
  draws(parent.p, 500);
  ASSERT_EQ(dpcov_rng_substream(&b.p, parent.p, 3), DPCOV_OK);
  const auto first = draws(a.p, 4);
  EXPECT_EQ(first, draws(b.p, 4));
  EXPECT_EQ(first[0], 0x510d668a54829c5bULL);  // the kernel known answer (random_rng_test.cpp)
}

TEST(CapiRng, SubstreamRefusesNullArguments) {
  RngPtr parent, out;
  ASSERT_EQ(dpcov_rng_create_seeded(&parent.p, 1, 1), DPCOV_OK);
  EXPECT_EQ(dpcov_rng_substream(nullptr, parent.p, 0), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_rng_substream(&out.p, nullptr, 0), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(out.p, nullptr);
}

TEST(CapiRng, NextAndSeedFixedRefuseNullArguments) {
  RngPtr r;
  ASSERT_EQ(dpcov_rng_create_seeded(&r.p, 1, 1), DPCOV_OK);
  uint64_t v = 0;
  int32_t f = 0;
  EXPECT_EQ(dpcov_rng_next_u64(nullptr, &v), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_rng_next_u64(r.p, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_rng_seed_fixed(nullptr, &f), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_rng_seed_fixed(r.p, nullptr), DPCOV_E_NULL_POINTER);
}

TEST(CapiRngState, SaveRestoreRoundTripContinuesTheSequence) {
  EXPECT_EQ(dpcov_rng_state_size(), static_cast<size_t>(DPCOV_RNG_STATE_SIZE));
  RngPtr a, b;
  ASSERT_EQ(dpcov_rng_create_seeded(&a.p, 99, 1), DPCOV_OK);
  ASSERT_EQ(dpcov_rng_create_from_entropy(&b.p), DPCOV_OK);
  draws(a.p, 13);
  std::array<unsigned char, DPCOV_RNG_STATE_SIZE> state{};
  ASSERT_EQ(dpcov_rng_state_save(a.p, state.data(), state.size()), DPCOV_OK);
  const auto expected = draws(a.p, 50);
  ASSERT_EQ(dpcov_rng_state_restore(b.p, state.data(), state.size()), DPCOV_OK);
  EXPECT_EQ(draws(b.p, 50), expected);
  int32_t fixed = 0;
  EXPECT_EQ(dpcov_rng_seed_fixed(b.p, &fixed), DPCOV_OK);
  EXPECT_EQ(fixed, 1);
}

TEST(CapiRngState, SaveRefusesNullAndShortBuffers) {
  RngPtr r;
  ASSERT_EQ(dpcov_rng_create_seeded(&r.p, 1, 1), DPCOV_OK);
  std::array<unsigned char, DPCOV_RNG_STATE_SIZE + 8> buf{};
  buf.fill(0xAB);
  EXPECT_EQ(dpcov_rng_state_save(nullptr, buf.data(), buf.size()), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_rng_state_save(r.p, nullptr, buf.size()), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_rng_state_save(r.p, buf.data(), DPCOV_RNG_STATE_SIZE - 1),
            DPCOV_E_BUFFER_TOO_SMALL);
  for (unsigned char c : buf) EXPECT_EQ(c, 0xAB);
  EXPECT_EQ(dpcov_rng_state_save(r.p, buf.data(), buf.size()), DPCOV_OK);
  EXPECT_EQ(buf[DPCOV_RNG_STATE_SIZE], 0xAB);
}

TEST(CapiRngState, RestoreRefusesBadArgumentsAndLeavesTheGeneratorUnchanged) {
  RngPtr r, reference;
  ASSERT_EQ(dpcov_rng_create_seeded(&r.p, 5, 5), DPCOV_OK);
  ASSERT_EQ(dpcov_rng_create_seeded(&reference.p, 5, 5), DPCOV_OK);
  std::array<unsigned char, DPCOV_RNG_STATE_SIZE + 1> state{};
  ASSERT_EQ(dpcov_rng_state_save(r.p, state.data(), DPCOV_RNG_STATE_SIZE), DPCOV_OK);
  EXPECT_EQ(dpcov_rng_state_restore(nullptr, state.data(), DPCOV_RNG_STATE_SIZE),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_rng_state_restore(r.p, nullptr, DPCOV_RNG_STATE_SIZE), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_rng_state_restore(r.p, state.data(), DPCOV_RNG_STATE_SIZE - 1),
            DPCOV_E_BUFFER_TOO_SMALL);
  EXPECT_EQ(dpcov_rng_state_restore(r.p, state.data(), DPCOV_RNG_STATE_SIZE + 1),
            DPCOV_E_INVALID_ARGUMENT);
  auto corrupt = state;
  corrupt[0] = 0;
  EXPECT_EQ(dpcov_rng_state_restore(r.p, corrupt.data(), DPCOV_RNG_STATE_SIZE),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(dpcov_last_error_message(), "magic"), nullptr);
  EXPECT_EQ(draws(r.p, 5), draws(reference.p, 5));
}

}  // namespace
