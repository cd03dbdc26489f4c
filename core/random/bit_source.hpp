// Fair bits from a generator's 64-bit words, handed out one or a few at a time: an exact
// decision that needs two bits on average (a Bernoulli by lazy comparison, a small uniform) then
// costs two bits of the generator rather than a whole word.
//
// Bits of a word that are not handed out before the source is destroyed are discarded, never
// returned to the generator: every bit of noise is used at most once. The bits handed out are
// those of the words in order, least significant first, so the law of whatever is built from them
// is the law of independent fair bits.
#pragma once

#include <cstdint>

#include "rng.hpp"

namespace dpcov::random {

class BitSource {
 public:
  explicit BitSource(Rng &rng) : rng_(rng) {}
  BitSource(const BitSource &) = delete;
  BitSource &operator=(const BitSource &) = delete;

  bool bit() {
    if (left_ == 0) refill();
    const bool b = (word_ & 1U) != 0;
    word_ >>= 1;
    --left_;
    return b;
  }

  // k fair bits (1 <= k <= 64) as the low bits of the result.
  uint64_t bits(int k) {
    if (k <= left_) {
      const uint64_t v = k == 64 ? word_ : word_ & ((uint64_t{1} << k) - 1);
      word_ = k == 64 ? 0 : word_ >> k;
      left_ -= k;
      return v;
    }
    // The remaining `have` < k bits, then k - have bits of the next word above them.
    const uint64_t low = word_;
    const int have = left_;
    refill();
    return low | (bits(k - have) << have);
  }

 private:
  void refill() {
    word_ = rng_.next_u64();
    left_ = 64;
  }

  Rng &rng_;
  uint64_t word_ = 0;
  int left_ = 0;
};

}  // namespace dpcov::random
