// The single way a C entry point runs kernel code: exceptions become status codes and the
// thread's last error message; nothing escapes across the ABI.
#pragma once

#include <string>

#include "dpcov/common.h"

namespace dpcov::capi {

// Records `message` as this thread's last error and returns `status`.
dpcov_status set_error(dpcov_status status, const std::string &message) noexcept;

// Runs body() (which returns void) and maps any exception: dpcov::Error to its own status,
// std::bad_alloc to DPCOV_E_NOMEM, anything else to DPCOV_E_INTERNAL.
dpcov_status translate_current_exception() noexcept;

template <class Body>
dpcov_status guarded(Body &&body) noexcept {
  try {
    body();
    return DPCOV_OK;
  } catch (...) {
    return translate_current_exception();
  }
}

}  // namespace dpcov::capi
