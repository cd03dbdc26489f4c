#include "rng.hpp"

#include <pthread.h>
#include <sodium.h>
#include <sys/random.h>

#include <cerrno>
#include <cstring>

#include "../error.hpp"

namespace dpcov::random {

namespace {

// Counts forks in the child, at load time of the library (see fork_count).
[[maybe_unused]] const int kForkHandler = pthread_atfork(
    nullptr, nullptr, [] { fork_count.fetch_add(1, std::memory_order_relaxed); });

constexpr uint64_t kGolden = 0x9e3779b97f4a7c15ULL;

// Format of the saved state: magic, format version, flags, key, engine state, engine increment;
// every word little-endian whatever the host, so a state saved on one machine restores on another.
constexpr uint32_t kStateMagic = 0x52435044U;  // "DPCR" read as little-endian bytes
// Version 1 (PCG64 only) is still read; version 2 adds the engine flag.
constexpr uint32_t kStateVersion = 2;
constexpr uint64_t kFlagSeedFixed = 1;
constexpr uint64_t kFlagChaCha20 = 2;

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

ChaCha20Stream::KeyBytes key_bytes(const Rng::Key &key) {
  ChaCha20Stream::KeyBytes bytes{};
  for (size_t j = 0; j < 4; ++j) put_u64(bytes.data() + 8 * j, key[j]);
  return bytes;
}

std::variant<Pcg64, ChaCha20Stream> make_engine(const Rng::Key &key, Engine engine,
                                                uint64_t chacha_position) {
  if (engine == Engine::ChaCha20) {
    ChaCha20Stream::KeyBytes bytes = key_bytes(key);
    std::variant<Pcg64, ChaCha20Stream> out(std::in_place_type<ChaCha20Stream>, bytes,
                                            chacha_position);
    sodium_memzero(bytes.data(), bytes.size());
    return out;
  }
  return std::variant<Pcg64, ChaCha20Stream>(std::in_place_type<Pcg64>, join(key[0], key[1]),
                                             join(key[2], key[3]));
}

}  // namespace

uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

Rng::Rng(const Key &key, Engine engine, bool seed_fixed, uint64_t chacha_position)
    : key_(key),
      engine_(make_engine(key, engine, chacha_position)),
      seed_fixed_(seed_fixed),
      forks_(fork_count.load(std::memory_order_relaxed)) {}

void Rng::check_process() {
  if (seed_fixed_) {
    forks_ = fork_count.load(std::memory_order_relaxed);
    return;
  }
  fail(Status::Precondition, "this generator was made before fork() and would give this process ",
       "the same numbers as its parent (noise once drawn must never repeat): make a generator in ",
       "this process (dpcov_rng_create_from_entropy)");
}

Rng Rng::split() {
  Key key;
  fill_u64(key.data(), key.size());
  Rng child(key, engine(), seed_fixed_);
  sodium_memzero(key.data(), sizeof key);
  return child;
}

Rng Rng::from_key(const Key &key, Engine engine, bool seed_fixed) {
  return Rng(key, engine, seed_fixed);
}

void Rng::fill_u64(uint64_t *out, size_t n) {
  if (forks_ != fork_count.load(std::memory_order_relaxed)) check_process();
  if (auto *chacha = std::get_if<ChaCha20Stream>(&engine_)) {
    for (size_t i = 0; i < n; ++i) out[i] = chacha->next();
    return;
  }
  Pcg64 engine = *std::get_if<Pcg64>(&engine_);
  for (size_t i = 0; i < n; ++i) out[i] = engine();
  *std::get_if<Pcg64>(&engine_) = engine;
}

Rng Rng::from_entropy() {
  Key key{};
  auto *bytes = reinterpret_cast<unsigned char *>(key.data());
  size_t got = 0;
  while (got < sizeof(key)) {
    const ssize_t n = getrandom(bytes + got, sizeof(key) - got, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(Status::Entropy, "getrandom() failed: ", std::strerror(errno));
    }
    got += static_cast<size_t>(n);
  }
  return Rng(key, Engine::ChaCha20, false);
}

Rng Rng::from_seed(uint64_t seed, uint64_t stream) {
  Key key;
  key[0] = mix64(seed + kGolden);
  key[1] = mix64((key[0] ^ stream) + 2 * kGolden);
  key[2] = mix64(key[1] + 3 * kGolden);
  key[3] = mix64((key[2] ^ key[0]) + 4 * kGolden);
  return Rng(key, Engine::Pcg64, true);
}

Rng::Key Rng::substream_key(const Key &key, uint64_t index) {
  static_assert(crypto_kdf_KEYBYTES == 32 && crypto_kdf_CONTEXTBYTES == 8);
  static const char context[crypto_kdf_CONTEXTBYTES + 1] = "dpcovsub";
  ChaCha20Stream::KeyBytes master = key_bytes(key);
  unsigned char child_bytes[32];
  if (sodium_init() < 0 ||
      crypto_kdf_derive_from_key(child_bytes, sizeof(child_bytes), index, context,
                                 master.data()) != 0)
    fail(Status::Internal, "substream key derivation failed");
  Key child;
  for (size_t j = 0; j < 4; ++j) child[j] = get_u64(child_bytes + 8 * j);
  sodium_memzero(master.data(), master.size());
  sodium_memzero(child_bytes, sizeof(child_bytes));
  return child;
}

Rng Rng::substream(uint64_t index) const {
  return Rng(substream_key(key_, index), engine(), seed_fixed_);
}

void Rng::save_state(unsigned char *out) const {
  std::memset(out, 0, kStateBytes);
  put_u32(out, kStateMagic);
  put_u32(out + 4, kStateVersion);
  const auto *chacha = std::get_if<ChaCha20Stream>(&engine_);
  put_u64(out + 8, (seed_fixed_ ? kFlagSeedFixed : 0) | (chacha != nullptr ? kFlagChaCha20 : 0));
  for (size_t j = 0; j < 4; ++j) put_u64(out + 16 + 8 * j, key_[j]);
  if (chacha != nullptr) {
    put_u64(out + 48, chacha->position());
    return;
  }
  const Pcg64 &pcg = *std::get_if<Pcg64>(&engine_);
  put_u64(out + 48, high(pcg.raw_state()));
  put_u64(out + 56, low(pcg.raw_state()));
  put_u64(out + 64, high(pcg.raw_increment()));
  put_u64(out + 72, low(pcg.raw_increment()));
}

Rng Rng::restore_state(const unsigned char *in) {
  if (get_u32(in) != kStateMagic)
    fail(Status::InvalidArgument, "not a dpcov generator state (bad magic number)");
  const uint32_t version = get_u32(in + 4);
  if (version != 1 && version != kStateVersion)
    fail(Status::InvalidArgument, "generator state has format version ", version,
         ", this library reads versions 1 and ", kStateVersion);
  const uint64_t flags = get_u64(in + 8);
  const uint64_t known = version == 1 ? kFlagSeedFixed : kFlagSeedFixed | kFlagChaCha20;
  if ((flags & ~known) != 0)
    fail(Status::InvalidArgument, "generator state has unknown flags ", flags);
  const bool seed_fixed = (flags & kFlagSeedFixed) != 0;
  Key key;
  for (size_t j = 0; j < 4; ++j) key[j] = get_u64(in + 16 + 8 * j);
  if ((flags & kFlagChaCha20) != 0) {
    for (size_t b = 56; b < kStateBytes; ++b)
      if (in[b] != 0)
        fail(Status::InvalidArgument,
             "ChaCha20 generator state has nonzero padding (corrupted state)");
    return Rng(key, Engine::ChaCha20, seed_fixed, get_u64(in + 48));
  }
  const uint64_t inc_low = get_u64(in + 72);
  if ((inc_low & 1U) == 0)
    fail(Status::InvalidArgument, "generator state has an even increment (corrupted state)");
  // PCG64 comes only from a seed: its state restores as seeded whatever its flag says, so that no
  // release from it is recorded as drawn from an unpredictable generator.
  Rng rng(key, Engine::Pcg64, true);
  std::get_if<Pcg64>(&rng.engine_)->set_raw(join(get_u64(in + 48), get_u64(in + 56)),
                                            join(get_u64(in + 64), inc_low));
  return rng;
}

}  // namespace dpcov::random
