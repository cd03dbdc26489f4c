// The common receipt prefix (dpcov/receipt.h): its layout in every family, the registry's part of
// it, and dpcov_receipt_prefix_of().
#include "receipt_prefix.hpp"

#include <cmath>
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "../core/check.hpp"
#include "../core/mechanisms/registry.hpp"
#include "dpcov/adassp.h"
#include "dpcov/coinpress.h"
#include "dpcov/dong_liang_yi.h"
#include "dpcov/mechanism.h"
#include "guard.hpp"
#include "struct_size.hpp"

namespace {

using dpcov::fail;
namespace mech = dpcov::mechanisms;

// Every family repeats the prefix's members at the prefix's offsets with the prefix's types: what
// lets dpcov_receipt_prefix_of() read any family's receipt through the prefix alone.
#define DPCOV_SAME_MEMBER(family, member)                                                      \
  static_assert(offsetof(family, member) == offsetof(dpcov_receipt_prefix, member) &&         \
                    std::is_same_v<decltype(family::member), decltype(dpcov_receipt_prefix::member)>, \
                #family "::" #member " is not where dpcov_receipt_prefix has it")
#define DPCOV_SAME_PREFIX(family)              \
  DPCOV_SAME_MEMBER(family, struct_size);      \
  DPCOV_SAME_MEMBER(family, mechanism);        \
  DPCOV_SAME_MEMBER(family, privacy_model);    \
  DPCOV_SAME_MEMBER(family, neighbour);        \
  DPCOV_SAME_MEMBER(family, numerics);         \
  DPCOV_SAME_MEMBER(family, generator);        \
  DPCOV_SAME_MEMBER(family, seed_fixed);       \
  DPCOV_SAME_MEMBER(family, epsilon);          \
  DPCOV_SAME_MEMBER(family, delta);            \
  DPCOV_SAME_MEMBER(family, rho);              \
  DPCOV_SAME_MEMBER(family, bound);            \
  DPCOV_SAME_MEMBER(family, n);                \
  DPCOV_SAME_MEMBER(family, theorem);          \
  static_assert(sizeof(family) > sizeof(dpcov_receipt_prefix))
DPCOV_SAME_PREFIX(dpcov_receipt);
DPCOV_SAME_PREFIX(dpcov_adassp_receipt);
DPCOV_SAME_PREFIX(dpcov_dly_receipt);
DPCOV_SAME_PREFIX(dpcov_coinpress_receipt);
DPCOV_SAME_PREFIX(dpcov_coinpress_mean_receipt);
#undef DPCOV_SAME_PREFIX
#undef DPCOV_SAME_MEMBER

static_assert(static_cast<int32_t>(mech::PrivacyModel::Pure) == DPCOV_MECHANISM_PRIVACY_PURE &&
              static_cast<int32_t>(mech::PrivacyModel::Approximate) ==
                  DPCOV_MECHANISM_PRIVACY_APPROXIMATE &&
              static_cast<int32_t>(mech::PrivacyModel::Zcdp) == DPCOV_MECHANISM_PRIVACY_ZCDP);

void check_flag(int32_t value, int32_t largest, const char *name) {
  if (value < 0 || value > largest)
    fail(dpcov::Status::InvalidArgument, "receipt->", name, " must be in [0, ", largest, "], got ",
         value);
}

}  // namespace

namespace dpcov::capi {

dpcov_receipt_prefix read_prefix(const void *receipt) {
  dpcov::check::not_null(receipt, "receipt");
  dpcov_receipt_prefix p{};
  std::memcpy(&p.struct_size, receipt, sizeof p.struct_size);
  if (p.struct_size < sizeof p)
    fail(dpcov::Status::InvalidArgument,
         "receipt->struct_size must be the size of a receipt (at least ", sizeof p, "), got ",
         p.struct_size);
  std::memcpy(&p, receipt, sizeof p);
  const mech::RegistryEntry *entry = mech::find_entry(p.mechanism);
  if (entry == nullptr)
    fail(dpcov::Status::InvalidArgument, "receipt->mechanism ", p.mechanism,
         " is not a mechanism of the registry");
  if (p.privacy_model != static_cast<int32_t>(entry->privacy))
    fail(dpcov::Status::InvalidArgument, "receipt->privacy_model ", p.privacy_model, " is not ",
         static_cast<int32_t>(entry->privacy), ", the registry's for ", entry->name);
  check_flag(p.neighbour, DPCOV_NEIGHBOUR_ADD_REMOVE, "neighbour");
  check_flag(p.numerics, DPCOV_NUMERICS_EXACT, "numerics");
  check_flag(p.generator, DPCOV_GENERATOR_CHACHA20, "generator");
  check_flag(p.seed_fixed, 1, "seed_fixed");
  const std::pair<double, const char *> numbers[] = {
      {p.epsilon, "epsilon"}, {p.delta, "delta"}, {p.rho, "rho"}, {p.bound, "bound"}};
  for (const auto &[value, name] : numbers)
    if (!std::isfinite(value))
      fail(dpcov::Status::NonFinite, "receipt->", name, " must be finite, got ", value);
  if (std::memchr(p.theorem, '\0', sizeof p.theorem) == nullptr)
    fail(dpcov::Status::InvalidArgument, "receipt->theorem must be NUL-terminated within its ",
         sizeof p.theorem, " bytes");
  return p;
}

dpcov_receipt_prefix registry_prefix(int32_t mechanism) {
  const mech::RegistryEntry &entry = mech::entry_of(mechanism);
  dpcov_receipt_prefix p{};
  p.mechanism = mechanism;
  p.privacy_model = static_cast<int32_t>(entry.privacy);
  const size_t length = std::strlen(entry.theorem);
  if (length >= sizeof p.theorem)
    fail(dpcov::Status::Internal, "theorem of ", entry.name, " is longer than the receipt");
  std::memcpy(p.theorem, entry.theorem, length + 1);
  return p;
}

int32_t c_generator(const random::Rng &rng) {
  return rng.engine() == random::Engine::ChaCha20 ? DPCOV_GENERATOR_CHACHA20
                                                  : DPCOV_GENERATOR_PCG64;
}

}  // namespace dpcov::capi

DPCOV_API dpcov_status dpcov_receipt_prefix_of(const void *receipt, dpcov_receipt_prefix *out) {
  return dpcov::capi::guarded([&] {
    const dpcov_receipt_prefix prefix = dpcov::capi::read_prefix(receipt);
    dpcov::capi::struct_bytes(out, "out");
    dpcov::capi::write_struct(out, prefix);
  });
}
