// The unit-level audit of a mechanism without a tractable density (iev, kt_rank1: the whole
// iterative release), by the black-box audit (black_box.hpp) of two statistics of the release on
// the unit pair, as one report of the shape the exact audit gives, so that dpcov_audit_units()
// and `dpcov audit --unit-rows` answer for every mechanism with a unit proof.
#pragma once

#include "loss_audit.hpp"
#include "target.hpp"

namespace dpcov::audit {

// Black-box audits of `target` on `pair` by the top eigenvalue and by the alignment of the top
// eigenvector with the pair's change (a unit along one axis moves either), each at
// settings.alpha / 2 (so a release that keeps its claim is flagged with probability <=
// settings.alpha), settings.trials draws per dataset after a pilot of max(200, trials / 10). The
// report: findings kDeltaExceeded when either flags, forward.delta.lower the larger lower bound
// on delta, samples every draw made, detectable_delta the smaller. Throws Status::InvalidArgument
// for fewer than 10 trials and what the target throws.
AuditReport audit_units_black_box(const Target &target, const PairStatistics &pair,
                                  const Settings &settings);

}  // namespace dpcov::audit
