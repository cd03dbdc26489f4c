// BitSource (core/random/bit_source.hpp): the bits it hands out are the generator's words, least
// significant bit first, across word boundaries, and never reused.
#include <gtest/gtest.h>

#include <vector>

#include "core/random/bit_source.hpp"

namespace dpcov::random {
namespace {

std::vector<uint64_t> words(uint64_t seed, int count) {
  Rng rng = Rng::from_seed(seed);
  std::vector<uint64_t> out;
  for (int i = 0; i < count; ++i) out.push_back(rng.next_u64());
  return out;
}

// Bit i of the concatenated words (bit 0 = least significant bit of the first word).
uint64_t stream_bits(const std::vector<uint64_t> &w, int first, int count) {
  uint64_t v = 0;
  for (int i = 0; i < count; ++i) {
    const int at = first + i;
    v |= ((w[static_cast<size_t>(at / 64)] >> (at % 64)) & 1U) << i;
  }
  return v;
}

TEST(BitSource, HandsOutTheWordsBitsInOrderAcrossWordBoundaries) {
  const std::vector<uint64_t> w = words(7, 8);
  Rng rng = Rng::from_seed(7);
  BitSource bits(rng);
  int at = 0;
  // Widths that straddle word boundaries at different offsets, single bits, and whole words.
  for (const int k : {1, 3, 60, 64, 5, 1, 1, 50, 64, 17, 33}) {
    const uint64_t expected = stream_bits(w, at, k);
    const uint64_t got = k == 1 ? uint64_t{bits.bit()} : bits.bits(k);
    EXPECT_EQ(got, expected) << "k = " << k << " at bit " << at;
    at += k;
  }
}

TEST(BitSource, DiscardsTheUnusedBitsOfItsLastWord) {
  const std::vector<uint64_t> w = words(8, 3);
  Rng rng = Rng::from_seed(8);
  {
    BitSource bits(rng);
    EXPECT_EQ(bits.bits(3), w[0] & 7U);
  }
  // The rest of word 0 is gone: the generator continues at word 1.
  EXPECT_EQ(rng.next_u64(), w[1]);
}

}  // namespace
}  // namespace dpcov::random
