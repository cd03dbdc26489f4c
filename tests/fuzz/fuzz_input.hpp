// Typed values drawn from a libFuzzer input, and the invariants every target checks: canary-filled
// outputs unchanged on error; finite (and, for symmetric outputs, exactly symmetric) on success;
// the same seed gives the same output; result structs (Result) byte for byte unchanged on error,
// with a message. A violated invariant aborts, which libFuzzer reports.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

#include "../../capi/struct_size.hpp"
#include "dpcov.h"

namespace fuzz {

class Input {
 public:
  Input(const uint8_t *data, size_t size) : data_(data), size_(size) {}

  template <class T>
  T raw() {
    T value{};
    const size_t n = size_ < sizeof(T) ? size_ : sizeof(T);
    std::memcpy(&value, data_, n);
    data_ += n;
    size_ -= n;
    return value;
  }
  // An integer in [lo, hi].
  int64_t range(int64_t lo, int64_t hi) {
    const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
    const uint64_t r = span == 0 ? raw<uint64_t>() : raw<uint64_t>() % span;
    return static_cast<int64_t>(static_cast<uint64_t>(lo) + r);
  }
  // Mostly ordinary doubles (log-uniform over the whole range, both signs), sometimes any bit
  // pattern (NaN, infinities, subnormals) or an edge value.
  double number() {
    switch (raw<uint8_t>() % 8) {
      case 0: return raw<double>();
      case 1: {
        static const double edges[] = {0.0, -0.0, 1.0, -1.0, 0.5, 1e-300, 1e300,
                                       std::numeric_limits<double>::max(),
                                       std::numeric_limits<double>::denorm_min(),
                                       std::numeric_limits<double>::infinity(),
                                       std::numeric_limits<double>::quiet_NaN()};
        return edges[raw<uint8_t>() % (sizeof edges / sizeof edges[0])];
      }
      default: {
        const double mantissa = 1.0 + (raw<uint16_t>() / 65536.0);
        const int exponent = static_cast<int>(range(-320, 320));
        return (raw<uint8_t>() & 1 ? -1.0 : 1.0) * std::ldexp(mantissa, exponent);
      }
    }
  }
  // A positive number spread over the whole double range.
  double positive() { return std::fabs(number()); }
  bool empty() const { return size_ == 0; }
  size_t left() const { return size_; }

 private:
  const uint8_t *data_;
  size_t size_;
};

// A budget (epsilon, rho, a bound): mostly positive, sometimes anything.
inline double budget(Input &in) { return in.range(0, 3) == 0 ? in.number() : in.positive(); }
// A probability (delta, beta): mostly in [0, 1), sometimes anything.
inline double probability(Input &in) {
  return in.range(0, 3) == 0 ? in.number() : std::fmod(in.positive(), 1.0);
}

[[noreturn]] inline void violated(const char *what, const char *detail = "") {
  std::fprintf(stderr, "fuzz invariant violated: %s %s (%s)\n", what, detail,
               dpcov_last_error_message());
  std::abort();
}

inline void require(bool condition, const char *what) {
  if (!condition) violated(what);
}

constexpr double kCanary = -1234.5678;

inline std::vector<double> canaries(size_t n) { return std::vector<double>(n, kCanary); }

inline void unchanged(const std::vector<double> &out, const char *what) {
  for (double v : out)
    if (std::memcmp(&v, &kCanary, sizeof v) != 0) violated("output changed on error:", what);
}

inline void finite(const double *v, size_t n, const char *what) {
  for (size_t i = 0; i < n; ++i)
    if (!std::isfinite(v[i])) violated("non-finite output with DPCOV_OK:", what);
}

// d x d with leading dimension ld (row-major or column-major: the check is the same).
inline void symmetric(const double *v, int64_t d, int64_t ld, const char *what) {
  for (int64_t i = 0; i < d; ++i)
    for (int64_t j = 0; j < d; ++j) {
      const double a = v[i * ld + j], b = v[j * ld + i];
      if (!std::isfinite(a)) violated("non-finite output with DPCOV_OK:", what);
      if (std::memcmp(&a, &b, sizeof a) != 0) violated("asymmetric output:", what);
    }
}

// A status is one of the documented codes.
inline void known_status(dpcov_status s) {
  require(s <= 0 && s >= -17, "unknown status code");
  require(std::strlen(dpcov_status_string(s)) > 0, "empty status string");
}

// Every error carries a message (dpcov_last_error_message()).
inline void message_on_error(dpcov_status s, const char *what) {
  if (s != DPCOV_OK && std::strlen(dpcov_last_error_message()) == 0)
    violated("empty error message:", what);
}

// The generator's saved state, to tell whether a call drew from it.
inline std::vector<unsigned char> rng_state(const dpcov_rng *rng) {
  std::vector<unsigned char> state(dpcov_rng_state_size());
  require(dpcov_rng_state_save(rng, state.data(), state.size()) == DPCOV_OK, "rng state save");
  return state;
}

// A release that failed after drawing (its generator advanced) fails with a status that only
// comes after a draw, which the ledgers charge even without comparing generator states (the
// CLI's failed_after_draw, Python's charged_if_drawn): refused, numerical, no convergence, not
// positive definite.
inline void charged_if_drawn(dpcov_status s, const std::vector<unsigned char> &before,
                             const dpcov_rng *rng, const char *what) {
  if (s == DPCOV_OK || rng_state(rng) == before) return;
  if (s != DPCOV_E_REFUSED && s != DPCOV_E_NUMERICAL && s != DPCOV_E_NO_CONVERGENCE &&
      s != DPCOV_E_NOT_POSITIVE_DEFINITE)
    violated("failed after a draw with a status ledgers do not charge:", what);
}

constexpr unsigned char kFill = 0xA5;

// A result struct of type T inside a buffer 16 bytes longer, filled with kFill, whose
// struct_size is sizeof(T) mostly, sometimes smaller or larger; sometimes NULL. `first` is the
// smallest struct_size the library accepts (the end of the struct's first shipped version,
// docs/abi-policy.md, from the library's own table so that the two cannot drift apart): a program
// built against an older header passes a smaller struct, which the library fills up to its
// struct_size and never beyond.
template <class T>
struct Result {
  static_assert(dpcov::capi::kFirstShippedSize<T> > 0, "a result struct without a first shipped size");
  std::vector<unsigned char> buffer = std::vector<unsigned char>(sizeof(T) + 16, kFill);
  size_t declared = sizeof(T);
  size_t first;
  bool null = false;

  explicit Result(fuzz::Input &in) : first(dpcov::capi::kFirstShippedSize<T>) {
    null = in.range(0, 15) == 0;
    switch (in.range(0, 7)) {
      case 0: declared = static_cast<size_t>(in.range(0, sizeof(T) - 1)); break;
      case 1: declared = sizeof(T) + static_cast<size_t>(in.range(1, 16)); break;
      default: break;
    }
    std::memcpy(buffer.data(), &declared, sizeof declared);
  }
  T *get() { return null ? nullptr : reinterpret_cast<T *>(buffer.data()); }
  T value() const {
    T v;
    std::memcpy(&v, buffer.data(), sizeof v);
    return v;
  }
  // Every field was written (struct_size covers the whole struct).
  bool full() const { return declared >= sizeof(T); }
  // The library must accept it: not NULL, struct_size at least the first shipped version's.
  bool acceptable() const { return !null && declared >= first; }
  // The status is known; on error the buffer is unchanged and the message says why; on success
  // the struct_size was at least `first` and nothing beyond it (or beyond sizeof(T)) was written.
  bool check(dpcov_status s, const char *what) const {
    fuzz::known_status(s);
    if (null && s == DPCOV_OK) fuzz::violated("NULL result accepted:", what);
    if (s != DPCOV_OK) {
      message_on_error(s, what);
      for (size_t i = sizeof declared; i < buffer.size(); ++i)
        if (buffer[i] != kFill) fuzz::violated("output changed on error:", what);
      return false;
    }
    if (declared < first) fuzz::violated("a too small struct_size accepted:", what);
    const size_t written = std::max(sizeof declared, std::min(declared, sizeof(T)));
    for (size_t i = written; i < buffer.size(); ++i)
      if (buffer[i] != kFill) fuzz::violated("written beyond struct_size or the struct:", what);
    return true;
  }
};

}  // namespace fuzz
