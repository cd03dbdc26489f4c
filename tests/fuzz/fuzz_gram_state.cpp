// Saved Gram states (dpcov_gram_import_state, dpcov_gram_export_state): any bytes, and valid
// states of fuzzed specs and rows with fuzzed bytes changed, with the checksum written again or
// not (a forger's state). Import returns a known status and leaves its output untouched on
// error; an accepted state exports back to exactly its own bytes, holds a finite, exactly
// symmetric matrix (or refuses one that overflows a double), and merges with its copy or fails
// cleanly.
#include <sodium.h>

#include <vector>

#include "fuzz_input.hpp"

namespace {

// A valid state of a bounded accumulator of fuzzed spec and rows, or an empty vector when the
// spec or rows are refused.
std::vector<unsigned char> valid_state(fuzz::Input &in) {
  const int64_t cols = in.range(1, 4);
  dpcov_row_bounding spec;
  if (dpcov_row_bounding_default(&spec) != DPCOV_OK) fuzz::violated("bounding default");
  spec.bound = in.positive();
  spec.policy = static_cast<int32_t>(in.range(0, 2));
  spec.neighbour = static_cast<int32_t>(in.range(0, 1));
  if (in.range(0, 1)) spec.constant = spec.bound;
  spec.numerics = static_cast<int32_t>(in.range(0, 1));
  spec.mechanism = static_cast<int32_t>(in.range(0, 4));
  spec.epsilon = fuzz::budget(in);
  dpcov_gram *g = nullptr;
  if (dpcov_gram_create_bounded(&g, cols, &spec) != DPCOV_OK) return {};
  std::vector<double> a(static_cast<size_t>(8 * cols));
  for (double &v : a) v = in.number();
  fuzz::known_status(dpcov_gram_add_raw_rows(g, DPCOV_ROW_MAJOR, 8, cols, a.data(), cols, nullptr));
  size_t size = 0;
  if (dpcov_gram_export_state(g, nullptr, 0, &size) != DPCOV_OK) fuzz::violated("size query");
  std::vector<unsigned char> bytes(size);
  if (dpcov_gram_export_state(g, bytes.data(), size, &size) != DPCOV_OK) fuzz::violated("export");
  dpcov_gram_destroy(&g);
  return bytes;
}

void check_import(const std::vector<unsigned char> &bytes) {
  dpcov_gram *canary = reinterpret_cast<dpcov_gram *>(0x10);
  dpcov_gram *g = canary;
  const dpcov_status s = dpcov_gram_import_state(&g, bytes.data(), bytes.size());
  fuzz::known_status(s);
  if (s != DPCOV_OK) {
    fuzz::require(g == canary, "handle set on error");
    return;
  }
  size_t size = 0;
  fuzz::require(dpcov_gram_export_state(g, nullptr, 0, &size) == DPCOV_OK, "size of imported");
  std::vector<unsigned char> again(size);
  fuzz::require(dpcov_gram_export_state(g, again.data(), size, &size) == DPCOV_OK, "re-export");
  fuzz::require(again == bytes, "an imported state does not export to its own bytes");
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  fuzz::require(dpcov_gram_get_info(g, &info) == DPCOV_OK, "info of imported");
  // The exact kind's matrix in data units can overflow near B = 1e300: refused, untouched.
  std::vector<double> m = fuzz::canaries(static_cast<size_t>(info.dim * info.dim));
  const dpcov_status got = dpcov_gram_get_matrix(g, DPCOV_ROW_MAJOR, m.data(), info.dim);
  fuzz::require(got == DPCOV_OK || got == DPCOV_E_NUMERICAL, "get");
  if (got == DPCOV_OK) {
    fuzz::finite(m.data(), m.size(), "imported matrix");
    fuzz::symmetric(m.data(), info.dim, info.dim, "imported matrix");
  } else {
    fuzz::unchanged(m, "matrix written on error");
  }
  dpcov_gram *copy = nullptr;
  fuzz::require(dpcov_gram_import_state(&copy, bytes.data(), bytes.size()) == DPCOV_OK, "copy");
  fuzz::known_status(dpcov_gram_merge(g, copy));
  dpcov_gram_destroy(&copy);
  dpcov_gram_destroy(&g);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::Input in(data, size);
  std::vector<unsigned char> bytes;
  if (in.range(0, 3) == 0) {
    while (!in.empty()) bytes.push_back(in.raw<unsigned char>());
    check_import(bytes);
    return 0;
  }
  bytes = valid_state(in);
  if (bytes.empty()) return 0;
  const int64_t changes = in.range(0, 4);
  for (int64_t k = 0; k < changes; ++k)
    bytes[static_cast<size_t>(in.range(0, static_cast<int64_t>(bytes.size()) - 1))] ^=
        in.raw<unsigned char>();
  if (in.range(0, 3) == 0) bytes.resize(static_cast<size_t>(in.range(0, static_cast<int64_t>(bytes.size()))));
  if (in.range(0, 1) && bytes.size() >= 32 &&
      crypto_generichash(bytes.data() + bytes.size() - 32, 32, bytes.data(), bytes.size() - 32,
                         nullptr, 0) != 0)
    fuzz::violated("BLAKE2b");
  check_import(bytes);
  return 0;
}
