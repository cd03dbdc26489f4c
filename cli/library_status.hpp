// Turning a failed libdpcov call into the command's exit code and message.
#pragma once

#include <string>

#include <dpcov.h>

namespace dpcov::cli {

// The exit code for a failed library call: invalid arguments are usage errors, data that breaks a
// precondition (non-finite, over the bound, wrong dimension, a result out of double's range, an
// iteration that does not converge) is an input error, a privacy precondition or a refusal is a
// privacy error; only what is not the caller's doing (a bug, memory, the entropy source, an
// argument the command itself got wrong) is internal. docs/error-model.md has the table.
int exit_code_for(dpcov_status status);

// As exit_code_for() for a call that reads no data (a plan, a conversion): a result it cannot
// compute means parameters out of range, a usage error.
int exit_code_for_parameters(dpcov_status status);

// Throws CliError: "<context>: <message> (<status name>)", the message being the library's last
// error message unless given.
[[noreturn]] void library_fail(dpcov_status status, const std::string &context);
[[noreturn]] void library_fail(dpcov_status status, const std::string &context,
                               const std::string &message);
// As library_fail() with exit_code_for_parameters().
[[noreturn]] void library_fail_parameters(dpcov_status status, const std::string &context,
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

// Calls library_fail_parameters unless status is DPCOV_OK: for calls that read no data.
inline void library_check_parameters(dpcov_status status, const std::string &context) {
  if (status != DPCOV_OK) library_fail_parameters(status, context, dpcov_last_error_message());
}

}  // namespace dpcov::cli
