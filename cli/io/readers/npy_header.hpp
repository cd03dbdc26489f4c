// The header of a NumPy .npy file (format versions 1.0, 2.0 and 3.0) and the element types the
// binary readers convert to double.
#pragma once

#include <cstdint>
#include <string>

#include "byte_source.hpp"

namespace dpcov::cli {

// A scalar element type: kind 'f' (float), 'i' (signed) or 'u' (unsigned integer), its size in
// bytes, and its byte order. Integers convert exactly to double up to 2^53 in magnitude.
struct ElementType {
  char kind = 'f';
  int size = 8;
  bool big_endian = false;

  // The NumPy spelling, e.g. "<f8".
  std::string descr() const;
};

// Parses a NumPy dtype string such as "<f8", "|u1" or ">i4". Throws CliError(kExitInputData)
// naming `source` for anything else (structured, complex, half-precision, bool, text types).
ElementType parse_element_type(const std::string &descr, const std::string &source);

struct NpyHeader {
  int version_major = 1;
  ElementType type;
  bool fortran_order = false;
  int64_t rows = 0;
  int64_t cols = 0;          // 1 for a one-dimensional array (read as one column)
  uint64_t data_offset = 0;  // bytes before the first element
};

// Reads and consumes the magic string and the header. A one-dimensional array of n elements is
// read as n rows of one column. Throws CliError(kExitInputData) on a malformed header or a shape
// that is not one- or two-dimensional.
NpyHeader read_npy_header(ByteSource &source);

// True if `prefix` starts with the .npy magic string.
bool has_npy_magic(std::string_view prefix);

}  // namespace dpcov::cli
