// The kernel owns its enums, status codes and limits (core/ never includes the public headers); the
// C ABI converts with casts. These assertions pin each kernel value to the C one, so that neither
// side can change a number without the build failing.
#include <cstdint>

#include "../core/audit/datasets.hpp"
#include "../core/audit/trials.hpp"
#include "../core/check.hpp"
#include "../core/data/gram.hpp"
#include "../core/error.hpp"
#include "../core/matrix.hpp"
#include "../core/mechanisms/private_bound.hpp"
#include "../core/mechanisms/public_receipt.hpp"
#include "../core/mechanisms/receipt.hpp"
#include "../core/privacy/bound_step_budget.hpp"
#include "../core/privacy/inverse_gram_sensitivity.hpp"
#include "../core/privacy/ledger.hpp"
#include "../core/privacy/neighbour.hpp"
#include "dpcov.h"

namespace {

namespace audit = dpcov::audit;
namespace mech = dpcov::mechanisms;
namespace privacy = dpcov::privacy;

template <class Enum>
constexpr int32_t c_value(Enum value) {
  return static_cast<int32_t>(value);
}

}  // namespace

static_assert(c_value(dpcov::Status::Ok) == DPCOV_OK);
static_assert(c_value(dpcov::Status::NullPointer) == DPCOV_E_NULL_POINTER);
static_assert(c_value(dpcov::Status::InvalidArgument) == DPCOV_E_INVALID_ARGUMENT);
static_assert(c_value(dpcov::Status::Dimension) == DPCOV_E_DIMENSION);
static_assert(c_value(dpcov::Status::Layout) == DPCOV_E_LAYOUT);
static_assert(c_value(dpcov::Status::NonFinite) == DPCOV_E_NON_FINITE);
static_assert(c_value(dpcov::Status::NormBound) == DPCOV_E_NORM_BOUND);
static_assert(c_value(dpcov::Status::Precondition) == DPCOV_E_PRECONDITION);
static_assert(c_value(dpcov::Status::NotPositiveDefinite) == DPCOV_E_NOT_POSITIVE_DEFINITE);
static_assert(c_value(dpcov::Status::NotPrivate) == DPCOV_E_NOT_PRIVATE);
static_assert(c_value(dpcov::Status::Refused) == DPCOV_E_REFUSED);
static_assert(c_value(dpcov::Status::NoConvergence) == DPCOV_E_NO_CONVERGENCE);
static_assert(c_value(dpcov::Status::Numerical) == DPCOV_E_NUMERICAL);
static_assert(c_value(dpcov::Status::Entropy) == DPCOV_E_ENTROPY);
static_assert(c_value(dpcov::Status::TooLarge) == DPCOV_E_TOO_LARGE);
static_assert(c_value(dpcov::Status::Incompatible) == DPCOV_E_INCOMPATIBLE);
static_assert(c_value(dpcov::Status::BufferTooSmall) == DPCOV_E_BUFFER_TOO_SMALL);
static_assert(c_value(dpcov::Status::NoMem) == DPCOV_E_NOMEM);
static_assert(c_value(dpcov::Status::Internal) == DPCOV_E_INTERNAL);

static_assert(c_value(dpcov::Layout::RowMajor) == DPCOV_ROW_MAJOR);
static_assert(c_value(dpcov::Layout::ColMajor) == DPCOV_COL_MAJOR);

static_assert(c_value(dpcov::BoundPolicy::Clip) == DPCOV_BOUND_CLIP);
static_assert(c_value(dpcov::BoundPolicy::Reject) == DPCOV_BOUND_REJECT);
static_assert(c_value(dpcov::BoundPolicy::Drop) == DPCOV_BOUND_DROP);

static_assert(c_value(privacy::Neighbour::ReplaceOne) == DPCOV_NEIGHBOUR_REPLACE_ONE);
static_assert(c_value(privacy::Neighbour::AddRemove) == DPCOV_NEIGHBOUR_ADD_REMOVE);

static_assert(c_value(privacy::LambdaMinScope::Domain) == DPCOV_LAMBDA_MIN_DOMAIN);
static_assert(c_value(privacy::LambdaMinScope::Input) == DPCOV_LAMBDA_MIN_INPUT);

static_assert(c_value(privacy::Accounting::Basic) == DPCOV_ACCOUNTING_BASIC);
static_assert(c_value(privacy::Accounting::Zcdp) == DPCOV_ACCOUNTING_ZCDP);
static_assert(c_value(privacy::Accounting::Advanced) == DPCOV_ACCOUNTING_ADVANCED);

static_assert(c_value(mech::MechanismId::AnalyzeGauss) == DPCOV_MECHANISM_ANALYZE_GAUSS);
static_assert(c_value(mech::MechanismId::LaplaceSym) == DPCOV_MECHANISM_LAPLACE_SYM);
static_assert(c_value(mech::MechanismId::WishartAdditive) == DPCOV_MECHANISM_WISHART_ADDITIVE);
static_assert(c_value(mech::MechanismId::InverseGauss) == DPCOV_MECHANISM_INVERSE_GAUSS);
static_assert(c_value(mech::MechanismId::WishartJiang) == DPCOV_MECHANISM_WISHART_JIANG);
static_assert(c_value(mech::MechanismId::Iev) == DPCOV_MECHANISM_IEV);
static_assert(c_value(mech::MechanismId::KtRank1) == DPCOV_MECHANISM_KT_RANK1);
static_assert(c_value(mech::MechanismId::JlRidge) == DPCOV_MECHANISM_JL_RIDGE);
static_assert(c_value(mech::MechanismId::JlRidgeSigmaMin) == DPCOV_MECHANISM_JL_RIDGE_SIGMA_MIN);
static_assert(c_value(mech::MechanismId::InverseWishart) == DPCOV_MECHANISM_INVERSE_WISHART);
static_assert(c_value(mech::MechanismId::InverseWishartSigmaMin) ==
              DPCOV_MECHANISM_INVERSE_WISHART_SIGMA_MIN);
static_assert(c_value(mech::MechanismId::OlsJl) == DPCOV_MECHANISM_OLS_JL);
static_assert(c_value(mech::MechanismId::GlassoOutputWishart) ==
              DPCOV_MECHANISM_GLASSO_OUTPUT_WISHART);

static_assert(c_value(mech::Calibration::Default) == DPCOV_CALIBRATION_DEFAULT);
static_assert(c_value(mech::Calibration::AnalyticGaussian) == DPCOV_CALIBRATION_ANALYTIC_GAUSSIAN);
static_assert(c_value(mech::Calibration::ClassicalGaussian) ==
              DPCOV_CALIBRATION_CLASSICAL_GAUSSIAN);
static_assert(c_value(mech::Calibration::LaplaceUpperTriangle) ==
              DPCOV_CALIBRATION_LAPLACE_UPPER_TRIANGLE);
static_assert(c_value(mech::Calibration::LaplacePublished) == DPCOV_CALIBRATION_LAPLACE_PUBLISHED);
static_assert(c_value(mech::Calibration::Theorem) == DPCOV_CALIBRATION_THEOREM);
static_assert(c_value(mech::Calibration::BinghamPublished) == DPCOV_CALIBRATION_BINGHAM_PUBLISHED);
static_assert(c_value(mech::Calibration::BinghamSensitivity) ==
              DPCOV_CALIBRATION_BINGHAM_SENSITIVITY);

static_assert(c_value(mech::BudgetSplit::Default) == DPCOV_BUDGET_SPLIT_DEFAULT);
static_assert(c_value(mech::BudgetSplit::Uniform) == DPCOV_BUDGET_SPLIT_UNIFORM);
static_assert(c_value(mech::BudgetSplit::Adaptive) == DPCOV_BUDGET_SPLIT_ADAPTIVE);

static_assert(c_value(mech::SensitivityNorm::None) == DPCOV_SENSITIVITY_NONE);
static_assert(c_value(mech::SensitivityNorm::L1) == DPCOV_SENSITIVITY_L1);
static_assert(c_value(mech::SensitivityNorm::L2) == DPCOV_SENSITIVITY_L2);

static_assert(c_value(mech::Generator::None) == DPCOV_GENERATOR_NONE);
static_assert(c_value(mech::Generator::Pcg64) == DPCOV_GENERATOR_PCG64);
static_assert(c_value(mech::Generator::ChaCha20) == DPCOV_GENERATOR_CHACHA20);

static_assert(c_value(mech::Numerics::Idealized) == DPCOV_NUMERICS_IDEALIZED);
static_assert(c_value(mech::Numerics::Exact) == DPCOV_NUMERICS_EXACT);

static_assert(c_value(audit::DatasetKind::RandomRows) == DPCOV_AUDIT_DATA_RANDOM_ROWS);
static_assert(c_value(audit::DatasetKind::SphereRows) == DPCOV_AUDIT_DATA_SPHERE_ROWS);
static_assert(c_value(audit::DatasetKind::RepeatedRows) == DPCOV_AUDIT_DATA_REPEATED_ROWS);
static_assert(c_value(audit::DatasetKind::RankDeficient) == DPCOV_AUDIT_DATA_RANK_DEFICIENT);
static_assert(c_value(audit::DatasetKind::NearlySingular) == DPCOV_AUDIT_DATA_NEARLY_SINGULAR);
static_assert(c_value(audit::DatasetKind::TinyN) == DPCOV_AUDIT_DATA_TINY_N);

static_assert(c_value(audit::NeighbourKind::Random) == DPCOV_AUDIT_NEIGHBOUR_RANDOM);
static_assert(c_value(audit::NeighbourKind::MaxL2Change) == DPCOV_AUDIT_NEIGHBOUR_MAX_L2_CHANGE);
static_assert(c_value(audit::NeighbourKind::MaxL1Change) == DPCOV_AUDIT_NEIGHBOUR_MAX_L1_CHANGE);
static_assert(c_value(audit::NeighbourKind::LeastEigenvector) ==
              DPCOV_AUDIT_NEIGHBOUR_LEAST_EIGENVECTOR);
static_assert(privacy::kBoundStepShare == DPCOV_BOUND_STEP_SHARE);
static_assert(mech::kAutoBoundLow == DPCOV_AUTO_BOUND_LOW);
static_assert(mech::kAutoBoundHigh == DPCOV_AUTO_BOUND_HIGH);
static_assert(mech::kAutoBoundRatio == DPCOV_AUTO_BOUND_RATIO);
static_assert(mech::kAutoBoundQuantile == DPCOV_AUTO_BOUND_QUANTILE);
static_assert(mech::kPcaAutoBoundQuantile == DPCOV_PCA_AUTO_BOUND_QUANTILE);
static_assert(mech::kTightenSteps == DPCOV_TIGHTEN_STEPS);
static_assert(mech::kTightenRatio == DPCOV_TIGHTEN_RATIO);
static_assert(dpcov::check::kMaxEpsilon == DPCOV_MAX_EPSILON);
static_assert(dpcov::check::kMaxSimulationDraws == DPCOV_MAX_SIMULATION_DRAWS);
static_assert(dpcov::audit::kMaxTrials == DPCOV_AUDIT_MAX_TRIALS);
static_assert(dpcov::mechanisms::kNWithheld == DPCOV_RECEIPT_N_WITHHELD);
