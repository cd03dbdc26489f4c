#include "rng.hpp"

#include <sys/random.h>

#include <cerrno>
#include <cstring>

#include "../error.hpp"

namespace dpcov::random {

namespace {

constexpr uint64_t kGolden = 0x9e3779b97f4a7c15ULL;

// Format of the saved state: magic, format version, flags, key, engine state, engine increment;
// every word little-endian whatever the host, so a state saved on one machine restores on another.
constexpr uint32_t kStateMagic = 0x52435044U;  // "DPCR" read as little-endian bytes
constexpr uint32_t kStateVersion = 1;
constexpr uint64_t kFlagSeedFixed = 1;

void put_u64(unsigned char *out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<unsigned char>(v >> (8 * i));
}
uint64_t get_u64(const unsigned char *in) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(in[i]) << (8 * i);
  return v;
}
void put_u32(unsigned char *out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<unsigned char>(v >> (8 * i));
}
uint32_t get_u32(const unsigned char *in) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(in[i]) << (8 * i);
  return v;
}

Pcg64::Word join(uint64_t hi, uint64_t lo) {
  return (static_cast<Pcg64::Word>(hi) << 64) | static_cast<Pcg64::Word>(lo);
}
uint64_t high(Pcg64::Word w) { return static_cast<uint64_t>(w >> 64); }
uint64_t low(Pcg64::Word w) { return static_cast<uint64_t>(w); }

}  // namespace

uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

Rng::Rng(const Key &key, bool seed_fixed)
    : key_(key), engine_(join(key[0], key[1]), join(key[2], key[3])), seed_fixed_(seed_fixed) {}

Rng Rng::from_key(const Key &key, bool seed_fixed) { return Rng(key, seed_fixed); }

Rng Rng::from_entropy() {
  Key key{};
  auto *bytes = reinterpret_cast<unsigned char *>(key.data());
  size_t got = 0;
  while (got < sizeof(key)) {
    const ssize_t n = getrandom(bytes + got, sizeof(key) - got, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(DPCOV_E_ENTROPY, "getrandom() failed: ", std::strerror(errno));
    }
    got += static_cast<size_t>(n);
  }
  return Rng(key, false);
}

Rng Rng::from_seed(uint64_t seed, uint64_t stream) {
  Key key;
  key[0] = mix64(seed + kGolden);
  key[1] = mix64((key[0] ^ stream) + 2 * kGolden);
  key[2] = mix64(key[1] + 3 * kGolden);
  key[3] = mix64((key[2] ^ key[0]) + 4 * kGolden);
  return Rng(key, true);
}

Rng::Key Rng::substream_key(const Key &key, uint64_t index) {
  uint64_t acc = index;
  for (uint64_t j = 0; j < 4; ++j) acc = mix64((acc ^ key[j]) + (j + 1) * kGolden);
  Key child;
  child[0] = acc;
  for (uint64_t j = 1; j < 4; ++j) child[j] = mix64((child[j - 1] ^ key[j]) + (j + 5) * kGolden);
  return child;
}

Rng Rng::substream(uint64_t index) const {
  return Rng(substream_key(key_, index), seed_fixed_);
}

void Rng::save_state(unsigned char *out) const {
  put_u32(out, kStateMagic);
  put_u32(out + 4, kStateVersion);
  put_u64(out + 8, seed_fixed_ ? kFlagSeedFixed : 0);
  for (size_t j = 0; j < 4; ++j) put_u64(out + 16 + 8 * j, key_[j]);
  put_u64(out + 48, high(engine_.raw_state()));
  put_u64(out + 56, low(engine_.raw_state()));
  put_u64(out + 64, high(engine_.raw_increment()));
  put_u64(out + 72, low(engine_.raw_increment()));
}

Rng Rng::restore_state(const unsigned char *in) {
  if (get_u32(in) != kStateMagic)
    fail(DPCOV_E_INVALID_ARGUMENT, "not a dpcov generator state (bad magic number)");
  if (get_u32(in + 4) != kStateVersion)
    fail(DPCOV_E_INVALID_ARGUMENT, "generator state has format version ", get_u32(in + 4),
         ", this library reads version ", kStateVersion);
  const uint64_t flags = get_u64(in + 8);
  if ((flags & ~kFlagSeedFixed) != 0)
    fail(DPCOV_E_INVALID_ARGUMENT, "generator state has unknown flags ", flags);
  const uint64_t inc_low = get_u64(in + 72);
  if ((inc_low & 1U) == 0)
    fail(DPCOV_E_INVALID_ARGUMENT, "generator state has an even increment (corrupted state)");
  Key key;
  for (size_t j = 0; j < 4; ++j) key[j] = get_u64(in + 16 + 8 * j);
  Rng rng(key, (flags & kFlagSeedFixed) != 0);
  rng.engine_.set_raw(join(get_u64(in + 48), get_u64(in + 56)), join(get_u64(in + 64), inc_low));
  return rng;
}

}  // namespace dpcov::random
