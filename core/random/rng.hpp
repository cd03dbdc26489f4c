// The random generator every sampler and mechanism takes explicitly. There is no global generator.
//
// Engine: PCG64 (pcg_engines::setseq_xsl_rr_128_64 from pcg-cpp 0.98.1: 128-bit LCG state, 128-bit
// odd increment selecting the stream, XSL-RR output). PCG is a statistical generator, not a
// cryptographic one: its output can be predicted from a few observed words, which does not matter
// for differential privacy under the standard model (the adversary sees releases, not raw draws)
// but does mean the generator must not be used for keys or nonces.
//
// Every generator carries a 256-bit key from which its engine was initialised. The key is where
// reproducibility lives: from_seed() derives it from (seed, stream) by the hash documented at
// from_seed(); from_entropy() reads it from the operating system; substream(i) derives a child key
// from the parent key and i alone, so "the stream for row i" is the same on every machine and does
// not depend on how many numbers the parent has produced.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include <pcg_random.hpp>

namespace dpcov::random {

// PCG64 with access to its full (state, increment) pair, which pcg-cpp keeps protected; needed to
// serialise and restore the generator exactly.
class Pcg64 : public pcg_engines::setseq_xsl_rr_128_64 {
 public:
  using Base = pcg_engines::setseq_xsl_rr_128_64;
  using Word = Base::state_type;
  Pcg64(Word state, Word stream_seed) : Base(state, stream_seed) {}
  Word raw_state() const { return state_; }
  Word raw_increment() const { return increment(); }
  // Puts the engine exactly at (state, increment); the increment must be odd.
  void set_raw(Word state, Word increment) {
    state_ = state;
    set_stream(increment >> 1);
  }
};

class Rng {
 public:
  using Key = std::array<uint64_t, 4>;

  // Size in bytes of the buffer written by save_state() and read by restore_state().
  static constexpr size_t kStateBytes = 80;

  // A generator keyed by 256 bits read from getrandom(2). Throws DPCOV_E_ENTROPY if the
  // operating system cannot supply them. seed_fixed() is false.
  static Rng from_entropy();

  // A reproducible generator for (seed, stream); seed_fixed() is true. The key is
  //   k0 = mix(seed + G), k1 = mix((k0 ^ stream) + 2G), k2 = mix(k1 + 3G), k3 = mix((k2 ^ k0) + 4G)
  // with mix the SplitMix64 finaliser (a bijection of 64-bit words) and G = 0x9e3779b97f4a7c15.
  // (k0, k1) determines (seed, stream), so distinct pairs never share a key. The engine is then
  // built from the key as described at from_key(): both its state and its increment come from the
  // hash, never from seed() followed by set_stream(), which leaves related streams correlated
  // (pcg-cpp issues #49, #85, #90, #91).
  static Rng from_seed(uint64_t seed, uint64_t stream = 0);

  // The independent generator number `index` of this one: its key is a hash of (this key, index)
  // (see substream_key()), so it depends neither on how many numbers this generator has produced
  // nor on the machine. Distinct indices give distinct keys. Inherits seed_fixed().
  Rng substream(uint64_t index) const;

  // The next 64 uniformly distributed bits.
  uint64_t next_u64() { return engine_(); }

  // True iff the generator descends from an explicit seed (recorded in release receipts).
  bool seed_fixed() const { return seed_fixed_; }

  const Key &key() const { return key_; }

  // Writes kStateBytes bytes (format: docs/random.md) capturing the key, the engine position and
  // the seed_fixed flag; restore_state() of those bytes continues the same sequence.
  void save_state(unsigned char *out) const;
  // Throws DPCOV_E_INVALID_ARGUMENT if the bytes are not a state written by save_state().
  static Rng restore_state(const unsigned char *in);

  // The generator for a key: engine state (k0 << 64 | k1), stream seed (k2 << 64 | k3), through
  // pcg-cpp's two-argument constructor (increment = 2 stream + 1, state advanced once).
  static Rng from_key(const Key &key, bool seed_fixed);

  // Key of substream(index): acc = index, then for j = 0..3 acc = mix((acc ^ key_j) + (j+1) G);
  // c0 = acc and c_j = mix((c_{j-1} ^ key_j) + (j+5) G) for j = 1..3. Each step is a bijection of
  // acc, so distinct indices give distinct c0.
  static Key substream_key(const Key &key, uint64_t index);

 private:
  Rng(const Key &key, bool seed_fixed);

  Key key_;
  Pcg64 engine_;
  bool seed_fixed_;
};

// The SplitMix64 output function (Steele, Lea, Flood 2014): a bijection of 64-bit words with good
// avalanche, used for every key derivation above.
uint64_t mix64(uint64_t z);

}  // namespace dpcov::random
