// Little-endian byte writer and bounds-checked reader for the saved states of the C ABI
// (dpcov_gram_export_state()): integers and doubles in a fixed byte order whatever the host's,
// and a BLAKE2b-256 checksum, so that a state moves between machines and processes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "../core/data/exact_gram.hpp"

namespace dpcov::capi {

// Bytes of the BLAKE2b checksum that ends a state.
inline constexpr size_t kChecksumBytes = 32;

class ByteWriter {
 public:
  void u32(uint32_t value) { le(value, 4); }
  void u64(uint64_t value) { le(value, 8); }
  void i32(int32_t value) { u32(static_cast<uint32_t>(value)); }
  void i64(int64_t value) { u64(static_cast<uint64_t>(value)); }
  void f64(double value);
  // Two's complement, 16 bytes, low word first.
  void i128(data::ExactInt value);
  // One byte at a time: GCC 12 warns falsely (stringop-overflow) on a range insert into an empty
  // vector.
  void raw(const unsigned char *data, size_t size) {
    for (size_t k = 0; k < size; ++k) bytes_.push_back(data[k]);
  }
  // Appends the checksum of every byte written so far.
  void checksum();
  std::vector<unsigned char> &bytes() { return bytes_; }

 private:
  void le(uint64_t value, int count);
  std::vector<unsigned char> bytes_;
};

// Reads a state's bytes in order; reading past the end throws DPCOV_E_INVALID_ARGUMENT (a
// truncated state).
class ByteReader {
 public:
  ByteReader(const unsigned char *data, size_t size) : data_(data), size_(size) {}
  uint32_t u32() { return static_cast<uint32_t>(le(4)); }
  uint64_t u64() { return le(8); }
  int32_t i32() { return static_cast<int32_t>(u32()); }
  int64_t i64() { return static_cast<int64_t>(u64()); }
  double f64();
  data::ExactInt i128();
  const unsigned char *take(size_t size);
  size_t position() const { return pos_; }
  size_t remaining() const { return size_ - pos_; }

 private:
  uint64_t le(int count);
  const unsigned char *data_;
  size_t size_;
  size_t pos_ = 0;
};

// Magic (8 bytes), format version, library major version, total length: how every state begins.
inline constexpr size_t kStateHeaderBytes = 8 + 4 + 4 + 8;

struct StateFormat {
  const unsigned char *magic;  // 8 bytes
  uint32_t version;
  const char *what;    // "Gram state", for messages
  const char *writer;  // the function that writes it, for messages
};

// The header's checks, in the order that gives the clearest message: what the bytes are, which
// format and library wrote them, whether they are all there, and whether they are intact.
// Throws DPCOV_E_INVALID_ARGUMENT, or DPCOV_E_INCOMPATIBLE for another format or major version.
void check_state_header(const unsigned char *buf, size_t len, const StateFormat &format);

// Writes the header with a zero length, which finish_state() sets.
void write_state_header(ByteWriter &w, const StateFormat &format);

// Sets the header's total length and appends the checksum; returns the bytes.
std::vector<unsigned char> finish_state(ByteWriter &w);

// Whether the last kChecksumBytes of data[0, size) are the checksum of the bytes before them.
bool checksum_matches(const unsigned char *data, size_t size);

}  // namespace dpcov::capi
