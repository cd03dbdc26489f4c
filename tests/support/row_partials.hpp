// A seeded generator and a partial's exported bytes, for the C ABI tests of row sessions.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "dpcov.h"

namespace dpcov::test {

inline dpcov_rng *seeded(uint64_t seed) {
  dpcov_rng *rng = nullptr;
  EXPECT_EQ(dpcov_rng_create_seeded(&rng, seed, 0), DPCOV_OK);
  return rng;
}

inline std::vector<unsigned char> exported(const dpcov_row_partial *p) {
  size_t size = 0;
  EXPECT_EQ(dpcov_row_partial_export(p, nullptr, 0, &size), DPCOV_OK);
  std::vector<unsigned char> bytes(size);
  EXPECT_EQ(dpcov_row_partial_export(p, bytes.data(), bytes.size(), &size), DPCOV_OK);
  return bytes;
}

}  // namespace dpcov::test
