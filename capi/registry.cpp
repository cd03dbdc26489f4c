// C ABI of the mechanism registry (dpcov/mechanism.h): the kernel's table, entry by entry.
#include "dpcov/mechanism.h"

#include "../core/audit/audit_table.hpp"
#include "../core/mechanisms/registry.hpp"
#include "guard.hpp"
#include "struct_size.hpp"

namespace {

namespace mech = dpcov::mechanisms;

// The core's numbers are the ABI's: one table, two spellings.
static_assert(mech::kAdasspId == DPCOV_MECHANISM_ADASSP);
static_assert(mech::kDongLiangYiId == DPCOV_MECHANISM_DLY);
static_assert(mech::kCoinpressId == DPCOV_MECHANISM_COINPRESS);
static_assert(mech::kCoinpressMeanId == DPCOV_MECHANISM_COINPRESS_MEAN);
static_assert(mech::kPrivateBoundId == DPCOV_MECHANISM_PRIVATE_BOUND);
static_assert(static_cast<int32_t>(mech::Family::Gram) == DPCOV_MECHANISM_FAMILY_GRAM);
static_assert(static_cast<int32_t>(mech::Family::Bound) == DPCOV_MECHANISM_FAMILY_BOUND);
static_assert(static_cast<int32_t>(mech::PrivacyModel::NotPrivate) ==
              DPCOV_MECHANISM_PRIVACY_NOT_PRIVATE);
static_assert(static_cast<int32_t>(mech::Input::Rows) == DPCOV_MECHANISM_INPUT_ROWS);
static_assert(static_cast<int32_t>(mech::Output::Scalar) == DPCOV_MECHANISM_OUTPUT_SCALAR);
static_assert(mech::kReplaceOne == DPCOV_MECHANISM_NEIGHBOURS_REPLACE_ONE &&
              mech::kAddRemove == DPCOV_MECHANISM_NEIGHBOURS_ADD_REMOVE);
static_assert(mech::kIdealized == DPCOV_MECHANISM_NUMERICS_IDEALIZED &&
              mech::kExact == DPCOV_MECHANISM_NUMERICS_EXACT);
static_assert(mech::kOptionLambdaMin == DPCOV_MECHANISM_OPTION_LAMBDA_MIN &&
              mech::kOptionSpectral == DPCOV_MECHANISM_OPTION_SPECTRAL &&
              mech::kOptionProjectionRows == DPCOV_MECHANISM_OPTION_PROJECTION_ROWS &&
              mech::kOptionPosteriorDof == DPCOV_MECHANISM_OPTION_POSTERIOR_DOF &&
              mech::kOptionAuditUnlock == DPCOV_MECHANISM_OPTION_AUDIT_UNLOCK &&
              mech::kOptionGlassoRho == DPCOV_MECHANISM_OPTION_GLASSO_RHO &&
              mech::kOptionCalibration == DPCOV_MECHANISM_OPTION_CALIBRATION);
static_assert(mech::kInferenceProjectionT == DPCOV_MECHANISM_INFERENCE_PROJECTION_T &&
              mech::kInferenceGuaranteedGauss == DPCOV_MECHANISM_INFERENCE_GUARANTEED_GAUSS &&
              mech::kInferenceRobustGram == DPCOV_MECHANISM_INFERENCE_ROBUST_GRAM);

void write_entry(const mech::RegistryEntry &e, dpcov_mechanism_entry *out) {
  dpcov_mechanism_entry info{};
  info.id = e.id;
  info.family = static_cast<int32_t>(e.family);
  info.privacy_model = static_cast<int32_t>(e.privacy);
  info.neighbours = e.neighbours;
  info.numerics = e.numerics;
  info.input = static_cast<int32_t>(e.input);
  info.output = static_cast<int32_t>(e.output);
  info.name = e.name;
  info.theorem = e.theorem;
  info.exact_theorem = e.exact_theorem;
  info.proof = e.proof;
  info.header = e.header;
  info.unit_proof = e.unit_proof;
  info.options = e.options;
  info.audit_dataset = -1;
  info.audit_neighbour_kind = -1;
  const dpcov::audit::MechanismAudit *audit = dpcov::audit::find_audit(e.id);
  if (audit != nullptr && !audit->standard_cases().front().black_box) {
    info.audit_dataset = static_cast<int32_t>(audit->standard_cases().front().data);
    info.audit_neighbour_kind = static_cast<int32_t>(audit->standard_cases().front().neighbour);
  }
  info.summary = e.summary;
  info.preconditions = e.preconditions;
  info.inference = e.inference;
  info.unit_refusal = e.unit_refusal;
  dpcov::capi::write_struct(out, info);
}

}  // namespace

extern "C" {

DPCOV_API int32_t dpcov_mechanism_count(void) {
  return static_cast<int32_t>(mech::registry().size());
}

DPCOV_API dpcov_status dpcov_mechanism_info(int32_t index, dpcov_mechanism_entry *out) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::struct_bytes(out, "out");
    const auto entries = mech::registry();
    if (index < 0 || static_cast<size_t>(index) >= entries.size())
      dpcov::fail(dpcov::Status::InvalidArgument, "index must be in [0, ", entries.size(), "), got ",
                  index);
    write_entry(entries[static_cast<size_t>(index)], out);
  });
}

DPCOV_API dpcov_status dpcov_mechanism_info_by_id(int32_t mechanism,
                                                  dpcov_mechanism_entry *out) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::struct_bytes(out, "out");
    write_entry(mech::entry_of(mechanism), out);
  });
}

}  // extern "C"
