// The number of draws an audit accepts, and the size of the pair it generates. An audit's time is its trials times a release's, and
// what it keeps grows with them, so an unbounded count would run for effectively unbounded time
// and end in an allocation failure or a signed overflow of the counts it forms from trials
// (2 (pilot + trials) samples, pairs x 2 trials, the checkpoints' doubling).
#pragma once

#include <cstdint>

#include <cstddef>


namespace dpcov::audit {

// 10^7 draws (the C ABI's DPCOV_AUDIT_MAX_TRIALS, pinned in capi/) per direction, or per dataset
// for a black-box audit: at most 2 x 10^7 releases per pair and, per trial, at most some 20 bytes
// kept (a black-box audit keeps each statistic of the pilot and the tests; the exact audits a loss
// and a projection per release, their conformance values capped), so about 250 MB; every count
// formed from it fits int64_t with room to spare.
inline constexpr int64_t kMaxTrials = 10000000;

// The standardised values a conformance test keeps per direction: the first ones drawn, still an
// iid sample under the claim, which bounds its memory at 16 MiB whatever the trials and sizes.
inline constexpr size_t kMaxConformanceValues = size_t{1} << 21;

// Throws Status::InvalidArgument naming `name` unless minimum <= trials <= kMaxTrials.
void check_trials(int64_t trials, int64_t minimum, const char *name);

// An audit generates its pair from a caller's n (>= 1) and d: throws Status::TooLarge unless the
// (n + 1) x d doubles of a dataset and its add/remove neighbour fit an array (the product,
// overflow-checked, at most PTRDIFF_MAX bytes). Unchecked, n = 2^62 at d = 4 wrapped the
// allocation to nothing and the rows were written past it.
void check_pair_size(int64_t n, int64_t d);

}  // namespace dpcov::audit
