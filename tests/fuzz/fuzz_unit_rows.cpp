// The rows privacy units keep for the zCDP row mechanisms (dpcov_unit_rows_keep): any k, shape,
// leading dimensions, values and ids, sorted or not. On error the canary output and the
// generator are unchanged and there is a message; on success the output has exactly k rows per
// unit, each finite, and each unit's rows are rows of that unit in the input or zero rows.
#include <vector>

#include "fuzz_input.hpp"

namespace {

// The input row of unit [first, end) equal to `row` (row-major, cols wide), or a zero row.
bool from_unit(const std::vector<double> &a, int64_t first, int64_t end, int64_t cols,
               const double *row) {
  bool zero = true;
  for (int64_t j = 0; j < cols; ++j) zero = zero && row[j] == 0.0;
  for (int64_t i = first; i < end && !zero; ++i)
    if (std::memcmp(&a[static_cast<size_t>(i * cols)], row, sizeof(double) * cols) == 0)
      return true;
  return zero;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::Input in(data, size);
  const int64_t k = in.range(0, 3) == 0 ? in.range(-2, 1 << 21) : in.range(1, 4);
  const int64_t rows = in.range(-1, 10);
  const int64_t cols = in.range(0, 5) == 0 ? in.range(-1, 4) : in.range(1, 4);
  const int64_t lda = in.range(0, 5) == 0 ? in.range(-1, 6) : (cols > 0 ? cols : 1);
  const bool sorted = in.range(0, 3) != 0;
  std::vector<double> a(64);
  for (double &v : a) v = in.range(0, 7) == 0 ? in.number() : static_cast<double>(in.range(-9, 9));
  std::vector<int64_t> ids(16);
  for (size_t i = 0; i < ids.size(); ++i)
    ids[i] = sorted ? static_cast<int64_t>(i) / (1 + in.range(0, 3)) : in.range(-2, 2);
  const bool fits =
      rows >= 0 && cols >= 1 && lda >= cols && (rows == 0 || (rows - 1) * lda + cols <= 64);
  if (!fits || k > 8) {
    // Shapes and k out of the buffers' reach: only the checks run (a null out is refused or
    // unused).
    int64_t truncated = -7;
    const dpcov_status s = dpcov_unit_rows_keep(nullptr, k, DPCOV_ROW_MAJOR, rows, cols,
                                                a.data(), lda, ids.data(), nullptr, 0, 1,
                                                &truncated);
    fuzz::known_status(s);
    fuzz::require(s != DPCOV_OK, "a null generator accepted");
    fuzz::require(truncated == -7, "truncated written on error");
    return 0;
  }
  int64_t units = 0;
  for (int64_t i = 0; i < rows; ++i)
    units += i == 0 || ids[static_cast<size_t>(i)] != ids[static_cast<size_t>(i - 1)];
  const int64_t out_rows = in.range(0, 5) == 0 ? in.range(-1, 40) : units * k;
  std::vector<double> out = fuzz::canaries(static_cast<size_t>(40 * 4 + 8));
  const int64_t ldout = cols;
  const bool room = out_rows >= 0 && out_rows * cols <= static_cast<int64_t>(out.size());
  dpcov_rng *rng = nullptr;
  if (dpcov_rng_create_seeded(&rng, 4, 0) != DPCOV_OK) fuzz::violated("rng");
  const std::vector<unsigned char> before = fuzz::rng_state(rng);
  int64_t truncated = -7;
  const dpcov_status s =
      dpcov_unit_rows_keep(rng, k, DPCOV_ROW_MAJOR, rows, cols, a.data(), lda, ids.data(),
                           room ? out.data() : nullptr, out_rows, ldout, &truncated);
  fuzz::known_status(s);
  fuzz::message_on_error(s, "unit_rows_keep");
  if (s != DPCOV_OK) {
    fuzz::unchanged(out, "unit_rows_keep");
    fuzz::require(truncated == -7, "truncated written on error");
    fuzz::require(fuzz::rng_state(rng) == before, "drew before a refusal");
  } else {
    fuzz::require(out_rows == units * k && truncated >= 0 && truncated <= rows, "counts");
    // Compact copy of the rows (lda may exceed cols) to compare kept rows with their unit's.
    std::vector<double> compact(static_cast<size_t>(rows * cols));
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        compact[static_cast<size_t>(i * cols + j)] = a[static_cast<size_t>(i * lda + j)];
    int64_t first = 0, u = 0;
    for (int64_t i = 1; i <= rows; ++i) {
      if (i < rows && ids[static_cast<size_t>(i)] == ids[static_cast<size_t>(first)]) continue;
      for (int64_t r = 0; r < k; ++r) {
        const double *row = &out[static_cast<size_t>((u * k + r) * ldout)];
        fuzz::finite(row, static_cast<size_t>(cols), "unit_rows_keep");
        fuzz::require(from_unit(compact, first, i, cols, row), "a kept row not of its unit");
      }
      first = i;
      ++u;
    }
  }
  dpcov_rng_destroy(&rng);
  return 0;
}
