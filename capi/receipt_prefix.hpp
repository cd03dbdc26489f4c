// The members every receipt family starts with (dpcov_receipt_prefix): filled here for each
// family's C receipt from the registry, so that the mechanism, its privacy model and its theorem
// are stated once, and read back from any family by dpcov_receipt_prefix_of().
#pragma once

#include <cstdint>

#include "../core/random/rng.hpp"
#include "dpcov/mechanism.h"
#include "dpcov/receipt.h"

namespace dpcov::capi {

// The registry's part of a prefix: mechanism, privacy model and theorem of `mechanism`, with
// the neighbour relation, numerics and every number left to the family (0).
dpcov_receipt_prefix registry_prefix(int32_t mechanism);

// The prefix of a caller's receipt of any family, checked (a mechanism of the registry with its
// privacy model, flags in range, numbers finite): what dpcov_receipt_prefix_of() copies.
dpcov_receipt_prefix read_prefix(const void *receipt);

// The ::dpcov_generator of a generator a release drew from.
int32_t c_generator(const random::Rng &rng);

// Copies every member of `prefix` but struct_size into a family's receipt `c`. The layouts are
// checked member by member in receipt_prefix.cpp.
template <class Receipt>
void set_prefix(Receipt &c, const dpcov_receipt_prefix &prefix) {
  c.mechanism = prefix.mechanism;
  c.privacy_model = prefix.privacy_model;
  c.neighbour = prefix.neighbour;
  c.numerics = prefix.numerics;
  c.generator = prefix.generator;
  c.seed_fixed = prefix.seed_fixed;
  c.epsilon = prefix.epsilon;
  c.delta = prefix.delta;
  c.rho = prefix.rho;
  c.bound = prefix.bound;
  c.n = prefix.n;
  static_assert(sizeof c.theorem == sizeof prefix.theorem);
  for (size_t i = 0; i < sizeof c.theorem; ++i) c.theorem[i] = prefix.theorem[i];
}

}  // namespace dpcov::capi
