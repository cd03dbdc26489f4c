// The random generator every sampler and mechanism takes explicitly. There is no global generator.
//
// Two engines. ChaCha20 (chacha20.hpp, libsodium) is a cryptographic generator: its output cannot
// be predicted without the key, so nobody who sees some raw draws, or the releases, can compute
// the noise of another release. It is the engine of every generator without an explicit seed
// (from_entropy(), keyed by getrandom). PCG64 (pcg_engines::setseq_xsl_rr_128_64 from pcg-cpp
// 0.98.1) is a fast statistical generator whose future outputs follow from a few observed words;
// it serves explicit seeds only (from_seed(): tests, audits, simulations), where the seed already
// reveals everything.
//
// Every generator carries a 256-bit key from which its engine was initialised. The key is where
// reproducibility lives: from_seed() derives it from (seed, stream) by the hash documented at
// from_seed(); from_entropy() reads it from the operating system; substream(i) derives a child key
// from the parent key and i alone by a keyed hash (one-way: a child's key reveals nothing of its
// parent's or siblings'), so "the stream for row i" is the same on every machine and does not
// depend on how many numbers the parent has produced.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <variant>

#include <pcg_random.hpp>

#include "chacha20.hpp"

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

// The engine of a generator; the values are those of dpcov_generator (dpcov/receipt.h).
enum class Engine : int32_t { Pcg64 = 1, ChaCha20 = 2 };

// How many times this process has been made by fork() from the one that loaded the library (a
// pthread_atfork handler counts them in the child). A generator records it when it is made: its
// stream, carried across fork(), would give the child the parent's next numbers.
inline std::atomic<uint64_t> fork_count{0};

class Rng {
 public:
  using Key = std::array<uint64_t, 4>;

  // Size in bytes of the buffer written by save_state() and read by restore_state().
  static constexpr size_t kStateBytes = 80;

  // A ChaCha20 generator keyed by 256 bits read from getrandom(2). Throws Status::Entropy if
  // the operating system cannot supply them. seed_fixed() is false.
  static Rng from_entropy();

  // A reproducible PCG64 generator for (seed, stream); seed_fixed() is true. The key is
  //   k0 = mix(seed + G), k1 = mix((k0 ^ stream) + 2G), k2 = mix(k1 + 3G), k3 = mix((k2 ^ k0) + 4G)
  // with mix the SplitMix64 finaliser (a bijection of 64-bit words) and G = 0x9e3779b97f4a7c15.
  // (k0, k1) determines (seed, stream), so distinct pairs never share a key. The engine is then
  // built from the key as described at from_key(): both its state and its increment come from the
  // hash, never from seed() followed by set_stream(), which leaves related streams correlated
  // (pcg-cpp issues #49, #85, #90, #91).
  static Rng from_seed(uint64_t seed, uint64_t stream = 0);

  // The independent generator number `index` of this one: its key is a hash of (this key, index)
  // (see substream_key()), so it depends neither on how many numbers this generator has produced
  // nor on the machine. Distinct indices give distinct keys. Inherits the engine and seed_fixed().
  Rng substream(uint64_t index) const;

  // A new generator keyed by four words drawn from this one, which advances: for a consumer that
  // derives its randomness from a key (a sketch's Gaussian weights, by substreams), so that two
  // consumers of one generator never share a key, as two draws never share noise. Inherits the
  // engine and seed_fixed().
  Rng split();

  // The next 64 uniformly distributed bits. Throws Status::Precondition for a generator made
  // before fork() in the parent (check_process()).
  uint64_t next_u64() {
    if (forks_ != fork_count.load(std::memory_order_relaxed)) [[unlikely]]
      check_process();
    if (auto *chacha = std::get_if<ChaCha20Stream>(&engine_)) return chacha->next();
    return (*std::get_if<Pcg64>(&engine_))();
  }

  // n words into out[0..n-1]: the words of n calls of next_u64() in turn. The engine is read once
  // and written back once, so its state stays in registers through the loop instead of going
  // through memory behind the variant for every word.
  void fill_u64(uint64_t *out, size_t n);

  Engine engine() const {
    return std::holds_alternative<ChaCha20Stream>(engine_) ? Engine::ChaCha20 : Engine::Pcg64;
  }

  // True iff the generator descends from an explicit seed (recorded in release receipts).
  bool seed_fixed() const { return seed_fixed_; }

  const Key &key() const { return key_; }

  // Writes kStateBytes bytes (format: docs/random.md) capturing the engine, the key, the engine
  // position and the seed_fixed flag; restore_state() of those bytes continues the same sequence.
  void save_state(unsigned char *out) const;
  // Throws Status::InvalidArgument if the bytes are not a state written by save_state().
  static Rng restore_state(const unsigned char *in);

  // The generator for a key. PCG64: engine state (k0 << 64 | k1), stream seed (k2 << 64 | k3),
  // through pcg-cpp's two-argument constructor (increment = 2 stream + 1, state advanced once).
  // ChaCha20: the key's 32 little-endian bytes are the cipher key, the stream starts at word 0.
  static Rng from_key(const Key &key, Engine engine, bool seed_fixed);

  // Key of substream(index): the 32-byte BLAKE2b keyed hash of libsodium's crypto_kdf
  // (crypto_kdf_derive_from_key with subkey id `index`, context "dpcovsub", the parent key's
  // 32 little-endian bytes as master key). A pseudorandom function of the parent key: children
  // reveal nothing of the parent key or of each other.
  static Key substream_key(const Key &key, uint64_t index);

 private:
  Rng(const Key &key, Engine engine, bool seed_fixed, uint64_t chacha_position = 0);

  // The stream crossed fork(): a seeded one goes on (reproducible by design, and its releases say
  // they are not private); any other refuses, since parent and child would draw the same noise.
  void check_process();

  Key key_;
  std::variant<Pcg64, ChaCha20Stream> engine_;
  bool seed_fixed_;
  uint64_t forks_;  // fork_count when made (or when a seeded stream went on after a fork)
};

// The SplitMix64 output function (Steele, Lea, Flood 2014): a bijection of 64-bit words with good
// avalanche, used to derive keys from explicit seeds.
uint64_t mix64(uint64_t z);

}  // namespace dpcov::random
