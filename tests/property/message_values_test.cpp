// No data value in an error message (docs/error-model.md, "What a message may name"): rows, unit
// ids, Gram matrices and saved states carrying planted distinctive values (unit ids near
// 987654321000, entries and norms near 12345.678, counters near 987654321) are sent through every
// refusing path of the accumulators, their merge and their state import; each call must fail, and
// its message must name none of the planted values. Messages reach logs the curator does not
// control (a Dask worker's, a shared notebook's traceback), where an id or a value says who is in
// the data.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <sodium.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

constexpr int64_t kCols = 3;
// Offsets in the Gram state format (capi/gram_state.cpp): the 24-byte header, kind, flags, dim;
// the four counters; the spec without column bounds (68 bytes); the units' k, count, truncated,
// number of ranges, then the ranges.
constexpr size_t kRowsAt = 40;
constexpr size_t kClippedAt = 48;
constexpr size_t kUnitsAt = 72 + 68 + 8;
constexpr size_t kRangesAt = 72 + 68 + 28;

// The digits a message would show of `value` in any notation: its 5 leading significant digits.
std::string leading_digits(double value) {
  std::string s = std::to_string(static_cast<long long>(std::fabs(value)));
  return s.substr(0, 5);
}

// Fails the property when the last message shows one of the planted values (decimal points
// removed, so that 1.2345678e+04 is caught as well as 12345.678).
void expect_no_planted(const char *what, const std::vector<int64_t> &ids,
                       const std::vector<double> &values) {
  const std::string message = dpcov_last_error_message();
  std::string digits;
  for (char c : message)
    if (c != '.') digits += c;
  for (int64_t id : ids)
    if (message.find(std::to_string(id)) != std::string::npos ||
        digits.find(std::to_string(id).substr(0, 6)) != std::string::npos)
      RC_FAIL(std::string(what) + " names a unit id or counter: " + message);
  for (double v : values)
    if (digits.find(leading_digits(v)) != std::string::npos)
      RC_FAIL(std::string(what) + " names a data value: " + message);
}

void expect_refused(dpcov_status s, const char *what, const std::vector<int64_t> &ids,
                    const std::vector<double> &values) {
  if (s == DPCOV_OK) RC_FAIL(std::string(what) + " accepted planted data");
  expect_no_planted(what, ids, values);
}

dpcov_row_bounding spec_of(int32_t numerics, int64_t k) {
  dpcov_row_bounding s;
  RC_ASSERT(dpcov_row_bounding_default(&s) == DPCOV_OK);
  s.mechanism = DPCOV_MECHANISM_ANALYZE_GAUSS;
  s.numerics = numerics;
  s.bound = 1.5;
  s.max_rows_per_unit = k;
  return s;
}

// Rows of norm below 1 (so that no bound refuses them), one per unit id.
std::vector<double> small_rows(size_t rows) {
  std::vector<double> a(rows * kCols);
  for (size_t i = 0; i < a.size(); ++i) a[i] = 0.3 * std::sin(static_cast<double>(i));
  return a;
}

dpcov_gram *unit_gram(int32_t numerics, const std::vector<int64_t> &ids, dpcov_rng *rng) {
  const dpcov_row_bounding spec = spec_of(numerics, 2);
  dpcov_gram *g = nullptr;
  RC_ASSERT(dpcov_gram_create_bounded(&g, kCols, &spec) == DPCOV_OK);
  const std::vector<double> a = small_rows(ids.size());
  RC_ASSERT(dpcov_gram_add_unit_rows(g, rng, DPCOV_ROW_MAJOR, static_cast<int64_t>(ids.size()),
                                     kCols, a.data(), kCols, ids.data(), nullptr) == DPCOV_OK);
  RC_ASSERT(dpcov_gram_finish_units(g) == DPCOV_OK);
  return g;
}

std::vector<unsigned char> exported(const dpcov_gram *g) {
  size_t size = 0;
  RC_ASSERT(dpcov_gram_export_state(g, nullptr, 0, &size) == DPCOV_OK);
  std::vector<unsigned char> bytes(size);
  RC_ASSERT(dpcov_gram_export_state(g, bytes.data(), size, &size) == DPCOV_OK);
  return bytes;
}

void put_i64(std::vector<unsigned char> &bytes, size_t at, int64_t v) {
  for (size_t b = 0; b < 8; ++b)
    bytes[at + b] = static_cast<unsigned char>(static_cast<uint64_t>(v) >> (8 * b));
}

// Imports `bytes` after writing a fresh checksum over them, as a forger would.
dpcov_status forged_import(std::vector<unsigned char> bytes) {
  RC_ASSERT(crypto_generichash(bytes.data() + bytes.size() - 32, 32, bytes.data(),
                               bytes.size() - 32, nullptr, 0) == 0);
  dpcov_gram *out = nullptr;
  const dpcov_status s = dpcov_gram_import_state(&out, bytes.data(), bytes.size());
  dpcov_gram_destroy(&out);
  return s;
}

// Sorted unit ids from `base`, each repeated once or twice.
std::vector<int64_t> sorted_ids(int64_t base, size_t units) {
  std::vector<int64_t> ids;
  for (size_t u = 0; u < units; ++u) {
    ids.push_back(base + 3 * static_cast<int64_t>(u));
    if (u % 2 == 0) ids.push_back(ids.back());
  }
  return ids;
}

RC_GTEST_PROP(MessageValues, UnitIdsOutOfOrderAreNamedByPosition, ()) {
  const int64_t base = 987654321000 + *rc::gen::inRange<int64_t>(0, 1000);
  const int32_t numerics = *rc::gen::element(DPCOV_NUMERICS_EXACT, DPCOV_NUMERICS_IDEALIZED);
  std::vector<int64_t> ids = sorted_ids(base, *rc::gen::inRange<size_t>(2, 8));
  const size_t back = *rc::gen::inRange<size_t>(1, ids.size());
  ids[back] = ids[back - 1] - 1 - *rc::gen::inRange<int64_t>(0, 5);
  dpcov_rng *rng = nullptr;
  RC_ASSERT(dpcov_rng_create_seeded(&rng, 11, 0) == DPCOV_OK);
  const dpcov_row_bounding spec = spec_of(numerics, 2);
  dpcov_gram *g = nullptr;
  RC_ASSERT(dpcov_gram_create_bounded(&g, kCols, &spec) == DPCOV_OK);
  // Across calls (below): the next call starts below the last id of the one before.
  const std::vector<int64_t> first = sorted_ids(base + 100, 3), second = sorted_ids(base, 2);
  // Rows for the longest of the three calls.
  const std::vector<double> a = small_rows(std::max({ids.size(), first.size(), second.size()}));
  expect_refused(dpcov_gram_add_unit_rows(g, rng, DPCOV_ROW_MAJOR, static_cast<int64_t>(ids.size()),
                                          kCols, a.data(), kCols, ids.data(), nullptr),
                 "an id going back within a call", ids, {});
  RC_ASSERT(dpcov_gram_add_unit_rows(g, rng, DPCOV_ROW_MAJOR, static_cast<int64_t>(first.size()),
                                     kCols, a.data(), kCols, first.data(), nullptr) == DPCOV_OK);
  std::vector<int64_t> both = first;
  both.insert(both.end(), second.begin(), second.end());
  expect_refused(dpcov_gram_add_unit_rows(g, rng, DPCOV_ROW_MAJOR,
                                          static_cast<int64_t>(second.size()), kCols, a.data(),
                                          kCols, second.data(), nullptr),
                 "an id going back across calls", both, {});
  dpcov_gram_destroy(&g);
  dpcov_rng_destroy(&rng);
}

RC_GTEST_PROP(MessageValues, RowsOverTheBoundAreNamedByPosition, ()) {
  const double planted = 12345.678 + *rc::gen::inRange(0, 1000) / 1000.0;
  const int64_t rows = *rc::gen::inRange<int64_t>(1, 6);
  const int64_t at = *rc::gen::inRange<int64_t>(0, rows);
  const bool label = *rc::gen::arbitrary<bool>();
  std::vector<double> a = small_rows(static_cast<size_t>(rows));
  a[static_cast<size_t>(at * kCols + (label ? kCols - 1 : 0))] = *rc::gen::arbitrary<bool>()
                                                                     ? planted
                                                                     : -planted;
  dpcov_row_bounding spec = spec_of(*rc::gen::element(DPCOV_NUMERICS_EXACT,
                                                      DPCOV_NUMERICS_IDEALIZED), 0);
  spec.policy = DPCOV_BOUND_REJECT;
  if (label) spec.label_bound = 1.0;
  dpcov_gram *g = nullptr;
  if (dpcov_gram_create_bounded(&g, kCols, &spec) != DPCOV_OK)
    RC_DISCARD("a label bound this numerics does not take");
  expect_refused(dpcov_gram_add_raw_rows(g, DPCOV_ROW_MAJOR, rows, kCols, a.data(), kCols, nullptr),
                 "a row over its bound", {}, {planted});
  std::vector<double> out(a.size() + static_cast<size_t>(rows));
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  expect_refused(dpcov_row_bounding_apply(&spec, DPCOV_ROW_MAJOR, rows, kCols, a.data(), kCols,
                                          out.data(), kCols + 1, &info, nullptr),
                 "a row over its bound (apply)", {}, {planted});
  dpcov_gram_destroy(&g);
}

RC_GTEST_PROP(MessageValues, GramStatesAreRefusedWithoutTheirValues, ()) {
  const double planted = 12345.678 + *rc::gen::inRange(0, 1000) / 1000.0;
  const int64_t count = 987654321 + *rc::gen::inRange<int64_t>(0, 1000);
  std::vector<double> g(kCols * kCols, 0.0);
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  info.dim = kCols;
  info.bound = 1.0;
  info.rows = 3;
  switch (*rc::gen::inRange(0, 4)) {
    case 0:  // not symmetric
      g[1] = planted;
      break;
    case 1:  // a negative diagonal
      g[4] = -planted;
      break;
    case 2:  // a trace over rows B^2
      g[8] = planted;
      break;
    default:  // more clipped rows than rows, all of them planted
      info.rows = count;
      info.clipped = count + 1;
      break;
  }
  dpcov_gram *out = nullptr;
  expect_refused(dpcov_gram_create_from_state(&out, &info, DPCOV_ROW_MAJOR, g.data(), kCols),
                 "dpcov_gram_create_from_state", {count}, {planted});
}

RC_GTEST_PROP(MessageValues, ForgedSavedStatesAreRefusedWithoutTheirValues, ()) {
  const int64_t base = 987654321000 + *rc::gen::inRange<int64_t>(0, 1000);
  const int64_t count = 987654321 + *rc::gen::inRange<int64_t>(0, 1000);
  const int32_t numerics = *rc::gen::element(DPCOV_NUMERICS_EXACT, DPCOV_NUMERICS_IDEALIZED);
  dpcov_rng *rng = nullptr;
  RC_ASSERT(dpcov_rng_create_seeded(&rng, 12, 0) == DPCOV_OK);
  const std::vector<int64_t> ids = sorted_ids(base, 4);
  dpcov_gram *g = unit_gram(numerics, ids, rng);
  std::vector<unsigned char> bytes = exported(g);
  std::vector<int64_t> planted = ids;
  planted.push_back(count);
  switch (*rc::gen::inRange(0, 4)) {
    case 0:  // a range whose first id is above its last
      put_i64(bytes, kRangesAt, base + 5);
      put_i64(bytes, kRangesAt + 8, base + 1);
      break;
    case 1:  // a negative unit count
      put_i64(bytes, kUnitsAt, -count);
      break;
    case 2:  // more rows than the units can hold
      put_i64(bytes, kRowsAt, count);
      break;
    default:  // more clipped rows than rows
      put_i64(bytes, kClippedAt, count);
      break;
  }
  expect_refused(forged_import(bytes), "a forged saved state", planted, {});
  dpcov_gram_destroy(&g);
  dpcov_rng_destroy(&rng);
}

RC_GTEST_PROP(MessageValues, ForgedExactDiagonalIsRefusedWithoutTheRowCount, ()) {
  const int64_t count = 987654321 + *rc::gen::inRange<int64_t>(0, 1000);
  dpcov_row_bounding spec = spec_of(DPCOV_NUMERICS_EXACT, 0);
  dpcov_gram *g = nullptr;
  RC_ASSERT(dpcov_gram_create_bounded(&g, kCols, &spec) == DPCOV_OK);
  const std::vector<double> a = small_rows(5);
  RC_ASSERT(dpcov_gram_add_raw_rows(g, DPCOV_ROW_MAJOR, 5, kCols, a.data(), kCols, nullptr) ==
            DPCOV_OK);
  std::vector<unsigned char> bytes = exported(g);
  put_i64(bytes, kRowsAt, count);
  // The first diagonal integer (the triangle's first 16 bytes, before the checksum) made -1.
  const size_t entries = kCols * (kCols + 1) / 2;
  const size_t first = bytes.size() - 32 - 16 * entries;
  std::memset(bytes.data() + first, 0xff, 16);
  expect_refused(forged_import(bytes), "a forged exact diagonal", {count}, {});
  dpcov_gram_destroy(&g);
}

RC_GTEST_PROP(MessageValues, OverlappingUnitPartitionsAreRefusedWithoutIds, ()) {
  const int64_t base = 987654321000 + *rc::gen::inRange<int64_t>(0, 1000);
  const int32_t numerics = *rc::gen::element(DPCOV_NUMERICS_EXACT, DPCOV_NUMERICS_IDEALIZED);
  dpcov_rng *rng = nullptr;
  RC_ASSERT(dpcov_rng_create_seeded(&rng, 13, 0) == DPCOV_OK);
  const std::vector<int64_t> left = sorted_ids(base, 3), right = sorted_ids(base + 1, 3);
  dpcov_gram *a = unit_gram(numerics, left, rng);
  dpcov_gram *b = unit_gram(numerics, right, rng);
  std::vector<int64_t> both = left;
  both.insert(both.end(), right.begin(), right.end());
  expect_refused(dpcov_gram_merge(a, b), "a merge of overlapping unit ranges", both, {});
  dpcov_gram_destroy(&a);
  dpcov_gram_destroy(&b);
  dpcov_rng_destroy(&rng);
}

}  // namespace
