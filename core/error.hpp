// Errors raised inside the kernel. The C ABI turns each one into its status code and message.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "dpcov/common.h"

namespace dpcov {

// A failure the caller can act on: a status code from dpcov/common.h and a message naming the
// argument or precondition at fault.
class Error : public std::runtime_error {
 public:
  Error(dpcov_status status, const std::string &message)
      : std::runtime_error(message), status_(status) {}
  dpcov_status status() const noexcept { return status_; }

 private:
  dpcov_status status_;
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
[[noreturn]] void fail(dpcov_status status, const Parts &...parts) {
  throw Error(status, concat(parts...));
}

}  // namespace dpcov
