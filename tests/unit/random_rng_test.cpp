// Contracts of the generator: engine identity, the documented seed hash, counter-based
// substreams, state save/restore, and known answers pinning the first outputs.
#include <gtest/gtest.h>

#include <pcg_random.hpp>

#include <array>
#include <set>
#include <vector>

#include "core/error.hpp"
#include "core/random/rng.hpp"

namespace dpcov::random {
namespace {

std::vector<uint64_t> first(Rng rng, int count) {
  std::vector<uint64_t> out;
  for (int i = 0; i < count; ++i) out.push_back(rng.next_u64());
  return out;
}

// SplitMix64's output function written out independently of rng.cpp.
uint64_t splitmix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

TEST(Pcg64Engine, MatchesThePcgReferenceOutputsForSeed42Stream54) {
  // pcg64 reference values (pcg-c and pcg-cpp demos, seed 42, stream 54).
  Pcg64 engine(42U, 54U);
  const std::array<uint64_t, 6> expected = {0x86b1da1d72062b68ULL, 0x1304aa46c9853d39ULL,
                                            0xa3670e9e0dd50358ULL, 0xf9090e529a7dae00ULL,
                                            0xc85b9fd837996f2cULL, 0x606121f8e3919196ULL};
  for (uint64_t e : expected) EXPECT_EQ(engine(), e);
}

TEST(Mix64, IsTheSplitMix64OutputFunction) {
  // First output of SplitMix64 seeded with 0 (Steele, Lea, Flood 2014 reference code).
  EXPECT_EQ(mix64(0x9e3779b97f4a7c15ULL), 0xe220a8397b1dcdafULL);
}

TEST(RngFromSeed, DerivesStateAndIncrementByTheDocumentedHash) {
  constexpr uint64_t g = 0x9e3779b97f4a7c15ULL;
  const uint64_t seed = 123456789, stream = 987654321;
  const uint64_t k0 = splitmix(seed + g);
  const uint64_t k1 = splitmix((k0 ^ stream) + 2 * g);
  const uint64_t k2 = splitmix(k1 + 3 * g);
  const uint64_t k3 = splitmix((k2 ^ k0) + 4 * g);
  using W = Pcg64::Word;
  pcg_engines::setseq_xsl_rr_128_64 reference((W(k0) << 64) | W(k1), (W(k2) << 64) | W(k3));
  Rng rng = Rng::from_seed(seed, stream);
  EXPECT_EQ(rng.key(), (Rng::Key{k0, k1, k2, k3}));
  for (int i = 0; i < 8; ++i) EXPECT_EQ(rng.next_u64(), reference());
}

TEST(RngFromSeed, KnownAnswerFirstOutputs) {
  EXPECT_EQ(first(Rng::from_seed(20261122, 7), 4),
            (std::vector<uint64_t>{0x9ba7f5697a3f639bULL, 0xf1f16ac50d3675c8ULL,
                                   0xa5b9d8fc5856427dULL, 0xe5d50311c7d78201ULL}));
  EXPECT_EQ(first(Rng::from_seed(0, 0), 1), (std::vector<uint64_t>{0x0d994c0b848966acULL}));
}

TEST(RngSubstream, KnownAnswerFirstOutputs) {
  EXPECT_EQ(first(Rng::from_seed(20261122, 7).substream(3), 4),
            (std::vector<uint64_t>{0xd1be5c166461af25ULL, 0x1cd21339b14bbe96ULL,
                                   0x1429b05e68b18616ULL, 0xcff712c971c6e15bULL}));
}

TEST(RngFromSeed, SameSeedAndStreamGiveTheSameSequence) {
  EXPECT_EQ(first(Rng::from_seed(5, 9), 32), first(Rng::from_seed(5, 9), 32));
}

TEST(RngFromSeed, NeighbouringSeedsAndStreamsGiveDifferentStatesAndIncrements) {
  std::set<std::array<unsigned char, Rng::kStateBytes>> states;
  std::set<uint64_t> first_outputs;
  for (uint64_t seed = 0; seed < 16; ++seed)
    for (uint64_t stream = 0; stream < 16; ++stream) {
      Rng rng = Rng::from_seed(seed, stream);
      std::array<unsigned char, Rng::kStateBytes> bytes{};
      rng.save_state(bytes.data());
      // Bytes 48..63 hold the engine state, 64..79 its increment.
      std::array<unsigned char, Rng::kStateBytes> state_only{}, increment_only{};
      std::copy(bytes.begin() + 48, bytes.begin() + 64, state_only.begin());
      std::copy(bytes.begin() + 64, bytes.end(), increment_only.begin());
      EXPECT_TRUE(states.insert(state_only).second) << seed << " " << stream;
      EXPECT_TRUE(states.insert(increment_only).second) << seed << " " << stream;
      first_outputs.insert(rng.next_u64());
    }
  EXPECT_EQ(first_outputs.size(), 256U);
}

TEST(RngFromSeed, IsMarkedSeedFixedAndEntropyIsNot) {
  EXPECT_TRUE(Rng::from_seed(1).seed_fixed());
  EXPECT_FALSE(Rng::from_entropy().seed_fixed());
  EXPECT_TRUE(Rng::from_seed(1).substream(4).seed_fixed());
  EXPECT_FALSE(Rng::from_entropy().substream(4).seed_fixed());
}

TEST(RngFromEntropy, TwoGeneratorsHaveDifferentKeys) {
  // Equal 256-bit keys from the OS would mean the entropy source is broken.
  EXPECT_NE(Rng::from_entropy().key(), Rng::from_entropy().key());
}

TEST(RngSubstream, DependsOnlyOnTheKeyAndIndexNotOnThePosition) {
  Rng parent = Rng::from_seed(77, 1);
  const std::vector<uint64_t> before = first(parent.substream(12345), 16);
  for (int i = 0; i < 1000; ++i) parent.next_u64();
  EXPECT_EQ(first(parent.substream(12345), 16), before);
  // Same key reached another way: a restored copy.
  std::array<unsigned char, Rng::kStateBytes> bytes{};
  parent.save_state(bytes.data());
  EXPECT_EQ(first(Rng::restore_state(bytes.data()).substream(12345), 16), before);
}

TEST(RngSubstream, DoesNotChangeTheParent) {
  Rng a = Rng::from_seed(3), b = Rng::from_seed(3);
  (void)a.substream(9);
  EXPECT_EQ(first(a, 8), first(b, 8));
}

TEST(RngSubstream, DistinctIndicesGiveDistinctKeysAndSequences) {
  const Rng parent = Rng::from_seed(2026);
  std::set<Rng::Key> keys;
  std::set<uint64_t> outputs;
  for (uint64_t i = 0; i < 4096; ++i) {
    Rng child = parent.substream(i);
    keys.insert(child.key());
    outputs.insert(child.next_u64());
  }
  keys.insert(parent.key());
  EXPECT_EQ(keys.size(), 4097U);
  EXPECT_EQ(outputs.size(), 4096U);
}

TEST(RngSubstream, OfASubstreamIsNotTheParentOrASibling) {
  const Rng parent = Rng::from_seed(8);
  EXPECT_NE(parent.substream(1).substream(1).key(), parent.substream(1).key());
  EXPECT_NE(parent.substream(1).substream(2).key(), parent.substream(2).key());
}

TEST(RngState, SaveThenRestoreContinuesTheSameSequence) {
  Rng rng = Rng::from_seed(31337, 4);
  for (int i = 0; i < 17; ++i) rng.next_u64();
  std::array<unsigned char, Rng::kStateBytes> bytes{};
  rng.save_state(bytes.data());
  const std::vector<uint64_t> expected = first(rng, 100);
  Rng restored = Rng::restore_state(bytes.data());
  EXPECT_EQ(first(restored, 100), expected);
  EXPECT_TRUE(restored.seed_fixed());
  EXPECT_EQ(restored.key(), rng.key());
}

TEST(RngState, RoundTripsAnEntropyGeneratorAndItsFlag) {
  Rng rng = Rng::from_entropy();
  std::array<unsigned char, Rng::kStateBytes> bytes{};
  rng.save_state(bytes.data());
  Rng restored = Rng::restore_state(bytes.data());
  EXPECT_FALSE(restored.seed_fixed());
  EXPECT_EQ(first(restored, 10), first(rng, 10));
}

TEST(RngState, RestoreRefusesBytesThatAreNotASavedState) {
  std::array<unsigned char, Rng::kStateBytes> good{};
  Rng::from_seed(1).save_state(good.data());
  auto status_of = [](std::array<unsigned char, Rng::kStateBytes> bytes) {
    try {
      Rng::restore_state(bytes.data());
    } catch (const Error &e) {
      return e.status();
    }
    return dpcov_status{DPCOV_OK};
  };
  auto bad_magic = good;
  bad_magic[0] ^= 1U;
  auto bad_version = good;
  bad_version[4] = 2;
  auto bad_flags = good;
  bad_flags[8] = 2;
  auto even_increment = good;
  even_increment[72] &= 0xfeU;
  EXPECT_EQ(status_of(good), DPCOV_OK);
  EXPECT_EQ(status_of(bad_magic), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status_of(bad_version), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status_of(bad_flags), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status_of(even_increment), DPCOV_E_INVALID_ARGUMENT);
}

TEST(RngState, FormatIsLittleEndianWithMagicAndVersion) {
  std::array<unsigned char, Rng::kStateBytes> bytes{};
  Rng::from_seed(1).save_state(bytes.data());
  EXPECT_EQ(bytes[0], 'D');
  EXPECT_EQ(bytes[1], 'P');
  EXPECT_EQ(bytes[2], 'C');
  EXPECT_EQ(bytes[3], 'R');
  EXPECT_EQ(bytes[4], 1);
  EXPECT_EQ(bytes[8], 1);  // seed_fixed flag
  const Rng::Key key = Rng::from_seed(1).key();
  uint64_t k0 = 0;
  for (int i = 0; i < 8; ++i) k0 |= static_cast<uint64_t>(bytes[16 + i]) << (8 * i);
  EXPECT_EQ(k0, key[0]);
}

}  // namespace
}  // namespace dpcov::random
