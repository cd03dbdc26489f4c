// The black-box audit (black_box.hpp) of the zCDP mechanisms that read the rows themselves rather
// than their Gram matrix: Dong-Liang-Yi Gauss, Separate, Adaptive and AdaptivePaper
// (mechanisms/dong_liang_yi.hpp) and CoinPress (mechanisms/coinpress.hpp). Their whole outputs
// have no tractable density (eigenvectors of a noisy matrix, a private clipping radius, iterated
// clipping), so the audit is black-box: the claim is the (epsilon, delta) of their rho-zCDP
// receipt, on the replace-one pair that maximises the change of the Gram matrix
// (row 0: s e_1 -> s e_2, the other rows on the sphere of radius s; s = r for Dong-Liang-Yi and
// s = sqrt(K) for CoinPress, so that the change is of the order of CoinPress's clipping radius of
// the whitened rows rather than far inside it).
#pragma once

#include <cstdint>

#include "black_box.hpp"
#include "datasets.hpp"
#include "loss_audit.hpp"
#include "target.hpp"

namespace dpcov::audit {

// The same values as dpcov_audit_rows_mechanism (dpcov/audit.h).
enum class RowsMechanism : int32_t {
  DlyGauss = 0,
  DlySeparate = 1,
  DlyAdaptive = 2,
  DlyAdaptivePaper = 3,
  Coinpress = 4,
};

// The enum for a C value; throws Status::InvalidArgument for an unknown one.
RowsMechanism rows_mechanism(int32_t value);

// The CLI id: dly_gauss, dly_separate, dly_adaptive, dly_adaptive_paper, coinpress.
const char *rows_mechanism_name(RowsMechanism mechanism);

struct RowsAuditRequest {
  RowsMechanism mechanism = RowsMechanism::DlyAdaptive;
  int64_t dim = 3;
  int64_t n = 20;
  double rho = 0.02;    // the claimed zCDP budget
  double delta = 1e-6;  // the delta of the claimed (epsilon, delta)
  double scale = 1.0;   // Dong-Liang-Yi: the row bound r; CoinPress: K of I <= Sigma <= K I
};

// Checks the request by the mechanism's plan: throws its statuses (Status::InvalidArgument,
// Status::NonFinite, Status::Dimension, Status::Numerical) for settings out of range.
void check_rows_request(const RowsAuditRequest &request);

struct RowsPair {
  DatasetPair rows;
  PairStatistics stats;  // Gram matrices of the rows (bound s)
};

// The norm s of the audited rows: the row bound r (Dong-Liang-Yi) or sqrt(K) (CoinPress).
double rows_audit_norm(const RowsAuditRequest &request);

// The audited pair (above), its rows drawn from Rng::from_seed(seed, 1).
RowsPair rows_audit_pair(const RowsAuditRequest &request, uint64_t seed);

// The target that releases from the rows of D or D' of `pair` (the audit hands it their Gram
// matrix, which identifies the dataset) with budget `rho_used`, writing n times the mechanism's
// estimate of X^T X / n, and claims the (epsilon, delta) of `claim.rho`. `pair` must outlive it.
// rho_used != claim.rho makes a miscalibrated variant, for tests of the audit.
Target rows_target(const RowsAuditRequest &claim, const RowsPair &pair, double rho_used);

// The black-box audit of the correct release on rows_audit_pair(request, settings.seed).
BlackBoxReport audit_rows_black_box(const RowsAuditRequest &request,
                                    const BlackBoxSettings &settings);

}  // namespace dpcov::audit
