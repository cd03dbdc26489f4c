// Accuracy measures of a private estimate against the exact quantity, shared by the C API, the
// command-line tool and the documentation's tables.
#pragma once

#include <cstdint>

#include "../matrix.hpp"

namespace dpcov::estimators {

// ||A - B||_F, divided by ||B||_F when `relative` (B must then be nonzero). Any shape, equal for
// A and B.
double frobenius_error(ConstMatrixView a, ConstMatrixView b, bool relative);
// ||A - B||_2 (largest singular value), divided by ||B||_2 when `relative`.
double spectral_error(ConstMatrixView a, ConstMatrixView b, bool relative);
// ||a - b||_2 of two vectors of length n (e.g. regression coefficients), divided by ||b||_2 when
// `relative`.
double vector_error(const double *a, const double *b, int64_t n, bool relative);

// Edge recovery of an estimated precision matrix against the true one: an edge is an off-diagonal
// pair i < j with |Theta_ij| > threshold, in either matrix.
struct SupportRecovery {
  int64_t true_positives = 0;
  int64_t false_positives = 0;
  int64_t false_negatives = 0;
  int64_t true_negatives = 0;
  double precision = 1.0;  // TP / (TP + FP); 1 when the estimate has no edge (nothing was wrong)
  double recall = 1.0;     // TP / (TP + FN); 1 when the truth has no edge (nothing was missed)
};
SupportRecovery support_recovery(ConstMatrixView estimate, ConstMatrixView truth, double threshold);

}  // namespace dpcov::estimators
