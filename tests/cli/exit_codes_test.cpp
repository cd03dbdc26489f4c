// Every library status maps to the exit code docs/error-model.md gives it: the caller's conditions
// to 1, 2 or 3, and 4 ("internal, not the caller's fault") only to what the caller cannot cause.
// DPCOV_E_NUMERICAL and DPCOV_E_NO_CONVERGENCE were 4, so `plan -e 1e-300 -d 1e-300` and `pca`
// on a matrix whose eigenvalue overflows ended "internal"; tests/cli/robustness_test.py runs both.
#include <gtest/gtest.h>

#include <map>

#include "cli_error.hpp"
#include "library_status.hpp"

namespace dpcov::cli {
namespace {

struct Expected {
  int with_data;
  int parameters_only;
};

// The table of docs/error-model.md ("`dpcov` exit" column).
const std::map<dpcov_status, Expected> kTable = {
    {DPCOV_OK, {kExitOk, kExitOk}},
    {DPCOV_E_NULL_POINTER, {kExitInternal, kExitInternal}},
    {DPCOV_E_INVALID_ARGUMENT, {kExitUsage, kExitUsage}},
    {DPCOV_E_DIMENSION, {kExitInputData, kExitInputData}},
    {DPCOV_E_LAYOUT, {kExitInternal, kExitInternal}},
    {DPCOV_E_NON_FINITE, {kExitInputData, kExitUsage}},
    {DPCOV_E_NORM_BOUND, {kExitInputData, kExitInputData}},
    {DPCOV_E_PRECONDITION, {kExitPrivacy, kExitPrivacy}},
    {DPCOV_E_NOT_POSITIVE_DEFINITE, {kExitInputData, kExitInputData}},
    {DPCOV_E_NOT_PRIVATE, {kExitPrivacy, kExitPrivacy}},
    {DPCOV_E_REFUSED, {kExitPrivacy, kExitPrivacy}},
    {DPCOV_E_NO_CONVERGENCE, {kExitInputData, kExitUsage}},
    {DPCOV_E_NUMERICAL, {kExitInputData, kExitUsage}},
    {DPCOV_E_ENTROPY, {kExitInternal, kExitInternal}},
    {DPCOV_E_TOO_LARGE, {kExitInputData, kExitInputData}},
    {DPCOV_E_INCOMPATIBLE, {kExitInputData, kExitInputData}},
    {DPCOV_E_BUFFER_TOO_SMALL, {kExitInternal, kExitInternal}},
    {DPCOV_E_NOMEM, {kExitInternal, kExitInternal}},
    {DPCOV_E_INTERNAL, {kExitInternal, kExitInternal}},
};

TEST(ExitCodes, EveryStatusMapsToItsDocumentedCode) {
  for (dpcov_status s = DPCOV_E_INTERNAL; s <= DPCOV_OK; ++s) {
    const auto row = kTable.find(s);
    ASSERT_NE(row, kTable.end()) << "status " << s << " (" << dpcov_status_string(s)
                                 << ") has no row: add it to the table and the docs";
    EXPECT_EQ(exit_code_for(s), row->second.with_data) << dpcov_status_string(s);
    EXPECT_EQ(exit_code_for_parameters(s), row->second.parameters_only) << dpcov_status_string(s);
  }
}

// The statuses a caller's values can cause (an argument, the data, a privacy precondition) never
// end the command as "internal".
TEST(ExitCodes, CallerConditionsAreNeverInternal) {
  for (const dpcov_status s :
       {DPCOV_E_INVALID_ARGUMENT, DPCOV_E_DIMENSION, DPCOV_E_NON_FINITE, DPCOV_E_NORM_BOUND,
        DPCOV_E_PRECONDITION, DPCOV_E_NOT_POSITIVE_DEFINITE, DPCOV_E_NOT_PRIVATE, DPCOV_E_REFUSED,
        DPCOV_E_NO_CONVERGENCE, DPCOV_E_NUMERICAL, DPCOV_E_TOO_LARGE, DPCOV_E_INCOMPATIBLE}) {
    EXPECT_NE(exit_code_for(s), kExitInternal) << dpcov_status_string(s);
    EXPECT_NE(exit_code_for_parameters(s), kExitInternal) << dpcov_status_string(s);
  }
}

}  // namespace
}  // namespace dpcov::cli
