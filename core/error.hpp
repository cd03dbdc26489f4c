// Errors raised inside the kernel. The C ABI turns each one into its status code and message.
#pragma once

#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace dpcov {

// The kernel's failure kinds. Their numbers equal the C ABI's status codes, which capi/ pins with
// static_asserts, so that the boundary converts with a cast and a code never changes meaning.
enum class Status : int32_t {
  Ok = 0,
  NullPointer = -1,
  InvalidArgument = -2,
  Dimension = -3,
  Layout = -4,
  NonFinite = -5,
  NormBound = -6,
  Precondition = -7,
  NotPositiveDefinite = -8,
  NotPrivate = -9,
  Refused = -10,
  NoConvergence = -11,
  Numerical = -12,
  Entropy = -13,
  TooLarge = -14,
  Incompatible = -15,
  BufferTooSmall = -16,
  NoMem = -17,
  Internal = -18,
};

// A failure the caller can act on: a status and a message naming the argument or precondition at
// fault.
class Error : public std::runtime_error {
 public:
  Error(Status status, const std::string &message)
      : std::runtime_error(message), status_(status) {}
  Status status() const noexcept { return status_; }

 private:
  Status status_;
};

// Concatenates its arguments with operator<< (doubles at full precision), for error messages.
template <class... Parts>
std::string concat(const Parts &...parts) {
  std::ostringstream out;
  out.precision(17);
  (out << ... << parts);
  return out.str();
}

template <class... Parts>
[[noreturn]] void fail(Status status, const Parts &...parts) {
  throw Error(status, concat(parts...));
}

// A failure caused by one row of the caller's chunk (non-finite, over the bound under reject): it
// carries the row's 0-based index in the chunk as data, so that a surface can name the user's own
// row without parsing the message.
// A row over its bound also carries the measure that was over it (the norm of x as
// rest 2^exponent, finite even above the largest double, or |y| for a label).
class RowError : public Error {
 public:
  struct Measure {
    double rest = 0.0;
    int exponent = 0;
    bool label = false;
  };
  RowError(Status status, int64_t row, Measure measure, const std::string &message)
      : Error(status, message), row_(row), measure_(measure) {}
  int64_t row() const noexcept { return row_; }
  Measure measure() const noexcept { return measure_; }

 private:
  int64_t row_;
  Measure measure_;
};

template <class... Parts>
[[noreturn]] void fail_row(Status status, int64_t row, const Parts &...parts) {
  throw RowError(status, row, {}, concat(parts...));
}

template <class... Parts>
[[noreturn]] void fail_row_over(int64_t row, RowError::Measure measure, const Parts &...parts) {
  throw RowError(Status::NormBound, row, measure, concat(parts...));
}

}  // namespace dpcov
