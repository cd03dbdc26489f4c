// Turning a failed libdpcov call into the command's exit code and message.
#pragma once

#include <string>

#include <dpcov.h>

namespace dpcov::cli {

// The exit code for a failed library call: invalid arguments are usage errors, data that breaks a
// precondition (non-finite, over the bound, wrong dimension) is an input error, a privacy
// precondition or a refusal is a privacy error, anything else is internal.
int exit_code_for(dpcov_status status);

// Throws CliError: "<context>: <message> (<status name>)", the message being the library's last
// error message unless given.
[[noreturn]] void library_fail(dpcov_status status, const std::string &context);
[[noreturn]] void library_fail(dpcov_status status, const std::string &context,
                               const std::string &message);

// Whether a release that failed with `status` had drawn noise already: a refusal or a numerical
// failure (a result that overflows, is not positive definite, does not converge) can only come
// after the release's first draw; a bad argument is found by the checks before it (the release's
// plan runs them first). As the Python binding's charged_if_drawn decides.
bool failed_after_draw(dpcov_status status);

// Calls library_fail unless status is DPCOV_OK.
inline void library_check(dpcov_status status, const std::string &context) {
  if (status != DPCOV_OK) library_fail(status, context);
}

}  // namespace dpcov::cli
