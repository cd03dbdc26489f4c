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
    case DPCOV_E_INCOMPATIBLE:
    // A result out of double's range, or an iteration that does not settle, on what the caller
    // gave (an eigenvalue that overflows, a graphical lasso at too small a rho): not a fault of
    // the library, which checked its own arithmetic.
    case DPCOV_E_NUMERICAL:
    case DPCOV_E_NO_CONVERGENCE: return kExitInputData;
    case DPCOV_E_PRECONDITION:
    case DPCOV_E_NOT_PRIVATE:
    case DPCOV_E_REFUSED: return kExitPrivacy;
    default: return kExitInternal;
  }
}

int exit_code_for_parameters(dpcov_status status) {
  // A call that reads no data was given a NaN on the command line (--delta nan): a usage error,
  // as --epsilon nan is.
  if (status == DPCOV_E_NUMERICAL || status == DPCOV_E_NO_CONVERGENCE ||
      status == DPCOV_E_NON_FINITE)
    return kExitUsage;
  return exit_code_for(status);
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

void library_fail_parameters(dpcov_status status, const std::string &context,
                             const std::string &message) {
  fail(exit_code_for_parameters(status), context, ": ", message, " (",
       dpcov_status_string(status), ")");
}

}  // namespace dpcov::cli
