#include "state_bytes.hpp"

#include <sodium.h>

#include <bit>
#include <cstring>

#include "../core/error.hpp"

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

}  // namespace dpcov::capi
