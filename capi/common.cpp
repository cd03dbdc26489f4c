// Status names, the thread-local error message and the version queries.
#include <new>
#include <string>

#include "../core/error.hpp"
#include "guard.hpp"

namespace dpcov::capi {

// Not in an anonymous namespace: dpcov_last_error_message() below reads it.
thread_local std::string last_error;

dpcov_status set_error(dpcov_status status, const std::string &message) noexcept {
  try {
    last_error = message;
  } catch (...) {
    // Out of memory while recording the message: keep the status, drop the detail.
    last_error.clear();
  }
  return status;
}

dpcov_status translate_current_exception() noexcept {
  try {
    throw;
  } catch (const Error &e) {
    return set_error(static_cast<dpcov_status>(e.status()), e.what());
  } catch (const std::bad_alloc &) {
    return set_error(DPCOV_E_NOMEM, "out of memory");
  } catch (const std::exception &e) {
    return set_error(DPCOV_E_INTERNAL, std::string("internal error: ") + e.what());
  } catch (...) {
    return set_error(DPCOV_E_INTERNAL, "internal error: unknown exception");
  }
}

}  // namespace dpcov::capi

extern "C" {

DPCOV_API const char *dpcov_status_string(dpcov_status status) {
  switch (status) {
    case DPCOV_OK: return "DPCOV_OK";
    case DPCOV_E_NULL_POINTER: return "DPCOV_E_NULL_POINTER";
    case DPCOV_E_INVALID_ARGUMENT: return "DPCOV_E_INVALID_ARGUMENT";
    case DPCOV_E_DIMENSION: return "DPCOV_E_DIMENSION";
    case DPCOV_E_LAYOUT: return "DPCOV_E_LAYOUT";
    case DPCOV_E_NON_FINITE: return "DPCOV_E_NON_FINITE";
    case DPCOV_E_NORM_BOUND: return "DPCOV_E_NORM_BOUND";
    case DPCOV_E_PRECONDITION: return "DPCOV_E_PRECONDITION";
    case DPCOV_E_NOT_POSITIVE_DEFINITE: return "DPCOV_E_NOT_POSITIVE_DEFINITE";
    case DPCOV_E_NOT_PRIVATE: return "DPCOV_E_NOT_PRIVATE";
    case DPCOV_E_REFUSED: return "DPCOV_E_REFUSED";
    case DPCOV_E_NO_CONVERGENCE: return "DPCOV_E_NO_CONVERGENCE";
    case DPCOV_E_NUMERICAL: return "DPCOV_E_NUMERICAL";
    case DPCOV_E_ENTROPY: return "DPCOV_E_ENTROPY";
    case DPCOV_E_TOO_LARGE: return "DPCOV_E_TOO_LARGE";
    case DPCOV_E_INCOMPATIBLE: return "DPCOV_E_INCOMPATIBLE";
    case DPCOV_E_BUFFER_TOO_SMALL: return "DPCOV_E_BUFFER_TOO_SMALL";
    case DPCOV_E_NOMEM: return "DPCOV_E_NOMEM";
    case DPCOV_E_INTERNAL: return "DPCOV_E_INTERNAL";
    default: return "DPCOV_E_UNKNOWN";
  }
}

DPCOV_API const char *dpcov_last_error_message(void) {
  return dpcov::capi::last_error.c_str();
}

DPCOV_API int32_t dpcov_version_number(void) { return DPCOV_VERSION_NUMBER; }

DPCOV_API const char *dpcov_version_string(void) { return DPCOV_VERSION_STRING; }

}  // extern "C"
