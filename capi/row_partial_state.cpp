// C ABI of a pass's partial sums as bytes (dpcov/row_passes.h): how a pass reaches the processes
// that hold rows, and their sums come back to the session.
//
// Layout, every integer and double little-endian: the state header (magic "DPCOVRPS", u32 format
// version, u32 library major version, u64 total length; capi/state_bytes.hpp); the pass: i32 kind,
// i64 dim, i64 index, f64 pre_clip, i32 scale exponent, i32 moment exponent, u32 number of radii
// (1 or 2) and the radii, i64 histogram bins, u32 authors' code (0 or 1), u32 transform entries
// and the transform (column-major; a centred CoinPress pass's d^2 + d entries are its transform
// followed by its centre, which format 1 readers without centres refuse as malformed); then i64 rows, the histogram's i64 counts, and the upper
// triangle's running sum and its compensation, packed column by column (for a CoinPress mean
// pass, whose transform is its centre, the d entries of the sum vector and of its compensation).
// Last, the BLAKE2b-256 of every byte before it.
#include <cstddef>
#include <memory>
#include <vector>

#include "../core/check.hpp"
#include "../core/error.hpp"
#include "guard.hpp"
#include "row_pass_handle.hpp"
#include "state_bytes.hpp"

namespace {

using dpcov::fail;
using dpcov::Status;
namespace mech = dpcov::mechanisms;

constexpr unsigned char kMagic[8] = {'D', 'P', 'C', 'O', 'V', 'R', 'P', 'S'};
constexpr dpcov::capi::StateFormat kFormat{kMagic, 1, "pass partial",
                                           "dpcov_row_partial_export()"};

std::vector<unsigned char> encode(const mech::RowPartial &p) {
  dpcov::capi::ByteWriter w;
  dpcov::capi::write_state_header(w, kFormat);
  const mech::RowPass &pass = p.pass;
  w.i32(static_cast<int32_t>(pass.kind));
  w.i64(pass.dim);
  w.i64(pass.index);
  w.f64(pass.pre_clip);
  w.i32(pass.scale_exponent);
  w.i32(pass.moment_exponent);
  w.u32(static_cast<uint32_t>(pass.clip_radii.size()));
  for (double r : pass.clip_radii) w.f64(r);
  w.i64(pass.histogram_bins);
  w.u32(pass.authors_code ? 1 : 0);
  w.u32(static_cast<uint32_t>(pass.transform.size() + pass.centre.size()));
  for (double v : pass.transform) w.f64(v);
  for (double v : pass.centre) w.f64(v);
  w.i64(p.rows);
  for (int64_t c : p.counts) w.i64(c);
  for (const dpcov::Matrix *m : {&p.sum, &p.compensation})
    mech::for_each_sum_entry(pass, [&](int64_t i, int64_t j) { w.f64((*m)(i, j)); });
  return dpcov::capi::finish_state(w);
}

// `count` doubles, refused before any allocation when the buffer does not hold them.
std::vector<double> doubles(dpcov::capi::ByteReader &r, uint64_t count) {
  if (count > r.remaining() / 8)
    fail(Status::InvalidArgument, "the partial is truncated: it announces ", count,
         " values it does not hold");
  std::vector<double> out(static_cast<size_t>(count));
  for (double &v : out) v = r.f64();
  return out;
}

mech::RowPass read_pass(dpcov::capi::ByteReader &r) {
  mech::RowPass pass;
  pass.kind = static_cast<mech::RowPassKind>(r.i32());
  pass.dim = r.i64();
  pass.index = r.i64();
  pass.pre_clip = r.f64();
  pass.scale_exponent = r.i32();
  pass.moment_exponent = r.i32();
  pass.clip_radii = doubles(r, r.u32());
  pass.histogram_bins = r.i64();
  const uint32_t authors_code = r.u32();
  if (authors_code > 1)
    fail(Status::InvalidArgument, "the partial's authors' code flag is ", authors_code);
  pass.authors_code = authors_code == 1;
  pass.transform = doubles(r, r.u32());
  // Below 2^16, d^2 + d cannot wrap around (check_row_pass refuses larger d anyway).
  const uint64_t d = pass.dim > 0 && pass.dim < 65536 ? static_cast<uint64_t>(pass.dim) : 0;
  if (pass.kind == mech::RowPassKind::CoinpressStep && d > 0 && pass.transform.size() == d * d + d) {
    pass.centre.assign(pass.transform.end() - static_cast<std::ptrdiff_t>(d), pass.transform.end());
    pass.transform.resize(static_cast<size_t>(d * d));
  }
  mech::check_row_pass(pass);
  return pass;
}

mech::RowPartial decode(const unsigned char *buf, size_t len) {
  dpcov::capi::check_state_header(buf, len, kFormat);
  const size_t header = dpcov::capi::kStateHeaderBytes;
  dpcov::capi::ByteReader r(buf + header, len - header - dpcov::capi::kChecksumBytes);
  const mech::RowPass pass = read_pass(r);
  // Before any allocation of O(d^2): the buffer must back the pass's sums.
  if (mech::sum_entry_count(pass) > r.remaining() / 16)
    fail(Status::InvalidArgument, "the partial is truncated: its dimension ", pass.dim,
         " needs more bytes than it holds");
  mech::RowPartial p = mech::row_partial(pass);
  p.rows = r.i64();
  for (int64_t &c : p.counts) c = r.i64();
  for (dpcov::Matrix *m : {&p.sum, &p.compensation})
    mech::for_each_sum_entry(pass, [&](int64_t i, int64_t j) { (*m)(i, j) = r.f64(); });
  if (r.remaining() != 0)
    fail(Status::InvalidArgument, "the partial has ", r.remaining(), " bytes after its sums");
  mech::check_partial_sums(p);
  return p;
}

}  // namespace

extern "C" {

dpcov_status dpcov_row_partial_export(const dpcov_row_partial *partial, void *buf, size_t cap,
                                      size_t *written) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(partial, "partial");
    dpcov::check::not_null(written, "written");
    const std::vector<unsigned char> bytes = encode(partial->partial);
    if (buf != nullptr) {
      if (cap < bytes.size())
        fail(Status::BufferTooSmall, "the partial needs ", bytes.size(), " bytes, the buffer has ",
             cap);
      std::copy(bytes.begin(), bytes.end(), static_cast<unsigned char *>(buf));
    }
    *written = bytes.size();
  });
}

dpcov_status dpcov_row_partial_import(dpcov_row_partial **out, const void *buf, size_t len) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(out, "out");
    dpcov::check::not_null(buf, "buf");
    auto partial = std::make_unique<dpcov_row_partial>();
    partial->partial = decode(static_cast<const unsigned char *>(buf), len);
    *out = partial.release();
  });
}

}  // extern "C"
