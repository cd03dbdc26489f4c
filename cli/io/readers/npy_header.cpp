#include "npy_header.hpp"

#include <charconv>
#include <cstring>
#include <limits>
#include <vector>

#include "../../cli_error.hpp"

namespace dpcov::cli {

namespace {

constexpr std::string_view kMagic("\x93NUMPY", 6);

// The text after `'key':` in the header dictionary, with leading spaces removed.
std::string_view value_of(std::string_view dict, std::string_view key, const std::string &source) {
  for (const char quote : {'\'', '"'}) {
    const std::string quoted = std::string(1, quote) + std::string(key) + quote;
    size_t at = dict.find(quoted);
    if (at == std::string_view::npos) continue;
    at = dict.find(':', at + quoted.size());
    if (at == std::string_view::npos) break;
    std::string_view rest = dict.substr(at + 1);
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    return rest;
  }
  fail(kExitInputData, source, ": .npy header has no '", key, "' entry: ", dict);
}

std::vector<int64_t> parse_shape(std::string_view text, const std::string &source) {
  const size_t close = text.find(')');
  if (text.empty() || text.front() != '(' || close == std::string_view::npos)
    fail(kExitInputData, source, ": .npy header has a malformed shape: ", text);
  std::vector<int64_t> shape;
  std::string_view inside = text.substr(1, close - 1);
  while (!inside.empty()) {
    while (!inside.empty() && (inside.front() == ' ' || inside.front() == ',')) inside.remove_prefix(1);
    if (inside.empty()) break;
    int64_t extent = 0;
    const auto [end, ec] = std::from_chars(inside.data(), inside.data() + inside.size(), extent);
    if (ec != std::errc() || extent < 0)
      fail(kExitInputData, source, ": .npy header has a malformed shape: ", text.substr(0, close + 1));
    shape.push_back(extent);
    inside.remove_prefix(static_cast<size_t>(end - inside.data()));
    while (!inside.empty() && inside.front() == 'L') inside.remove_prefix(1);  // Python 2 longs
  }
  return shape;
}

// The keys of the header dictionary, at its top level (the values are skipped: quoted strings,
// tuples, booleans).
std::vector<std::string_view> dict_keys(std::string_view dict) {
  std::vector<std::string_view> keys;
  int depth = 0;
  bool expect_key = false;
  for (size_t i = 0; i < dict.size(); ++i) {
    const char c = dict[i];
    if (c == '\'' || c == '"') {
      const size_t close = dict.find(c, i + 1);
      if (close == std::string_view::npos) break;
      if (depth == 1 && expect_key) keys.push_back(dict.substr(i + 1, close - i - 1));
      expect_key = false;
      i = close;
    } else if (c == '{' || c == '(' || c == '[') {
      expect_key = ++depth == 1;
    } else if (c == '}' || c == ')' || c == ']') {
      --depth;
    } else if (c == ',' && depth == 1) {
      expect_key = true;
    } else if (c != ' ' && c != '\n') {
      expect_key = false;
    }
  }
  return keys;
}

// NumPy writes exactly descr, fortran_order and shape. Another key is a format this reader does
// not know, whose meaning it would silently ignore; a repeated key makes the first one win here
// and the last in Python.
void check_keys(std::string_view dict, const std::string &source) {
  std::vector<std::string_view> seen;
  for (const std::string_view key : dict_keys(dict)) {
    if (key != "descr" && key != "fortran_order" && key != "shape")
      fail(kExitInputData, source, ": .npy header has an unknown key '", excerpt(key),
           "' (NumPy's format has only 'descr', 'fortran_order' and 'shape')");
    for (const std::string_view earlier : seen)
      if (earlier == key) fail(kExitInputData, source, ": .npy header gives '", key, "' twice");
    seen.push_back(key);
  }
}

uint32_t little_endian(const unsigned char *bytes, int count) {
  uint32_t value = 0;
  for (int k = count - 1; k >= 0; --k) value = (value << 8) | bytes[k];
  return value;
}

}  // namespace

std::string ElementType::descr() const {
  return concat(size == 1 ? '|' : (big_endian ? '>' : '<'), kind, size);
}

ElementType parse_element_type(const std::string &descr, const std::string &source) {
  ElementType type;
  std::string_view rest(descr);
  if (!rest.empty() && (rest.front() == '<' || rest.front() == '>' || rest.front() == '|' ||
                        rest.front() == '=')) {
    type.big_endian = rest.front() == '>';
    rest.remove_prefix(1);
  }
  const bool known = rest == "f4" || rest == "f8" || rest == "i1" || rest == "i2" || rest == "i4" ||
                     rest == "i8" || rest == "u1" || rest == "u2" || rest == "u4" || rest == "u8";
  if (!known)
    fail(kExitInputData, source, ": unsupported element type '", descr,
         "': dpcov reads float32/float64 and 8- to 64-bit integers (convert with "
         "array.astype(numpy.float64))");
  type.kind = rest[0];
  type.size = rest[1] - '0';
  return type;
}

bool has_npy_magic(std::string_view prefix) {
  return prefix.size() >= kMagic.size() && prefix.substr(0, kMagic.size()) == kMagic;
}

NpyHeader read_npy_header(ByteSource &source) {
  const std::string &name = source.name();
  unsigned char preamble[12];
  if (source.read(reinterpret_cast<char *>(preamble), 10) != 10 ||
      !has_npy_magic({reinterpret_cast<char *>(preamble), 6}))
    fail(kExitInputData, name, ": not a .npy file (no \\x93NUMPY magic string)");
  NpyHeader header;
  header.version_major = preamble[6];
  if (header.version_major < 1 || header.version_major > 3)
    fail(kExitInputData, name, ": unsupported .npy format version ", header.version_major, '.',
         static_cast<int>(preamble[7]), " (1.0, 2.0 and 3.0 are read)");
  // Version 1.0 stores the header length in 2 bytes, versions 2.0 and 3.0 in 4.
  uint64_t length = little_endian(preamble + 8, 2);
  uint64_t offset = 10;
  if (header.version_major >= 2) {
    if (source.read(reinterpret_cast<char *>(preamble + 10), 2) != 2)
      fail(kExitInputData, name, ": .npy header is truncated");
    length = little_endian(preamble + 8, 4);
    offset = 12;
  }
  // Real headers are a few hundred bytes; a huge length is a corrupt file, not a reason to
  // allocate gigabytes.
  constexpr uint64_t kMaxHeaderBytes = uint64_t{1} << 20;
  if (length > kMaxHeaderBytes)
    fail(kExitInputData, name, ": .npy header length ", length, " is implausible (corrupt file?)");
  std::string dict(length, '\0');
  if (source.read(dict.data(), length) != length)
    fail(kExitInputData, name, ": .npy header is truncated");
  header.data_offset = offset + length;
  check_keys(dict, name);

  std::string_view descr = value_of(dict, "descr", name);
  if (descr.empty() || (descr.front() != '\'' && descr.front() != '"'))
    fail(kExitInputData, name, ": unsupported element type ", descr.substr(0, descr.find('}')),
         " (structured arrays are not read: save a plain float64 array)");
  const size_t descr_end = descr.find(descr.front(), 1);
  if (descr_end == std::string_view::npos)
    fail(kExitInputData, name, ": .npy header has a malformed descr: ", dict);
  header.type = parse_element_type(std::string(descr.substr(1, descr_end - 1)), name);

  const std::string_view order = value_of(dict, "fortran_order", name);
  if (order.substr(0, 4) == "True")
    header.fortran_order = true;
  else if (order.substr(0, 5) != "False")
    fail(kExitInputData, name, ": .npy header has a malformed fortran_order: ", dict);

  const std::vector<int64_t> shape = parse_shape(value_of(dict, "shape", name), name);
  if (shape.empty() || shape.size() > 2)
    fail(kExitInputData, name, ": the array has ", shape.size(),
         " dimensions; dpcov reads a matrix (2 dimensions: rows x columns) or a vector (1)");
  header.rows = shape[0];
  header.cols = shape.size() == 2 ? shape[1] : 1;
  if (header.cols == 0) fail(kExitInputData, name, ": the array has no columns");
  const uint64_t max_elements = std::numeric_limits<uint64_t>::max() / 8;
  if (header.rows > 0 &&
      static_cast<uint64_t>(header.cols) > max_elements / static_cast<uint64_t>(header.rows))
    fail(kExitInputData, name, ": the shape ", header.rows, " x ", header.cols, " is too large");
  return header;
}

}  // namespace dpcov::cli
