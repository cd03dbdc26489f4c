// A receipt's "scaling" record (the public per-column ranges of a --bounds release) is read back
// only as --bounds writes it: finite, lower < upper, per column; anything else is a malformed
// input file (exit 2), named with its column. A record [1, 0] or [0.5, 0.5] reached the library's
// column mapping and failed there as a usage error (exit 1).
#include <gtest/gtest.h>

#include <cfloat>
#include <random>

#include "cli_error.hpp"
#include "options/column_bounds_option.hpp"

namespace dpcov::cli {
namespace {

nlohmann::ordered_json scaling(double lower, double upper) {
  return {{"bounds", {{"a", {-1.0, 1.0}}, {"b", {lower, upper}}}}};
}

TEST(ReceiptScaling, RangesAreReadOnlyFiniteWithLowerBelowUpper) {
  std::mt19937_64 gen(20261124);
  const double values[] = {-DBL_MAX, -1e300, -1.0, -DBL_TRUE_MIN, 0.0, DBL_TRUE_MIN, 0.5, 1.0,
                           1e300, DBL_MAX};
  std::uniform_int_distribution<size_t> pick(0, std::size(values) - 1);
  for (int i = 0; i < 400; ++i) {
    const double lower = values[pick(gen)], upper = values[pick(gen)];
    if (lower < upper) {
      const ColumnBounds b = column_bounds_from_receipt(scaling(lower, upper), "r.json");
      ASSERT_EQ(b.lower.size(), 2u);
      EXPECT_EQ(b.lower[1], lower);
      EXPECT_EQ(b.upper[1], upper);
      continue;
    }
    try {
      column_bounds_from_receipt(scaling(lower, upper), "r.json");
      ADD_FAILURE() << "[" << lower << ", " << upper << "] accepted";
    } catch (const CliError &e) {
      EXPECT_EQ(e.code(), kExitInputData);
      EXPECT_NE(std::string(e.what()).find("'b'"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace dpcov::cli
