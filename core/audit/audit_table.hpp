// What the auditor needs of each Gram mechanism beyond the registry, keyed by registry id: the
// adversarial pairs of the standard audit table (standard_audit.hpp), and, for a mechanism whose
// law is not a registry noise law, the transforms of its claimed law and the probability that it
// refuses. It lives in the auditor because the auditor depends on the mechanisms, never the
// reverse; the test audit_table fails when a Gram mechanism of the registry has no row here.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "../matrix.hpp"
#include "../mechanisms/receipt.hpp"
#include "../mechanisms/request.hpp"
#include "black_box.hpp"
#include "datasets.hpp"
#include "target.hpp"

namespace dpcov::audit {

// One adversarial pair of the standard audit: the neighbour and data its calibration is tightest
// for, audited by the exact density, or black-box by a statistic where there is no density.
struct StandardCase {
  NeighbourKind neighbour = NeighbourKind::Random;
  DatasetKind data = DatasetKind::RandomRows;
  bool black_box = false;
  Statistic statistic = Statistic::TopEigenvalue;  // black box only
};

struct MechanismAudit {
  int32_t id = 0;  // a Gram mechanism's registry id
  // The standard audit's cases, the first case_count of them, in the order it runs them.
  std::array<StandardCase, 2> cases{};
  int32_t case_count = 1;
  // NoiseFamily::ClaimedLaw: appends the transforms of a release (not a refusal) planned as the
  // receipt at the statistic's n. nullptr where the registry's noise law is the claim, or where
  // no conformance test is available (the density audit still runs).
  void (*claimed_law)(const mechanisms::Receipt &, const Output &, ConstMatrixView gram,
                      std::vector<double> &uniforms) = nullptr;
  // ln P(refusal | G) of a mechanism that can refuse; nullptr for one that never does.
  double (*log_refusal)(ConstMatrixView gram, const mechanisms::Request &) = nullptr;
  // The n the standard audit runs at for a request (appended to the pair's label); nullptr: the
  // settings' n.
  int64_t (*standard_rows)(const mechanisms::Request &) = nullptr;

  std::span<const StandardCase> standard_cases() const {
    return std::span<const StandardCase>(cases.data(), static_cast<size_t>(case_count));
  }
};

// Every row, in the order of the standard audit table.
std::span<const MechanismAudit> audit_table();

// The row of a registry id, nullptr if none.
const MechanismAudit *find_audit(int32_t id);

// The n the standard audit runs `mechanism` at for `request` (its d, B, epsilon, delta and
// options): its row's standard_rows where it has one, where its behaviour changes with n, else
// request.n. The request is planned first, so that one the mechanism refuses fails as its plan
// does (a request whose lambda_min bound the audit takes from its pair: its arguments only).
int64_t standard_rows(mechanisms::MechanismId mechanism, const mechanisms::Request &request);

}  // namespace dpcov::audit
