// What a caller asks of a mechanism: the public facts about the data (d, n, B), the privacy
// parameters, and the options. Plans, releases and log-densities all take a Request, so that the
// constants behind each of them come from the same code.
#pragma once

#include <cstdint>

#include "../privacy/inverse_gram_sensitivity.hpp"
#include "../privacy/neighbour.hpp"
#include "receipt.hpp"

namespace dpcov::mechanisms {

struct Options {
  privacy::Neighbour neighbour = privacy::Neighbour::ReplaceOne;
  // Calibration::Default picks the mechanism's default.
  Calibration calibration = Calibration::Default;
  // Inverse Gauss only (required there): the public bound theta^2 <= lambda_min(G), and what it
  // covers. Must stay 0 / Domain for every other mechanism.
  double lambda_min_bound = 0.0;
  privacy::LambdaMinScope lambda_min_scope = privacy::LambdaMinScope::Domain;
  // Wishart (Jiang) and graphical-lasso output perturbation only: the explicit acknowledgement
  // that the mechanism is not private and runs as an audit target. Must stay false for every other
  // mechanism.
  bool audit_only_not_private = false;
  // IEV and KT only (eigenvector_sampling.hpp): the budget split, the adaptive split's beta (0: the
  // default 0.05) and the number k of top eigenpairs released (0: all d). Must stay Default / 0 for
  // every other mechanism.
  BudgetSplit budget_split = BudgetSplit::Default;
  double beta = 0.0;
  int64_t rank = 0;
  // Johnson-Lindenstrauss ridge (both variants) and OLS by projection only, required there: r,
  // the rows of the Gaussian projection, >= 1. Must stay 0 for every other mechanism.
  int64_t projection_rows = 0;
  // Inverse-Wishart posterior (both variants) only, required there: the integer degrees of
  // freedom m >= d. Must stay 0 for every other mechanism.
  int64_t posterior_dof = 0;
  // Graphical-lasso output perturbation only, required there: the public penalty rho > 0 of the
  // graphical lasso it perturbs (on the scale of G / n). Must stay 0 for every other mechanism.
  double glasso_rho = 0.0;
};

struct Request {
  int64_t dim = 0;     // d
  int64_t n = 0;       // number of rows, >= 0
  double bound = 0.0;  // B, finite and > 0
  double epsilon = 0.0;
  double delta = 0.0;  // in (0, 1); pure-epsilon mechanisms also accept 0 and spend none
  Options options;
  // The analytic Gaussian's sigma per unit of sensitivity at (epsilon, delta), when a plan of the
  // same (epsilon, delta) already computed it (plan_at_bound); 0: calibrated by the plan. Set by
  // the library only, never from a caller's parameters.
  double analytic_unit_sigma = 0.0;
};

// Whether a mechanism spends delta.
enum class DeltaUse { Pure, Approximate };

// Checks d, n, B, epsilon and delta (as DeltaUse says) and returns a receipt holding them, the
// mechanism id and the neighbour relation; delta is recorded as 0 for pure mechanisms. Throws the
// status of the first argument out of range, with a message naming it.
// The smallest B at which a mechanism on the Gram releases, 2^-500 (B^2 = 2^-1000). A product of a
// row's entries that is subnormal rounds by up to 2^-1075 absolutely; from B^2 = 2^-1000 on that is
// below 2^-75 B^2, under the relative rounding of the normal range. Below B = 2^-511 the Gram's
// entries are themselves subnormal and that rounding reaches B^2: at d = 3, the row with entries
// sqrt(0.5000001) 2^-537 moves the computed upper triangle by 2.45 2^-1074, over the
// sensitivity B^2 rounded up, 2 2^-1074 (proofs/analyze_gauss.md, "Small bounds"). Every
// mechanism here perturbs or samples from that computed Gram.
inline constexpr double kSmallestGramBound = 0x1p-500;

Receipt base_receipt(MechanismId mechanism, const Request &request, DeltaUse delta_use);

// Throws Status::InvalidArgument if an option that only applies to other mechanisms is set.
void check_options_apply(MechanismId mechanism, const Options &options);

// Throws Status::InvalidArgument: `calibration` does not apply to `mechanism`.
[[noreturn]] void fail_calibration(MechanismId mechanism, Calibration calibration);

const char *mechanism_name(MechanismId mechanism);

}  // namespace dpcov::mechanisms
