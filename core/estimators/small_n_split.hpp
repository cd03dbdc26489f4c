// Where the default AdaSSP fit drops its lambda_min step: from public values only (the plan, the
// public n, the level), the forecast at the most favourable design (rows on their bounds, fill 1)
// expects the released X'X~ too noisy for the bootstrap at n, so the small-n posterior answers;
// there the released lambda_min is 0 after its shift anyway (proofs/adassp.md, "Without the
// lambda_min step") and its share of mu^2 is better spent on X'X, X'y and y'y, which the
// posterior reads. The meat of robust intervals is not released there either (it needs the
// bootstrap's positive definite X'X~). Whether y'y is released at all is decided apart (the
// forecast of printed intervals), on the plan this decision gives.
#pragma once

#include "../mechanisms/adassp.hpp"

namespace dpcov::estimators {

struct SmallNSplit {
  bool without_lambda_min = false;  // fit with AdasspOptions::release_lambda_min = false
  double rows_for_bootstrap = 0.0;  // the forecast's n from which the bootstrap is expected
};

// The decision for a fit whose default plan is `plan` (joint calibration, lambda_min released;
// its data-independent fields suffice) at `rows` public rows: without the lambda_min step iff
// rows < the forecast's rows_for_intervals at fill 1. Throws Status::InvalidArgument for rows
// or level out of range or a plan without the lambda_min step or with the paper's constants,
// Status::Incompatible for a unit-level plan or one under add/remove neighbours (n is not public).
SmallNSplit decide_small_n_split(const mechanisms::AdasspReceipt &plan, double rows, double level);

}  // namespace dpcov::estimators
