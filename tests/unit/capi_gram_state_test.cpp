// The Gram accumulator's saved state (dpcov_gram_export_state(), dpcov_gram_import_state()): an
// imported state is the exported accumulator, exact or floating-point, bit for bit, with its
// counters, spec and drop policy, and continues as it would have; a state that is not one
// (magic), another format or library version, truncated, with trailing bytes, corrupted, or
// forged with a valid checksum but entries or a grid no bounded rows give, is refused with the
// outputs untouched; merges of imported states refuse another dimension or spec.
#include <gtest/gtest.h>
#include <sodium.h>

#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "dpcov.h"

namespace {

constexpr int64_t kCols = 3;

std::vector<double> rows_of(int64_t rows, int64_t cols, double phase) {
  std::vector<double> a(static_cast<size_t>(rows * cols));
  for (size_t i = 0; i < a.size(); ++i) a[i] = 0.9 * std::sin(0.37 * static_cast<double>(i) + phase);
  return a;
}

dpcov_row_bounding exact_spec(int64_t mechanism = DPCOV_MECHANISM_ANALYZE_GAUSS) {
  dpcov_row_bounding s;
  EXPECT_EQ(dpcov_row_bounding_default(&s), DPCOV_OK);
  s.mechanism = static_cast<int32_t>(mechanism);
  // Above every row's norm (at most 0.9 sqrt(3)), so that the reject and drop policies keep all.
  s.bound = 2.0;
  return s;
}

dpcov_gram *bounded(const dpcov_row_bounding &spec, int64_t cols, int64_t rows, double phase) {
  dpcov_gram *g = nullptr;
  EXPECT_EQ(dpcov_gram_create_bounded(&g, cols, &spec), DPCOV_OK) << dpcov_last_error_message();
  const std::vector<double> a = rows_of(rows, cols, phase);
  EXPECT_EQ(dpcov_gram_add_raw_rows(g, DPCOV_ROW_MAJOR, rows, cols, a.data(), cols, nullptr),
            DPCOV_OK)
      << dpcov_last_error_message();
  return g;
}

std::vector<unsigned char> exported(const dpcov_gram *g) {
  size_t size = 0;
  EXPECT_EQ(dpcov_gram_export_state(g, nullptr, 0, &size), DPCOV_OK);
  std::vector<unsigned char> bytes(size);
  size_t written = 0;
  EXPECT_EQ(dpcov_gram_export_state(g, bytes.data(), bytes.size(), &written), DPCOV_OK);
  EXPECT_EQ(written, size);
  return bytes;
}

std::vector<double> matrix_of(const dpcov_gram *g, int64_t d) {
  std::vector<double> m(static_cast<size_t>(d * d));
  EXPECT_EQ(dpcov_gram_get_matrix(g, DPCOV_ROW_MAJOR, m.data(), d), DPCOV_OK);
  return m;
}

dpcov_gram_info info_of(const dpcov_gram *g) {
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  EXPECT_EQ(dpcov_gram_get_info(g, &info), DPCOV_OK);
  return info;
}

void expect_same(const dpcov_gram *a, const dpcov_gram *b) {
  const dpcov_gram_info x = info_of(a), y = info_of(b);
  ASSERT_EQ(x.dim, y.dim);
  EXPECT_EQ(x.rows, y.rows);
  EXPECT_EQ(x.clipped, y.clipped);
  EXPECT_EQ(x.dropped, y.dropped);
  EXPECT_EQ(x.clamped, y.clamped);
  EXPECT_EQ(x.bound, y.bound);
  EXPECT_EQ(x.numerics, y.numerics);
  const std::vector<double> m = matrix_of(a, x.dim), n = matrix_of(b, y.dim);
  EXPECT_EQ(std::memcmp(m.data(), n.data(), m.size() * sizeof(double)), 0);
}

// The status of importing `bytes`, checking that a refusal leaves the output untouched.
dpcov_status import_status(const std::vector<unsigned char> &bytes, size_t len) {
  dpcov_gram *canary = reinterpret_cast<dpcov_gram *>(&len);
  dpcov_gram *out = canary;
  const dpcov_status s = dpcov_gram_import_state(&out, bytes.data(), len);
  if (s == DPCOV_OK) {
    dpcov_gram_destroy(&out);
  } else {
    EXPECT_EQ(out, canary);
  }
  return s;
}

std::string message() { return dpcov_last_error_message(); }

// Writes a fresh checksum over a state whose bytes were changed, as a forger would.
void rechecksum(std::vector<unsigned char> &bytes) {
  ASSERT_EQ(crypto_generichash(bytes.data() + bytes.size() - 32, 32, bytes.data(),
                               bytes.size() - 32, nullptr, 0),
            0);
}

// Offsets in the format (capi/gram_state.cpp): the header, then kind, flags, dim, counters.
constexpr size_t kVersionAt = 8;
constexpr size_t kMajorAt = 12;
constexpr size_t kRowsAt = 24 + 4 + 4 + 8;

TEST(CapiGramState, ExactStateRoundTripsAndContinuesBitForBit) {
  const dpcov_row_bounding spec = exact_spec();
  dpcov_gram *g = bounded(spec, kCols, 200, 0.1);
  ASSERT_EQ(info_of(g).numerics, DPCOV_NUMERICS_EXACT);
  dpcov_gram *h = nullptr;
  const std::vector<unsigned char> bytes = exported(g);
  ASSERT_EQ(dpcov_gram_import_state(&h, bytes.data(), bytes.size()), DPCOV_OK) << message();
  expect_same(g, h);
  // The imported accumulator bounds and rounds new rows as the original does.
  const std::vector<double> more = rows_of(50, kCols, 2.0);
  for (dpcov_gram *x : {g, h})
    ASSERT_EQ(dpcov_gram_add_raw_rows(x, DPCOV_ROW_MAJOR, 50, kCols, more.data(), kCols, nullptr),
              DPCOV_OK);
  expect_same(g, h);
  EXPECT_EQ(exported(g), exported(h));
  dpcov_gram_destroy(&g);
  dpcov_gram_destroy(&h);
}

TEST(CapiGramState, FloatStatesRoundTripWithTheirCompensation) {
  dpcov_gram *plain = nullptr;
  ASSERT_EQ(dpcov_gram_create(&plain, kCols), DPCOV_OK);
  const std::vector<double> a = rows_of(100, kCols, 0.3);
  ASSERT_EQ(dpcov_gram_add_rows(plain, DPCOV_ROW_MAJOR, 100, kCols, a.data(), kCols, 1.0,
                                DPCOV_BOUND_CLIP),
            DPCOV_OK);
  dpcov_row_bounding spec = exact_spec();
  spec.numerics = DPCOV_NUMERICS_IDEALIZED;
  spec.constant = 1.0;
  dpcov_gram *ideal = bounded(spec, kCols, 100, 0.4);
  dpcov_gram *empty = nullptr;
  ASSERT_EQ(dpcov_gram_create(&empty, kCols), DPCOV_OK);
  for (dpcov_gram *g : {plain, ideal, empty}) {
    dpcov_gram *h = nullptr;
    const std::vector<unsigned char> bytes = exported(g);
    ASSERT_EQ(dpcov_gram_import_state(&h, bytes.data(), bytes.size()), DPCOV_OK) << message();
    expect_same(g, h);
    EXPECT_EQ(exported(h), bytes);
    dpcov_gram_destroy(&h);
  }
  dpcov_gram_destroy(&plain);
  dpcov_gram_destroy(&ideal);
  dpcov_gram_destroy(&empty);
}

// Balanced rows (dpcov_row_bounding::balanced) are a flag of the state: the imported
// accumulator maps new rows as the original does, and its spec is the original's.
TEST(CapiGramState, BalancedRowsSurviveTheTrip) {
  dpcov_row_bounding spec = exact_spec();
  spec.constant = 1.0;
  spec.bound = 40.0;
  spec.balanced = 1;
  dpcov_gram *g = bounded(spec, kCols, 100, 9.0);
  dpcov_gram *h = nullptr;
  const std::vector<unsigned char> bytes = exported(g);
  ASSERT_EQ(dpcov_gram_import_state(&h, bytes.data(), bytes.size()), DPCOV_OK) << message();
  expect_same(g, h);
  const std::vector<double> more = rows_of(30, kCols, 30.0);
  for (dpcov_gram *x : {g, h})
    ASSERT_EQ(dpcov_gram_add_raw_rows(x, DPCOV_ROW_MAJOR, 30, kCols, more.data(), kCols, nullptr),
              DPCOV_OK);
  expect_same(g, h);
  spec.balanced = 0;
  dpcov_gram *plain = bounded(spec, kCols, 100, 9.0);
  ASSERT_EQ(dpcov_gram_merge(h, plain), DPCOV_E_INCOMPATIBLE);  // another spec
  dpcov_gram_destroy(&plain);
  dpcov_gram_destroy(&g);
  dpcov_gram_destroy(&h);
}

// dpcov_gram_get_info() and dpcov_gram_create_from_state() lose the drop policy; the state
// keeps it, so a replace-one release of a state bounded under the drop policy is still refused
// when no row happened to be dropped.
TEST(CapiGramState, TheDropPolicySurvivesTheTrip) {
  dpcov_row_bounding spec = exact_spec();
  spec.numerics = DPCOV_NUMERICS_IDEALIZED;
  spec.policy = DPCOV_BOUND_DROP;
  spec.neighbour = DPCOV_NEIGHBOUR_ADD_REMOVE;
  dpcov_gram *g = bounded(spec, kCols, 100, 0.5);
  ASSERT_EQ(info_of(g).dropped, 0);
  dpcov_gram *h = nullptr;
  const std::vector<unsigned char> bytes = exported(g);
  ASSERT_EQ(dpcov_gram_import_state(&h, bytes.data(), bytes.size()), DPCOV_OK) << message();
  dpcov_rng *rng = nullptr;
  ASSERT_EQ(dpcov_rng_create_seeded(&rng, 1, 0), DPCOV_OK);
  for (const dpcov_gram *x : {static_cast<const dpcov_gram *>(g), static_cast<const dpcov_gram *>(h)}) {
    std::vector<double> out(kCols * kCols, -7.0);
    dpcov_receipt receipt{};
    receipt.struct_size = sizeof receipt;
    EXPECT_EQ(dpcov_mechanism_release_gram(DPCOV_MECHANISM_ANALYZE_GAUSS, x, 1.0, 1e-6, nullptr,
                                           rng, DPCOV_ROW_MAJOR, out.data(), kCols, &receipt),
              DPCOV_E_PRECONDITION);
  }
  dpcov_rng_destroy(&rng);
  dpcov_gram_destroy(&g);
  dpcov_gram_destroy(&h);
}

// Found by fuzz_gram_state on an imported state: at B = 1e300 the grid unit's square overflows,
// and dpcov_gram_get_matrix() returned OK with inf (and 0 * inf = NaN for zero entries).
TEST(CapiGramState, ExactMatrixThatOverflowsADoubleIsRefusedNotInfinite) {
  dpcov_row_bounding spec = exact_spec();
  spec.bound = 1e300;
  spec.constant = 1e300;
  spec.neighbour = DPCOV_NEIGHBOUR_ADD_REMOVE;
  dpcov_gram *g = nullptr;
  ASSERT_EQ(dpcov_gram_create_bounded(&g, 1, &spec), DPCOV_OK) << message();
  const double row = 0.0;
  ASSERT_EQ(dpcov_gram_add_raw_rows(g, DPCOV_ROW_MAJOR, 1, 1, &row, 1, nullptr), DPCOV_OK);
  std::vector<double> m(4, -7.0);
  EXPECT_EQ(dpcov_gram_get_matrix(g, DPCOV_ROW_MAJOR, m.data(), 2), DPCOV_E_NUMERICAL);
  EXPECT_EQ(m, std::vector<double>(4, -7.0));
  dpcov_gram_destroy(&g);
}

TEST(CapiGramState, ExportRefusesNullsAndAShortBufferUntouched) {
  dpcov_gram *g = bounded(exact_spec(), kCols, 10, 0.1);
  size_t size = 0;
  EXPECT_EQ(dpcov_gram_export_state(nullptr, nullptr, 0, &size), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_gram_export_state(g, nullptr, 0, nullptr), DPCOV_E_NULL_POINTER);
  ASSERT_EQ(dpcov_gram_export_state(g, nullptr, 0, &size), DPCOV_OK);
  std::vector<unsigned char> buf(size, 0xA5);
  size_t written = 12345;
  EXPECT_EQ(dpcov_gram_export_state(g, buf.data(), size - 1, &written), DPCOV_E_BUFFER_TOO_SMALL);
  EXPECT_NE(message().find("needs"), std::string::npos);
  EXPECT_EQ(written, 12345u);
  EXPECT_EQ(buf, std::vector<unsigned char>(size, 0xA5));
  dpcov_gram_destroy(&g);
}

TEST(CapiGramState, ImportRefusesWhatIsNotAnIntactStateOfThisVersion) {
  dpcov_gram *g = bounded(exact_spec(), kCols, 20, 0.1);
  const std::vector<unsigned char> bytes = exported(g);
  dpcov_gram_destroy(&g);
  dpcov_gram *out = nullptr;
  EXPECT_EQ(dpcov_gram_import_state(nullptr, bytes.data(), bytes.size()), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_gram_import_state(&out, nullptr, bytes.size()), DPCOV_E_NULL_POINTER);

  std::vector<unsigned char> bad = bytes;
  bad[0] = 'X';
  EXPECT_EQ(import_status(bad, bad.size()), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(message().find("magic"), std::string::npos);
  bad = bytes;
  bad[kVersionAt] = 2;
  EXPECT_EQ(import_status(bad, bad.size()), DPCOV_E_INCOMPATIBLE);
  EXPECT_NE(message().find("format version 2"), std::string::npos);
  bad = bytes;
  bad[kMajorAt] ^= 1;
  EXPECT_EQ(import_status(bad, bad.size()), DPCOV_E_INCOMPATIBLE);
  EXPECT_NE(message().find("major version"), std::string::npos);
  for (size_t len : {size_t{0}, size_t{10}, size_t{30}, bytes.size() - 1}) {
    EXPECT_EQ(import_status(bytes, len), DPCOV_E_INVALID_ARGUMENT) << len;
    EXPECT_NE(message().find("truncated"), std::string::npos) << len;
  }
  bad = bytes;
  bad.push_back(0);
  EXPECT_EQ(import_status(bad, bad.size()), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(message().find("after the state"), std::string::npos);
  // Every byte after the header flipped in turn: the checksum catches each.
  for (size_t k = 24; k < bytes.size(); ++k) {
    bad = bytes;
    bad[k] ^= 0x10;
    ASSERT_EQ(import_status(bad, bad.size()), DPCOV_E_INVALID_ARGUMENT) << k;
    ASSERT_NE(message().find("corrupted"), std::string::npos) << k;
  }
}

TEST(CapiGramState, ImportRefusesForgedStatesWithAValidChecksum) {
  dpcov_gram *g = bounded(exact_spec(), kCols, 20, 0.1);
  const std::vector<unsigned char> bytes = exported(g);
  dpcov_gram_destroy(&g);
  // Another grid than the spec's plan: the grid's bits follow the spec (after the counters:
  // cols 8, bound 8, policy 4, neighbour 4, constant 8, label 8, numerics 4, mechanism 4,
  // epsilon 8, delta 8, column bounds 4; then the grid's bound 8, bits 4, r2 8, the integers).
  const size_t bits_at = kRowsAt + 4 * 8 + 8 + 8 + 4 + 4 + 8 + 8 + 4 + 4 + 8 + 8 + 4 + 8;
  std::vector<unsigned char> bad = bytes;
  bad[bits_at] ^= 1;
  rechecksum(bad);
  EXPECT_EQ(import_status(bad, bad.size()), DPCOV_E_INCOMPATIBLE) << message();
  EXPECT_NE(message().find("grid"), std::string::npos);
  // G_00 raised by 2^64: the trace exceeds rows times the grid's bound on ||z||^2.
  bad = bytes;
  bad[bits_at + 4 + 8 + 8] ^= 1;
  rechecksum(bad);
  EXPECT_EQ(import_status(bad, bad.size()), DPCOV_E_NORM_BOUND) << message();
  // G_01 (the second integer, packed column by column) moved by 2^117, beyond the mean of G_00
  // and G_11.
  bad = bytes;
  bad[bits_at + 4 + 8 + 16 + 14] ^= 0x20;
  rechecksum(bad);
  EXPECT_EQ(import_status(bad, bad.size()), DPCOV_E_NORM_BOUND) << message();
  // G_01 near +-2^126 (its top byte): 2 G_01 overflows 128 bits, so a check written as 2 g > sum
  // passed it, and a merge of two such states flipped the entry's sign.
  for (const unsigned char top : {0x40, 0x7f, 0xc0, 0x80}) {
    bad = bytes;
    bad[bits_at + 4 + 8 + 16 + 15] = top;
    rechecksum(bad);
    EXPECT_EQ(import_status(bad, bad.size()), DPCOV_E_NORM_BOUND) << int(top) << message();
  }
  // The drop-policy flag cleared on a state whose spec drops (found by fuzz_gram_state: the
  // import took the spec's word and exported other bytes).
  dpcov_row_bounding drops = exact_spec();
  drops.policy = DPCOV_BOUND_DROP;
  drops.neighbour = DPCOV_NEIGHBOUR_ADD_REMOVE;
  g = bounded(drops, kCols, 20, 0.1);
  bad = exported(g);
  dpcov_gram_destroy(&g);
  ASSERT_EQ(bad[28] & 2, 2);
  bad[28] ^= 2;
  rechecksum(bad);
  EXPECT_EQ(import_status(bad, bad.size()), DPCOV_E_INVALID_ARGUMENT) << message();
  EXPECT_NE(message().find("drop-policy flag"), std::string::npos);
  // An unknown kind.
  bad = bytes;
  bad[24] = 7;
  rechecksum(bad);
  EXPECT_EQ(import_status(bad, bad.size()), DPCOV_E_INVALID_ARGUMENT);
  // A spec the library refuses (epsilon 0 with an exact mechanism).
  const size_t epsilon_at = kRowsAt + 4 * 8 + 8 + 8 + 4 + 4 + 8 + 8 + 4 + 4;
  bad = bytes;
  std::memset(bad.data() + epsilon_at, 0, 8);
  rechecksum(bad);
  EXPECT_EQ(import_status(bad, bad.size()), DPCOV_E_INVALID_ARGUMENT) << message();
}

// A bounded accumulator reports its spec's bound: the rows of an accumulator made without a spec,
// summed at any bound, must not enter it (they were released as if within the spec's bound).
TEST(CapiGramState, ABoundedAndAnUnboundedAccumulatorDoNotMerge) {
  dpcov_row_bounding spec;
  ASSERT_EQ(dpcov_row_bounding_default(&spec), DPCOV_OK);
  spec.bound = 1.0;
  dpcov_gram *tight = nullptr, *loose = nullptr;
  ASSERT_EQ(dpcov_gram_create_bounded(&tight, kCols, &spec), DPCOV_OK) << message();
  ASSERT_EQ(dpcov_gram_create(&loose, kCols), DPCOV_OK);
  const std::vector<double> outlier = rows_of(1, kCols, 0.3);
  std::vector<double> far(outlier);
  for (double &v : far) v *= 1000.0;
  ASSERT_EQ(dpcov_gram_add_rows(loose, DPCOV_ROW_MAJOR, 1, kCols, far.data(), kCols, 1000.0,
                                DPCOV_BOUND_CLIP),
            DPCOV_OK);
  EXPECT_EQ(dpcov_gram_merge(tight, loose), DPCOV_E_INCOMPATIBLE);
  EXPECT_EQ(dpcov_gram_merge(loose, tight), DPCOV_E_INCOMPATIBLE);
  EXPECT_EQ(info_of(tight).rows, 0);
  dpcov_gram_destroy(&tight);
  dpcov_gram_destroy(&loose);
}

TEST(CapiGramState, MergeOfImportedStatesRefusesAnotherDimensionOrSpec) {
  const dpcov_row_bounding spec = exact_spec();
  dpcov_gram *a = bounded(spec, kCols, 30, 0.1);
  dpcov_gram *b = bounded(spec, kCols + 1, 30, 0.2);
  dpcov_row_bounding laplace = exact_spec(DPCOV_MECHANISM_LAPLACE_SYM);
  dpcov_gram *c = bounded(laplace, kCols, 30, 0.3);
  dpcov_row_bounding reject = spec;
  reject.policy = DPCOV_BOUND_REJECT;
  dpcov_gram *e = bounded(reject, kCols, 30, 0.3);
  dpcov_gram *ia = nullptr, *ib = nullptr, *ic = nullptr, *ie = nullptr;
  for (auto [from, to] : {std::pair{a, &ia}, std::pair{b, &ib}, std::pair{c, &ic},
                          std::pair{e, &ie}}) {
    const std::vector<unsigned char> bytes = exported(from);
    ASSERT_EQ(dpcov_gram_import_state(to, bytes.data(), bytes.size()), DPCOV_OK) << message();
  }
  EXPECT_EQ(dpcov_gram_merge(ia, ib), DPCOV_E_INCOMPATIBLE);
  EXPECT_EQ(dpcov_gram_merge(ia, ic), DPCOV_E_INCOMPATIBLE);
  // Same grid, another policy: the spec differs.
  EXPECT_EQ(dpcov_gram_merge(ia, ie), DPCOV_E_INCOMPATIBLE);
  EXPECT_NE(message().find("spec"), std::string::npos);
  // Merging imported states is merging the accumulators.
  dpcov_gram *a2 = bounded(spec, kCols, 40, 0.7);
  dpcov_gram *ia2 = nullptr;
  const std::vector<unsigned char> bytes = exported(a2);
  ASSERT_EQ(dpcov_gram_import_state(&ia2, bytes.data(), bytes.size()), DPCOV_OK) << message();
  ASSERT_EQ(dpcov_gram_merge(a, a2), DPCOV_OK);
  ASSERT_EQ(dpcov_gram_merge(ia, ia2), DPCOV_OK) << message();
  expect_same(a, ia);
  dpcov_gram_destroy(&a2);
  dpcov_gram_destroy(&ia2);
  for (dpcov_gram **g : {&a, &b, &c, &e, &ia, &ib, &ic, &ie}) dpcov_gram_destroy(g);
}

}  // namespace
