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

// Whether `status` is one that a release can only return after its first draw: a refusal or a
// numerical failure (a result that overflows, is not positive definite, does not converge); a bad
// argument is found by the checks before it (the release's plan runs them first). The ledger
// charges a failed release when its generator advanced (release_check's DrawWitness); this list
// is a second guard that charges these statuses even if a release had failed without committing
// its draws to the caller's generator (a function working on a copy of it, as the bootstrap
// intervals do), so a data-dependent failure is never free. As the Python binding's
// charged_if_drawn decides.
bool failed_after_draw(dpcov_status status);

// Calls library_fail unless status is DPCOV_OK.
inline void library_check(dpcov_status status, const std::string &context) {
  if (status != DPCOV_OK) library_fail(status, context);
}

}  // namespace dpcov::cli
