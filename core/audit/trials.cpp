#include "trials.hpp"

#include "../check.hpp"
#include "../error.hpp"

namespace dpcov::audit {

void check_trials(int64_t trials, int64_t minimum, const char *name) {
  if (trials < minimum)
    fail(Status::InvalidArgument, name, " must be >= ", minimum, ", got ", trials);
  if (trials > kMaxTrials)
    fail(Status::InvalidArgument, name, " must be at most DPCOV_AUDIT_MAX_TRIALS = ", kMaxTrials,
         " (it bounds an audit's time and memory), got ", trials);
}

void check_pair_size(int64_t n, int64_t d) {
  // n runs of d doubles, d apart, plus d more: (n - 1) d + 2d = (n + 1) d, without forming n + 1.
  check::strided_extent_bytes(nullptr, n, 2 * d, d, sizeof(double), "the audit's pair of datasets");
}

}  // namespace dpcov::audit
