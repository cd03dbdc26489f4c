// The fields that the C results of the per-step transcript audits share
// (core/audit/gaussian_transcript.hpp): dpcov_coinpress_mean_audit_result and
// dpcov_rows_exact_audit_result for CoinPress with t >= 2.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <utility>

#include "../core/audit/gaussian_transcript.hpp"
#include "../core/check.hpp"
#include "dpcov/audit.h"

namespace dpcov::capi {

// The verdict, findings, claim and statistics of `report` into `r` (each statistic from the
// direction where it is largest). A noise scale below the resolution of the release's arithmetic
// (a subnormal sigma at a huge rho) leaves the statistics infinite or NaN: no measurement, and no
// DPCOV_OK (DPCOV_E_NUMERICAL naming the field).
template <class Result, class Receipt>
void transcript_fields(const audit::TranscriptAuditReport<Receipt> &report, Result &r) {
  const audit::TranscriptDirection &f = report.forward, &b = report.backward;
  const audit::TranscriptDirection &worst_delta = b.delta.lower > f.delta.lower ? b : f;
  const audit::TranscriptDirection &worst_ks =
      b.ks / b.ks_threshold > f.ks / f.ks_threshold ? b : f;
  r.verdict = report.violation() ? DPCOV_AUDIT_VIOLATION : DPCOV_AUDIT_NO_VIOLATION_FOUND;
  // Either delta statistic (the claim's loss, or the two-sample bound against the claim's curve).
  const bool delta_flag = f.delta_flag || b.delta_flag || f.two_sample_flag || b.two_sample_flag;
  r.findings = (delta_flag ? DPCOV_AUDIT_FINDING_DELTA_EXCEEDED : 0) |
               ((f.pair_flag || b.pair_flag) ? DPCOV_AUDIT_FINDING_RHO_EXCEEDED : 0) |
               ((f.conformance_flag || b.conformance_flag) ? DPCOV_AUDIT_FINDING_SAMPLER_MISMATCH
                                                           : 0);
  r.rho = report.claim.rho;
  r.epsilon = report.claim.epsilon;
  r.delta = report.claim.delta;
  r.rho_lower = std::max(f.rho_lower, b.rho_lower);
  r.delta_estimate = worst_delta.delta.estimate;
  r.delta_lower = worst_delta.delta.lower;
  r.conformance_distance = worst_ks.ks;
  r.conformance_threshold = worst_ks.ks_threshold;
  r.alpha_per_test = report.alpha_per_test;
  r.detectable_delta = std::min(f.detectable_delta, b.detectable_delta);
  for (const auto &[name, value] : std::initializer_list<std::pair<const char *, double>>{
           {"rho_lower", r.rho_lower}, {"delta_estimate", r.delta_estimate},
           {"delta_lower", r.delta_lower}, {"conformance_distance", r.conformance_distance},
           {"epsilon", r.epsilon}, {"conformance_threshold", r.conformance_threshold}})
    check::finite_result(value, name);
}

}  // namespace dpcov::capi
