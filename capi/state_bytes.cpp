#include "state_bytes.hpp"

#include <sodium.h>

#include <bit>
#include <cstring>
#include <string>

#include "../core/error.hpp"
#include "dpcov/version.h"

namespace dpcov::capi {

namespace {

// BLAKE2b needs no sodium_init(): its portable implementation is the default, and the checksum
// is the same whichever implementation computes it.
void blake2b(const unsigned char *data, size_t size, unsigned char *out) {
  if (crypto_generichash(out, kChecksumBytes, data, size, nullptr, 0) != 0)
    fail(dpcov::Status::Internal, "BLAKE2b failed");
}

}  // namespace

void ByteWriter::le(uint64_t value, int count) {
  for (int k = 0; k < count; ++k) bytes_.push_back(static_cast<unsigned char>(value >> (8 * k)));
}

void ByteWriter::f64(double value) { u64(std::bit_cast<uint64_t>(value)); }

void ByteWriter::i128(data::ExactInt value) {
  __extension__ typedef unsigned __int128 Unsigned;
  const Unsigned bits = static_cast<Unsigned>(value);
  u64(static_cast<uint64_t>(bits));
  u64(static_cast<uint64_t>(bits >> 64));
}

void ByteWriter::checksum() {
  unsigned char sum[kChecksumBytes];
  blake2b(bytes_.data(), bytes_.size(), sum);
  raw(sum, kChecksumBytes);
}

uint64_t ByteReader::le(int count) {
  const unsigned char *p = take(static_cast<size_t>(count));
  uint64_t value = 0;
  for (int k = 0; k < count; ++k) value |= static_cast<uint64_t>(p[k]) << (8 * k);
  return value;
}

double ByteReader::f64() { return std::bit_cast<double>(u64()); }

data::ExactInt ByteReader::i128() {
  __extension__ typedef unsigned __int128 Unsigned;
  const uint64_t low = u64();
  const uint64_t high = u64();
  return static_cast<data::ExactInt>((static_cast<Unsigned>(high) << 64) | low);
}

const unsigned char *ByteReader::take(size_t size) {
  if (size > size_ - pos_)
    fail(dpcov::Status::InvalidArgument, "the state is truncated: ", size_, " bytes, more needed at byte ",
         pos_);
  const unsigned char *p = data_ + pos_;
  pos_ += size;
  return p;
}

bool checksum_matches(const unsigned char *data, size_t size) {
  if (size < kChecksumBytes) return false;
  unsigned char sum[kChecksumBytes];
  blake2b(data, size - kChecksumBytes, sum);
  return std::memcmp(sum, data + size - kChecksumBytes, kChecksumBytes) == 0;
}

void check_state_header(const unsigned char *buf, size_t len, const StateFormat &format) {
  if (len < kStateHeaderBytes)
    fail(Status::InvalidArgument, "the state is truncated: ", len, " bytes, shorter than its ",
         kStateHeaderBytes, "-byte header");
  if (std::memcmp(buf, format.magic, 8) != 0)
    fail(Status::InvalidArgument, "not a dpcov ", format.what, ": wrong magic (expected \"",
         std::string(reinterpret_cast<const char *>(format.magic), 8), "\", as ", format.writer,
         " writes)");
  ByteReader r(buf + 8, kStateHeaderBytes - 8);
  const uint32_t version = r.u32();
  const uint32_t major = r.u32();
  const uint64_t total = r.u64();
  if (version != format.version)
    fail(Status::Incompatible, "the state has format version ", version,
         "; this library reads version ", format.version);
  if (major != DPCOV_VERSION_MAJOR)
    fail(Status::Incompatible, "the state was written by library major version ", major,
         "; this library is major version ", DPCOV_VERSION_MAJOR,
         " (its grids and plans may differ)");
  if (total > len) fail(Status::InvalidArgument, "the state is truncated: ", len, " of its ", total, " bytes");
  if (total < len)
    fail(Status::InvalidArgument, "the buffer holds ", len - total, " bytes after the state's ",
         total);
  if (!checksum_matches(buf, len))
    fail(Status::InvalidArgument, "the state is corrupted: its BLAKE2b checksum does not ",
         "match its bytes");
}

void write_state_header(ByteWriter &w, const StateFormat &format) {
  w.raw(format.magic, 8);
  w.u32(format.version);
  w.u32(DPCOV_VERSION_MAJOR);
  w.u64(0);
}

std::vector<unsigned char> finish_state(ByteWriter &w) {
  std::vector<unsigned char> &bytes = w.bytes();
  const uint64_t total = bytes.size() + kChecksumBytes;
  for (int k = 0; k < 8; ++k) bytes[16 + k] = static_cast<unsigned char>(total >> (8 * k));
  w.checksum();
  return std::move(bytes);
}

}  // namespace dpcov::capi
