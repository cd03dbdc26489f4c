// C ABI of the Gram accumulator's saved state (dpcov/gram.h): the byte format that carries an
// accumulator, exact or floating-point, between processes, so that states from partitions merge
// with dpcov_gram_merge() as the accumulators themselves would.
//
// Layout, every integer and double little-endian: magic "DPCOVGRM", u32 format version, u32
// library major version, u64 total length, u32 kind (0 floating-point, 1 exact), u32 flags
// (bit 0: made by dpcov_gram_create_bounded(), bit 1: a drop policy was used, bit 2: privacy
// units, bit 3: balanced rows), i64 dim, i64 rows, clipped, dropped, clamped; with bit 0 the bounding spec (i64 cols, f64
// bound, i32 policy, i32 neighbour, f64 constant, f64 label_bound, i32 numerics, i32 mechanism,
// f64 epsilon, f64 delta, u32 column bounds, then cols lower and cols upper bounds when 1); with
// bit 2 the finished units (i64 k, i64 units, i64 truncated, u32 ranges, then each range's first
// and last id as i64); the exact kind: f64 grid bound,
// i32 bits, i64 bound on ||z||^2, then the d (d + 1) / 2 integers of the upper triangle, packed
// column by column, 16 bytes each in two's complement; the floating-point kind: f64 bound, then
// the packed running sum and its compensation. Last, the BLAKE2b-256 of every byte before it.
#include <cstring>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "../core/check.hpp"
#include "../core/error.hpp"
#include "dpcov/gram.h"
#include "gram_handle.hpp"
#include "guard.hpp"
#include "state_bytes.hpp"

namespace {

constexpr unsigned char kMagic[8] = {'D', 'P', 'C', 'O', 'V', 'G', 'R', 'M'};
constexpr uint32_t kFormatVersion = 1;
constexpr dpcov::capi::StateFormat kFormat{kMagic, kFormatVersion, "Gram state",
                                           "dpcov_gram_export_state()"};
constexpr uint32_t kKindFloat = 0;
constexpr uint32_t kKindExact = 1;
constexpr uint32_t kFlagBounded = 1;
constexpr uint32_t kFlagDropPolicy = 2;
constexpr uint32_t kFlagUnits = 4;
constexpr uint32_t kFlagBalanced = 8;
constexpr size_t kHeaderBytes = dpcov::capi::kStateHeaderBytes;
// Bytes per packed entry of either kind: one 128-bit integer, or a sum and its compensation.
constexpr size_t kEntryBytes = 16;

void write_spec(dpcov::capi::ByteWriter &w, const dpcov::capi::StoredBounding &stored,
                int64_t cols) {
  const dpcov_row_bounding &s = stored.spec;
  w.i64(cols);
  w.f64(s.bound);
  w.i32(s.policy);
  w.i32(s.neighbour);
  w.f64(s.constant);
  w.f64(s.label_bound);
  w.i32(s.numerics);
  w.i32(s.mechanism);
  w.f64(s.epsilon);
  w.f64(s.delta);
  w.u32(stored.lower.empty() ? 0 : 1);
  for (double v : stored.lower) w.f64(v);
  for (double v : stored.upper) w.f64(v);
}

// Only a finished sampler is saved: an open unit's reservoir holds raw rows, which a state never
// carries, and the unit may continue in another partition.
void write_units(dpcov::capi::ByteWriter &w, const dpcov::data::UnitSampler &units) {
  if (units.open())
    dpcov::fail(dpcov::Status::Precondition, "gram has an open privacy unit: call ",
                "dpcov_gram_finish_units() before exporting its state");
  w.i64(units.max_rows_per_unit());
  w.i64(units.units());
  w.i64(units.truncated());
  w.u32(static_cast<uint32_t>(units.ranges().size()));
  for (const auto &[first, last] : units.ranges()) {
    w.i64(first);
    w.i64(last);
  }
}

std::vector<unsigned char> encode(const dpcov_gram &gram) {
  const dpcov::GramCounts &c = gram.exact ? gram.exact->counts() : gram.acc.counts();
  dpcov::capi::ByteWriter w;
  dpcov::capi::write_state_header(w, kFormat);
  w.u32(gram.exact ? kKindExact : kKindFloat);
  const bool balanced = gram.spec && gram.spec->spec.balanced != 0;
  w.u32((gram.spec ? kFlagBounded : 0) | (c.drop_policy ? kFlagDropPolicy : 0) |
        (gram.units ? kFlagUnits : 0) | (balanced ? kFlagBalanced : 0));
  w.i64(gram.exact ? gram.exact->grid().dim : gram.acc.dim());
  w.i64(c.rows);
  w.i64(c.clipped);
  w.i64(c.dropped);
  w.i64(c.clamped);
  if (gram.spec) write_spec(w, *gram.spec, gram.bounding->cols());
  if (gram.units) write_units(w, *gram.units);
  if (gram.exact) {
    const dpcov::data::ExactGridSpec &grid = gram.exact->grid();
    w.f64(grid.bound);
    w.i32(grid.bits);
    w.i64(grid.norm2_bound);
    for (dpcov::data::ExactInt v : gram.exact->upper()) w.i128(v);
  } else {
    std::vector<double> sum, comp;
    gram.acc.upper_parts(sum, comp);
    w.f64(gram.acc.bound());
    for (double v : sum) w.f64(v);
    for (double v : comp) w.f64(v);
  }
  return dpcov::capi::finish_state(w);
}

void check_header(const unsigned char *buf, size_t len) {
  dpcov::capi::check_state_header(buf, len, kFormat);
}

dpcov::capi::StoredBounding read_spec(dpcov::capi::ByteReader &r, int64_t &cols) {
  dpcov::capi::StoredBounding stored{};
  dpcov_row_bounding &s = stored.spec;
  if (dpcov_row_bounding_default(&s) != DPCOV_OK)
    dpcov::fail(dpcov::Status::Internal, "row bounding defaults");
  cols = r.i64();
  dpcov::check::dimension(cols, "the state's raw columns");
  s.bound = r.f64();
  s.policy = r.i32();
  s.neighbour = r.i32();
  s.constant = r.f64();
  s.label_bound = r.f64();
  s.numerics = r.i32();
  s.mechanism = r.i32();
  s.epsilon = r.f64();
  s.delta = r.f64();
  const uint32_t column_bounds = r.u32();
  if (column_bounds > 1)
    dpcov::fail(dpcov::Status::InvalidArgument, "the state's column bounds flag is ", column_bounds);
  if (column_bounds == 1) {
    // Read one by one: the reader refuses a count the buffer does not hold before any allocation.
    for (int64_t j = 0; j < cols; ++j) stored.lower.push_back(r.f64());
    for (int64_t j = 0; j < cols; ++j) stored.upper.push_back(r.f64());
    s.lower = stored.lower.data();
    s.upper = stored.upper.data();
  }
  return stored;
}

dpcov::data::UnitSampler read_units(dpcov::capi::ByteReader &r, int64_t cols) {
  const int64_t k = r.i64();
  const int64_t units = r.i64();
  const int64_t truncated = r.i64();
  const uint32_t count = r.u32();
  // Read one by one: the reader refuses a count the buffer does not hold before any allocation.
  std::vector<std::pair<int64_t, int64_t>> ranges;
  for (uint32_t i = 0; i < count; ++i) {
    const int64_t first = r.i64();
    ranges.emplace_back(first, r.i64());
  }
  return dpcov::data::UnitSampler::from_state(k, cols, std::move(ranges), units, truncated);
}

// The packed triangle's entries of a state of dimension `dim`, after checking that what is left
// of the buffer holds them at `bytes_each` (so that a forged dimension cannot ask for memory the
// buffer does not back).
size_t packed_entries(const dpcov::capi::ByteReader &r, int64_t dim, size_t bytes_each) {
  dpcov::check::dimension(dim, "the state's dimension");
  const uint64_t entries = static_cast<uint64_t>(dim) * static_cast<uint64_t>(dim + 1) / 2;
  if (entries > r.remaining() / bytes_each)
    dpcov::fail(dpcov::Status::InvalidArgument, "the state is truncated: its dimension ", dim,
                " needs more bytes than it holds");
  return static_cast<size_t>(entries);
}

void restore_exact(dpcov_gram &gram, dpcov::capi::ByteReader &r, const dpcov::GramCounts &counts) {
  dpcov::data::ExactGridSpec grid;
  grid.dim = gram.exact->grid().dim;
  grid.bound = r.f64();
  grid.bits = r.i32();
  grid.norm2_bound = r.i64();
  if (!(grid == gram.exact->grid()))
    dpcov::fail(dpcov::Status::Incompatible, "the state's grid (B ", grid.bound, ", bits ", grid.bits,
                ", r2 ", grid.norm2_bound, ") is not the one this library plans for its spec (B ",
                gram.exact->grid().bound, ", bits ", gram.exact->grid().bits, ", r2 ",
                gram.exact->grid().norm2_bound, ")");
  std::vector<dpcov::data::ExactInt> upper(packed_entries(r, grid.dim, kEntryBytes));
  for (dpcov::data::ExactInt &v : upper) v = r.i128();
  gram.exact = dpcov::data::ExactGramAccumulator::from_state(grid, gram.exact->policy(), counts,
                                                             std::move(upper));
}

void restore_float(dpcov_gram &gram, dpcov::capi::ByteReader &r, const dpcov::GramCounts &counts) {
  const double bound = r.f64();
  const size_t entries = packed_entries(r, gram.acc.dim(), kEntryBytes);
  std::vector<double> sum(entries), comp(entries);
  for (double &v : sum) v = r.f64();
  for (double &v : comp) v = r.f64();
  gram.acc = dpcov::GramAccumulator::from_parts(gram.acc.dim(), sum, comp, counts, bound);
}

std::unique_ptr<dpcov_gram> decode(const unsigned char *buf, size_t len) {
  check_header(buf, len);
  dpcov::capi::ByteReader r(buf + kHeaderBytes, len - kHeaderBytes - dpcov::capi::kChecksumBytes);
  const uint32_t kind = r.u32();
  const uint32_t flags = r.u32();
  if (kind != kKindFloat && kind != kKindExact)
    dpcov::fail(dpcov::Status::InvalidArgument, "the state's kind is ", kind, " (0 or 1 expected)");
  if ((flags & ~(kFlagBounded | kFlagDropPolicy | kFlagUnits | kFlagBalanced)) != 0 ||
      ((flags & kFlagBalanced) != 0 && (flags & kFlagBounded) == 0))
    dpcov::fail(dpcov::Status::InvalidArgument, "the state has unknown flags ", flags);
  const int64_t dim = r.i64();
  // Before any allocation of O(d^2): the buffer must back its dimension's matrix.
  static_cast<void>(packed_entries(r, dim, kEntryBytes));
  dpcov::GramCounts counts;
  counts.rows = r.i64();
  counts.clipped = r.i64();
  counts.dropped = r.i64();
  counts.clamped = r.i64();
  counts.drop_policy = (flags & kFlagDropPolicy) != 0;
  std::unique_ptr<dpcov_gram> gram;
  if ((flags & kFlagBounded) != 0) {
    int64_t cols = 0;
    dpcov::capi::StoredBounding stored = read_spec(r, cols);
    stored.spec.balanced = (flags & kFlagBalanced) != 0 ? 1 : 0;
    if (cols > dim)
      dpcov::fail(dpcov::Status::Dimension, "the state's spec has ", cols, " raw columns, more than its ",
                  "dimension ", dim);
    std::optional<dpcov::data::UnitSampler> units;
    if ((flags & kFlagUnits) != 0) {
      units = read_units(r, cols);
      stored.spec.max_rows_per_unit = units->max_rows_per_unit();
      const int64_t k = units->max_rows_per_unit();
      if (counts.rows < 0 || counts.rows / k + (counts.rows % k != 0 ? 1 : 0) > units->units())
        dpcov::fail(dpcov::Status::InvalidArgument, "the state holds more rows than its units of ",
                    "at most ", units->max_rows_per_unit(), " rows can");
    }
    gram = dpcov::capi::bounded_gram(cols, &stored.spec);
    gram->units = std::move(units);
  } else if ((flags & kFlagUnits) != 0) {
    dpcov::fail(dpcov::Status::InvalidArgument, "the state has privacy units but no bounding spec");
  } else {
    gram = std::make_unique<dpcov_gram>(dpcov_gram{dpcov::GramAccumulator(dim)});
  }
  const int64_t made = gram->exact ? gram->exact->grid().dim : gram->acc.dim();
  if (made != dim)
    dpcov::fail(dpcov::Status::Dimension, "the state's dimension ", dim, " is not its spec's ", made);
  if ((kind == kKindExact) != gram->exact.has_value())
    dpcov::fail(dpcov::Status::Incompatible, "the state is ", kind == kKindExact ? "exact" : "idealized",
                " but its spec makes an ", gram->exact ? "exact" : "idealized", " accumulator");
  // A drop policy in the spec, or dropped rows, set the flag; a set flag alone is allowed (rows
  // added with dpcov_gram_add_rows() under the drop policy set it too).
  const bool spec_drops = gram->exact ? gram->exact->counts().drop_policy
                                      : gram->acc.counts().drop_policy;
  if ((spec_drops || counts.dropped > 0) && !counts.drop_policy)
    dpcov::fail(dpcov::Status::InvalidArgument, "the state's drop-policy flag is clear, but its spec ",
                "drops rows or its counters count dropped rows");
  if (gram->exact)
    restore_exact(*gram, r, counts);
  else
    restore_float(*gram, r, counts);
  if (r.remaining() != 0)
    dpcov::fail(dpcov::Status::InvalidArgument, "the state has ", r.remaining(),
                " unread bytes before its checksum");
  return gram;
}

}  // namespace

extern "C" {

DPCOV_API dpcov_status dpcov_gram_export_state(const dpcov_gram *gram, void *buf, size_t cap,
                                               size_t *written) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(gram, "gram");
    dpcov::check::not_null(written, "written");
    const std::vector<unsigned char> bytes = encode(*gram);
    if (buf == nullptr) {
      *written = bytes.size();
      return;
    }
    if (cap < bytes.size())
      dpcov::fail(dpcov::Status::BufferTooSmall, "the state needs ", bytes.size(), " bytes, cap is ",
                  cap, " (query the size with buf NULL)");
    std::memcpy(buf, bytes.data(), bytes.size());
    *written = bytes.size();
  });
}

DPCOV_API dpcov_status dpcov_gram_import_state(dpcov_gram **out, const void *buf, size_t len) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(out, "out");
    dpcov::check::not_null(buf, "buf");
    *out = decode(static_cast<const unsigned char *>(buf), len).release();
  });
}

}  // extern "C"
