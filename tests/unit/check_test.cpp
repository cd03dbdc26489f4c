// The one size discipline (core/check.hpp): extents in bytes, overflow-checked, on both sides of
// every edge.
#include <gtest/gtest.h>

#include <cstdint>

#include "core/check.hpp"
#include "dpcov.h"

namespace {

namespace check = dpcov::check;

dpcov_status status_of(auto &&call) {
  try {
    call();
  } catch (const dpcov::Error &e) {
    return static_cast<dpcov_status>(e.status());
  }
  return DPCOV_OK;
}

const void *at(uintptr_t address) { return reinterpret_cast<const void *>(address); }

TEST(CheckExtent, AcceptsUpToPtrdiffMaxBytes) {
  const int64_t max_doubles = PTRDIFF_MAX / 8;  // 2^60 - 1
  EXPECT_EQ(check::extent_bytes(at(8), max_doubles, 8, "a"), size_t{PTRDIFF_MAX} - 7);
  EXPECT_EQ(status_of([&] { check::extent_bytes(at(8), max_doubles + 1, 8, "a"); }),
            DPCOV_E_TOO_LARGE);
  EXPECT_EQ(check::extent_bytes(at(8), PTRDIFF_MAX, 1, "a"), size_t{PTRDIFF_MAX});
}

TEST(CheckExtent, RefusesAProductThatWrapsSixtyFourBits) {
  // 2^61 doubles are 2^64 bytes, which is 0 modulo 2^64.
  EXPECT_EQ(status_of([] { check::extent_bytes(at(8), int64_t{1} << 61, 8, "a"); }),
            DPCOV_E_TOO_LARGE);
  EXPECT_EQ(status_of([] { check::extent_bytes(at(8), INT64_MAX, 8, "a"); }), DPCOV_E_TOO_LARGE);
}

TEST(CheckExtent, RefusesAnArrayThatWrapsTheAddressSpace) {
  const uintptr_t top = UINTPTR_MAX - 64;  // 64 bytes end at the last address
  EXPECT_EQ(check::extent_bytes(at(top), 8, 8, "a"), size_t{64});
  EXPECT_EQ(status_of([&] { check::extent_bytes(at(top), 9, 8, "a"); }), DPCOV_E_TOO_LARGE);
}

TEST(CheckExtent, StridedExtentCountsTheLastRunOnly) {
  EXPECT_EQ(check::strided_extent_bytes(at(8), 3, 2, 5, 8, "a"), size_t{(2 * 5 + 2) * 8});
  EXPECT_EQ(check::strided_extent_bytes(at(8), 0, 2, 5, 8, "a"), size_t{0});
  // rows x ld fits 64 bits in elements but not in bytes.
  EXPECT_EQ(status_of([] { check::strided_extent_bytes(at(8), int64_t{1} << 60, 4, 4, 8, "a"); }),
            DPCOV_E_TOO_LARGE);
  // Overflow already in elements.
  EXPECT_EQ(status_of([] { check::strided_extent_bytes(at(8), INT64_MAX, 4, 4, 8, "a"); }),
            DPCOV_E_TOO_LARGE);
  // The edge: 2^58 rows of 4 doubles are exactly 2^63 bytes, one over PTRDIFF_MAX.
  EXPECT_EQ(check::strided_extent_bytes(at(8), (int64_t{1} << 58) - 1, 4, 4, 8, "a"),
            ((size_t{1} << 58) - 1) * 32);
  EXPECT_EQ(status_of([] { check::strided_extent_bytes(at(8), int64_t{1} << 58, 4, 4, 8, "a"); }),
            DPCOV_E_TOO_LARGE);
}

TEST(CheckExtent, MatrixViewsAreCheckedInBytes) {
  const double a[16] = {};
  EXPECT_EQ(status_of([&] { check::matrix(DPCOV_ROW_MAJOR, int64_t{1} << 60, 4, a, 4, "a"); }),
            DPCOV_E_TOO_LARGE);
  EXPECT_EQ(status_of([&] { check::matrix(DPCOV_COL_MAJOR, 4, int64_t{1} << 30, a, 1 << 30, "a"); }),
            DPCOV_OK);
  EXPECT_EQ(status_of([&] { check::matrix(DPCOV_ROW_MAJOR, 4, 4, a, 4, "a"); }), DPCOV_OK);
}

TEST(CheckExtent, VectorsNeedAPointerOnlyWhenNonEmpty) {
  EXPECT_EQ(status_of([] { check::vector(0, nullptr, 8, "v"); }), DPCOV_OK);
  EXPECT_EQ(status_of([] { check::vector(1, nullptr, 8, "v"); }), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(status_of([] { check::vector(-1, nullptr, 8, "v"); }), DPCOV_E_DIMENSION);
  EXPECT_EQ(status_of([] { check::vector(int64_t{1} << 61, at(8), 8, "v"); }), DPCOV_E_TOO_LARGE);
}

}  // namespace
