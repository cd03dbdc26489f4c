// The one table of every mechanism the library releases: what each is (family, privacy model,
// neighbour relations, numerics, input, output) and the theorem its receipts carry. The C ABI
// (dpcov_mechanism_info), the command line and the bindings read it; a property of a mechanism
// is looked up here rather than switched on.
#pragma once

#include <cstdint>
#include <span>
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
};

std::span<const RegistryEntry> registry();

// The entry of an id or a name, nullptr if none.
const RegistryEntry *find_entry(int32_t id);
const RegistryEntry *find_entry(std::string_view name);

// The entry of an id; throws Status::InvalidArgument for an id the registry does not hold.
const RegistryEntry &entry_of(int32_t id);

// The theorem of a Gram-input mechanism's default calibration, and of its exact numerics.
const char *theorem_of(MechanismId mechanism);
const char *exact_theorem_of(MechanismId mechanism);

}  // namespace dpcov::mechanisms
