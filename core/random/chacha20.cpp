#include "chacha20.hpp"

#include <sodium.h>

#include <cstring>

#include "../error.hpp"

namespace dpcov::random {

namespace {

// sodium_init() selects the SIMD implementation of ChaCha20 for this CPU; it is idempotent and
// thread-safe, and the reference implementation would only be slower, never different.
void init_sodium() {
  static const bool ready = sodium_init() >= 0;
  if (!ready) fail(DPCOV_E_INTERNAL, "libsodium could not be initialised");
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
  unsigned char bytes[kBufferWords * 8];
  keystream(bytes, sizeof(bytes), nonce, first_block, key_.data());
  for (unsigned w = 0; w < kBufferWords; ++w) {
    uint64_t v = 0;
    for (int b = 7; b >= 0; --b) v = (v << 8) | bytes[8 * w + static_cast<unsigned>(b)];
    buffer_[w] = v;
  }
  sodium_memzero(bytes, sizeof(bytes));
  first_block_ = first_block;
  index_ = 0;
}

}  // namespace dpcov::random
