// The one table of every mechanism the library releases: what each is (family, privacy model,
// neighbour relations, numerics, input, output) and the theorem its receipts carry. The C ABI
// (dpcov_mechanism_info), the command line and the bindings read it; a property of a mechanism
// is looked up here rather than switched on.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "receipt.hpp"

namespace dpcov::mechanisms {

// The ids of the mechanisms that do not take a Gram matrix: their numbers are part of the ABI
// (dpcov_mechanism_id) and never change.
inline constexpr int32_t kAdasspId = 20;
inline constexpr int32_t kDongLiangYiId = 21;
inline constexpr int32_t kCoinpressId = 22;
inline constexpr int32_t kCoinpressMeanId = 23;
inline constexpr int32_t kPrivateBoundId = 24;

enum class Family : int32_t { Gram = 1, RowsZcdp = 2, Regression = 3, Bound = 4 };
enum class PrivacyModel : int32_t { Pure = 1, Approximate = 2, Zcdp = 3, NotPrivate = 4 };
enum class Input : int32_t { Gram = 1, Rows = 2 };
enum class Output : int32_t { Matrix = 1, Regression = 2, Vector = 3, Scalar = 4 };

// Bit sets: the neighbour relations a mechanism's guarantee is stated for, and the numerics it
// can release with.
inline constexpr int32_t kReplaceOne = 1;
inline constexpr int32_t kAddRemove = 2;
inline constexpr int32_t kBothRelations = kReplaceOne | kAddRemove;
inline constexpr int32_t kIdealized = 1;
inline constexpr int32_t kExact = 2;

// The law of the noise a Gram mechanism adds to a matrix, read with the receipt's constants:
// SymmetricGaussian N(0, sigma^2) and SymmetricLaplace Laplace(scale) iid on the upper triangle,
// Wishart W_d(dof, scale I). None: the release is not a matrix plus independent noise of a known
// law (a projection, a posterior sample, a spectral release, a test before the draw).
enum class NoiseKind : int32_t {
  None = 0,
  SymmetricGaussian = 1,
  SymmetricLaplace = 2,
  Wishart = 3
};
// What the noise is added to.
enum class NoiseBase : int32_t { Gram = 0, InverseGram = 1 };
struct NoiseLaw {
  NoiseKind kind = NoiseKind::None;
  NoiseBase base = NoiseBase::Gram;
};

// How the Wang-Huai-Xu private graphical lasso (private_glasso.hpp) uses a mechanism: its release
// is the perturbed covariance (Alg. 2), it perturbs the precision matrix itself (Alg. 1), or it is
// not part of that pipeline.
enum class GlassoPerturbation : int32_t { Unsupported = 0, Covariance = 1, Output = 2 };

// Bit set (the C ABI's dpcov_mechanism_option, pinned in capi/registry.cpp): the
// mechanism-specific members of Options (request.hpp) a mechanism reads. Every other
// one must stay at its default, so that a request never carries a setting that is silently ignored.
inline constexpr int32_t kOptionLambdaMin = 1;       // lambda_min_bound, lambda_min_scope
inline constexpr int32_t kOptionSpectral = 2;        // budget_split, beta, rank
inline constexpr int32_t kOptionProjectionRows = 4;  // projection_rows
inline constexpr int32_t kOptionPosteriorDof = 8;    // posterior_dof
inline constexpr int32_t kOptionAuditUnlock = 16;    // audit_only_not_private
inline constexpr int32_t kOptionGlassoRho = 32;      // glasso_rho
// calibration other than Default and Theorem: a mechanism with a choice of calibrations.
inline constexpr int32_t kOptionCalibration = 64;

// Bit set (the C ABI's dpcov_mechanism_inference, pinned in capi/registry.cpp): the inference a
// release supports beyond noise-aware post-processing. kInferenceProjectionT: S^T S / r of an
// r-row projection with no regulariser, on which least squares has exact t-tests with r - p
// degrees of freedom (Sheffet 2017, Alg. 1). kInferenceGuaranteedGauss: G + symmetric Gaussian of
// the receipt's sigma, whose regression intervals ols_analyze_gauss.hpp guarantees.
// kInferenceRobustGram: G plus independent noise of a known law added by a private mechanism,
// which the bootstrap and robust (sandwich) intervals of its regression redraw
// (release_noise.hpp): the one list of the mechanisms those intervals are offered for.
inline constexpr int32_t kInferenceProjectionT = 1;
inline constexpr int32_t kInferenceGuaranteedGauss = 2;
inline constexpr int32_t kInferenceRobustGram = 4;

struct RegistryEntry {
  int32_t id;
  const char *name;
  Family family;
  PrivacyModel privacy;
  int32_t neighbours;
  int32_t numerics;
  Input input;
  Output output;
  // Paper, theorem and proof file of the default calibration: the wording receipts carry.
  const char *theorem;
  // The same for the floating-point-safe numerics (kExact), "" for a mechanism without them.
  const char *exact_theorem;
  const char *proof;   // relative to the repository root
  const char *header;  // the public header that documents the entry points
  // One line each, as `dpcov mechanisms` and the guide's table print them: what it releases, and
  // its preconditions in words.
  const char *summary;
  const char *preconditions;
  // Gram mechanisms only; the defaults (none, not supported) hold for every other family.
  NoiseLaw noise{};
  GlassoPerturbation glasso = GlassoPerturbation::Unsupported;
  int32_t options = 0;
  // The proof of its guarantee at the level of privacy units (a Gram mechanism: from an
  // accumulator with max_rows_per_unit > 0; a zCDP row mechanism: from units of exactly k rows,
  // proofs/unit_group_privacy.md, "Row mechanisms"), "" for a mechanism released at row level
  // only.
  const char *unit_proof = "";
  // The inference its release supports: kInference... bits.
  int32_t inference = 0;
  // Why it is refused with privacy units, one sentence that refusals quote, "" when it has a
  // unit_proof: every entry has exactly one of the two.
  const char *unit_refusal = "";
};

std::span<const RegistryEntry> registry();

// The entry of an id or a name, nullptr if none.
const RegistryEntry *find_entry(int32_t id);
const RegistryEntry *find_entry(std::string_view name);

// The entry of an id; throws Status::InvalidArgument for an id the registry does not hold.
const RegistryEntry &entry_of(int32_t id);

// The names of the entries that satisfy `keep`, in registry order, joined by ", " except before
// the last (`last`: " and " gives "a, b and c"), each followed by suffix(entry) when one is given.
// Error messages list what a request could have named from the registry, so they stay true.
std::string names_where(const std::function<bool(const RegistryEntry &)> &keep, const char *last,
                        const std::function<const char *(const RegistryEntry &)> &suffix = {});

// The names of the entries whose options include `option` ("jl_ridge, jl_ridge_sigma_min and
// ols_jl").
std::string names_taking(int32_t option);

// The theorem of a Gram-input mechanism's default calibration, and of its exact numerics.
const char *theorem_of(MechanismId mechanism);
const char *exact_theorem_of(MechanismId mechanism);

// Whether a mechanism releases from an accumulator of privacy units (a Gram mechanism whose entry
// names a unit_proof), and the names of those that do, for a refusal's message. The zCDP row
// mechanisms name a unit proof too but take rows, never an accumulator: false for them.
bool supports_units(MechanismId mechanism);
std::string units_mechanism_names();

// The refusal of privacy units for `mechanism`, as every surface words it: its registry entry's
// unit_refusal and the Gram mechanisms that take units.
std::string unit_refusal_message(MechanismId mechanism);

// Whether a mechanism's unit-level guarantee is group privacy over a unit's rows
// (proofs/unit_group_privacy.md): it releases at the rows' own bound and a per-row budget
// (privacy::group_privacy_row_budget), not at the unit bound.
bool units_by_group_privacy(MechanismId mechanism);

}  // namespace dpcov::mechanisms
