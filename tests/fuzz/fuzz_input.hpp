// Typed values drawn from a libFuzzer input, and the invariants every target checks: canary-filled
// outputs unchanged on error; finite (and, for symmetric outputs, exactly symmetric) on success;
// the same seed gives the same output. A violated invariant aborts, which libFuzzer reports.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

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

}  // namespace fuzz
