#include "library_status.hpp"

#include "cli_error.hpp"

namespace dpcov::cli {

int exit_code_for(dpcov_status status) {
  switch (status) {
    case DPCOV_OK: return kExitOk;
    case DPCOV_E_INVALID_ARGUMENT: return kExitUsage;
    case DPCOV_E_DIMENSION:
    case DPCOV_E_NON_FINITE:
    case DPCOV_E_NORM_BOUND:
    case DPCOV_E_NOT_POSITIVE_DEFINITE:
    case DPCOV_E_TOO_LARGE:
    case DPCOV_E_INCOMPATIBLE: return kExitInputData;
    case DPCOV_E_PRECONDITION:
    case DPCOV_E_NOT_PRIVATE:
    case DPCOV_E_REFUSED: return kExitPrivacy;
    default: return kExitInternal;
  }
}

bool failed_after_draw(dpcov_status status) {
  return status == DPCOV_E_REFUSED || status == DPCOV_E_NUMERICAL ||
         status == DPCOV_E_NO_CONVERGENCE || status == DPCOV_E_NOT_POSITIVE_DEFINITE;
}

void library_fail(dpcov_status status, const std::string &context) {
  library_fail(status, context, dpcov_last_error_message());
}

void library_fail(dpcov_status status, const std::string &context, const std::string &message) {
  fail(exit_code_for(status), context, ": ", message, " (", dpcov_status_string(status), ")");
}

}  // namespace dpcov::cli
