// The counters of a C ABI Gram accumulator, for the C ABI tests.
#pragma once

#include <gtest/gtest.h>

#include "dpcov.h"

namespace dpcov::test {

inline dpcov_gram_info gram_info_of(const dpcov_gram *g) {
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  EXPECT_EQ(dpcov_gram_get_info(g, &info), DPCOV_OK);
  return info;
}

}  // namespace dpcov::test
