#include "trials.hpp"

#include "../error.hpp"

namespace dpcov::audit {

void check_trials(int64_t trials, int64_t minimum, const char *name) {
  if (trials < minimum)
    fail(DPCOV_E_INVALID_ARGUMENT, name, " must be >= ", minimum, ", got ", trials);
  if (trials > kMaxTrials)
    fail(DPCOV_E_INVALID_ARGUMENT, name, " must be at most DPCOV_AUDIT_MAX_TRIALS = ", kMaxTrials,
         " (it bounds an audit's time and memory), got ", trials);
}

}  // namespace dpcov::audit
