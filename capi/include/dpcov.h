/**
 * @file dpcov.h
 * @brief dpcov: differentially private second-moment and covariance matrices. Umbrella header.
 *
 * Include this header (or the individual `dpcov/<area>.h` headers) and link with
 * `pkg-config --cflags --libs dpcov`.
 */
#ifndef DPCOV_H
#define DPCOV_H

#include "dpcov/common.h"
#include "dpcov/gram.h"
#include "dpcov/rng.h"
#include "dpcov/sample.h"
#include "dpcov/receipt.h"
#include "dpcov/mechanism.h"
#include "dpcov/postprocess.h"
#include "dpcov/estimators.h"
#include "dpcov/audit.h"
#include "dpcov/sketch.h"
#include "dpcov/ols.h"
#include "dpcov/private_glasso.h"
#include "dpcov/coinpress.h"
#include "dpcov/adassp.h"
#include "dpcov/ledger.h"
#include "dpcov/dong_liang_yi.h"
#include "dpcov/column_bounds.h"
#include "dpcov/centring.h"
#include "dpcov/private_bound.h"
#include "dpcov/exact.h"
#include "dpcov/forecast.h"
#include "dpcov/plan.h"
#include "dpcov/row_passes.h"
#include "dpcov/unit_budget.h"

#endif /* DPCOV_H */
