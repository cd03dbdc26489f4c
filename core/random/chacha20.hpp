// ChaCha20 keystream as a source of 64-bit words: the cryptographic engine of every generator
// that has no explicit seed.
//
// The block function is libsodium's original ChaCha20 (Bernstein 2008: 64-bit block counter,
// 64-bit nonce), the same permutation as RFC 8439's IETF variant, whose 32-bit counter and 96-bit
// nonce are the same 128 bits split differently. The nonce is zero: every generator has its own
// 256-bit key, so (key, nonce) never repeats across generators, and the 64-bit counter never
// wraps (2^70 bytes). Word i of the stream is bytes 8i..8i+7 of the keystream, little-endian.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace dpcov::random {

class ChaCha20Stream {
 public:
  static constexpr size_t kKeyBytes = 32;
  using KeyBytes = std::array<unsigned char, kKeyBytes>;

  // The stream of `key`, positioned at word `position`.
  ChaCha20Stream(const KeyBytes &key, uint64_t position);

  uint64_t next() {
    if (index_ == kBufferWords) refill(first_block_ + kBufferBlocks);
    return buffer_[index_++];
  }

  // Number of words produced so far (the position to restore).
  uint64_t position() const { return first_block_ * kWordsPerBlock + index_; }

  // Keystream bytes from block `counter` on (libsodium crypto_stream_chacha20_xor_ic over
  // zeros). Exposed for the RFC 8439 known-answer tests.
  static void keystream(unsigned char *out, size_t bytes, const unsigned char nonce[8],
                        uint64_t counter, const unsigned char key[kKeyBytes]);

 private:
  static constexpr uint64_t kWordsPerBlock = 8;
  static constexpr uint64_t kBufferBlocks = 8;
  static constexpr unsigned kBufferWords = kWordsPerBlock * kBufferBlocks;

  void refill(uint64_t first_block);

  KeyBytes key_;
  uint64_t first_block_ = 0;
  unsigned index_ = 0;
  std::array<uint64_t, kBufferWords> buffer_{};
};

}  // namespace dpcov::random
