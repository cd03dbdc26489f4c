#include "chacha20.hpp"

#include <sodium.h>

#include <bit>
#include <cstring>

#include "../error.hpp"

namespace dpcov::random {

namespace {

// sodium_init() selects the SIMD implementation of ChaCha20 for this CPU; it is idempotent and
// thread-safe, and the reference implementation would only be slower, never different.
void init_sodium() {
  static const bool ready = sodium_init() >= 0;
  if (!ready) fail(Status::Internal, "libsodium could not be initialised");
}

}  // namespace

ChaCha20Stream::ChaCha20Stream(const KeyBytes &key, uint64_t position) : key_(key) {
  init_sodium();
  refill(position / kBufferWords * kBufferBlocks);
  index_ = static_cast<unsigned>(position % kBufferWords);
}

void ChaCha20Stream::keystream(unsigned char *out, size_t bytes, const unsigned char nonce[8],
                               uint64_t counter, const unsigned char key[kKeyBytes]) {
  static const unsigned char zeros[kBufferWords * 8] = {};
  init_sodium();
  while (bytes > 0) {
    const size_t chunk = bytes < sizeof(zeros) ? bytes : sizeof(zeros);
    crypto_stream_chacha20_xor_ic(out, zeros, chunk, nonce, counter, key);
    out += chunk;
    bytes -= chunk;
    counter += sizeof(zeros) / 64;
  }
}

void ChaCha20Stream::refill(uint64_t first_block) {
  static const unsigned char nonce[8] = {};
  // The keystream is written straight into the words (any object may be accessed as bytes); word
  // i is bytes 8i..8i+7 read little-endian, which on a little-endian host is the bytes as they
  // lie, so only a big-endian host reorders them. (Assembling each word byte by byte cost twice
  // the cipher itself.)
  keystream(reinterpret_cast<unsigned char *>(buffer_.data()), sizeof(buffer_), nonce, first_block,
            key_.data());
  if constexpr (std::endian::native == std::endian::big)
    for (uint64_t &w : buffer_) w = __builtin_bswap64(w);
  first_block_ = first_block;
  index_ = 0;
}

}  // namespace dpcov::random
