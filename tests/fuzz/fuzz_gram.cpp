// Gram accumulator, merge and saved state: any shape, leading dimension, values, bound and
// policy. On error the accumulator and the canary output are unchanged; on success the matrix is
// finite and exactly symmetric. The row bounding (dpcov_row_bounding_apply, a bounded accumulator)
// with any spec, balanced or not: on success every bounded row is finite and within the reported norm bound's
// square (to rounding), on error the canary output is unchanged; a bounded accumulator with
// exact numerics releases its named mechanism exactly, finite and symmetric, or fails cleanly;
// now and then with privacy units (dpcov_gram_add_unit_rows, dpcov_gram_finish_units).
#include <cmath>
#include <vector>

#include "fuzz_input.hpp"

namespace {

void fuzz_bounding(fuzz::Input &in, int32_t layout, int64_t rows, int64_t cols, int64_t ld,
                   const std::vector<double> &a, bool fits) {
  dpcov_row_bounding spec;
  if (dpcov_row_bounding_default(&spec) != DPCOV_OK) fuzz::violated("bounding default");
  spec.bound = in.range(0, 3) == 0 ? in.number() : in.positive();
  spec.policy = static_cast<int32_t>(in.range(-1, 3));
  spec.neighbour = static_cast<int32_t>(in.range(-1, 2));
  if (in.range(0, 1)) spec.constant = in.range(0, 3) == 0 ? in.number() : spec.bound;
  if (in.range(0, 2) == 0) spec.label_bound = in.positive();
  if (in.range(0, 2) == 0) spec.balanced = static_cast<int32_t>(in.range(-1, 2));
  // The release the rows are for: exact numerics plan a grid at creation from these.
  spec.numerics = static_cast<int32_t>(in.range(-1, 2));
  spec.mechanism = static_cast<int32_t>(in.range(-1, 4));
  if (in.range(0, 1)) spec.epsilon = in.number();
  if (in.range(0, 1)) spec.delta = in.number();
  std::vector<double> lower(8), upper(8);
  if (in.range(0, 3) == 0) {
    for (size_t j = 0; j < 8; ++j) {
      lower[j] = in.number();
      upper[j] = in.number();
    }
    spec.lower = lower.data();
    spec.upper = upper.data();
  }
  // Privacy units now and then, with ids sorted or not.
  std::vector<int64_t> ids(static_cast<size_t>(rows > 0 ? rows : 0));
  if (in.range(0, 3) == 0) {
    spec.max_rows_per_unit = in.range(-1, 3);
    const bool sorted = in.range(0, 3) != 0;
    for (size_t i = 0; i < ids.size(); ++i)
      ids[i] = sorted ? static_cast<int64_t>(i) / 2 : in.range(-2, 2);
  }
  if (!fits || cols > 8) return;
  // The factors that map a fit back: finite and > 0, or the canaries untouched.
  std::vector<double> factors = fuzz::canaries(10);
  const std::vector<double> unset = factors;
  const int64_t count = in.range(-1, 9);
  const dpcov_status f = dpcov_row_bounding_coefficient_factors(&spec, cols, factors.data(), count);
  fuzz::known_status(f);
  if (f != DPCOV_OK) fuzz::require(factors == unset, "factors written on error");
  for (int64_t j = 0; f == DPCOV_OK && j < count; ++j)
    fuzz::require(std::isfinite(factors[static_cast<size_t>(j)]) &&
                      factors[static_cast<size_t>(j)] > 0.0,
                  "a factor not finite and > 0");
  const int64_t width = cols + 1;
  std::vector<double> out = fuzz::canaries(static_cast<size_t>(rows * width));
  const std::vector<double> before = out;
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  dpcov_row_refusal refusal{};
  refusal.struct_size = sizeof refusal;
  const dpcov_status s = dpcov_row_bounding_apply(&spec, layout, rows, cols, a.data(), ld,
                                                  out.data(), width, &info, &refusal);
  fuzz::known_status(s);
  if (s != DPCOV_OK) {
    fuzz::require(out == before, "bounded rows written on error");
    fuzz::require(refusal.row >= -1 && refusal.row < rows, "refused row out of range");
  } else {
    fuzz::require(info.rows >= 0 && info.rows <= rows && info.dim <= width, "bounded counts");
    for (int64_t i = 0; i < info.rows; ++i) {
      double sum = 0.0;
      for (int64_t j = 0; j < info.dim; ++j) {
        const double v = out[static_cast<size_t>(i * width + j)];
        fuzz::require(std::isfinite(v), "bounded row not finite");
        sum += (v / info.bound) * (v / info.bound);
      }
      fuzz::require(sum <= 1.0 + 1e-9, "bounded row over its norm bound");
    }
  }
  dpcov_gram *g = nullptr;
  const dpcov_status c = dpcov_gram_create_bounded(&g, cols, &spec);
  fuzz::known_status(c);
  if (c != DPCOV_OK) {
    fuzz::require(g == nullptr, "handle set on error");
    return;
  }
  if (spec.max_rows_per_unit > 0) {
    dpcov_rng *unit_rng = nullptr;
    if (dpcov_rng_create_seeded(&unit_rng, 2, 0) != DPCOV_OK) fuzz::violated("rng");
    fuzz::known_status(dpcov_gram_add_unit_rows(g, unit_rng, layout, rows, cols, a.data(), ld,
                                                ids.data(), &refusal));
    fuzz::known_status(dpcov_gram_finish_units(g));
    dpcov_rng_destroy(&unit_rng);
  } else {
    fuzz::known_status(dpcov_gram_add_raw_rows(g, layout, rows, cols, a.data(), ld, &refusal));
  }
  dpcov_gram_info counts{};
  counts.struct_size = sizeof counts;
  if (dpcov_gram_get_info(g, &counts) != DPCOV_OK) fuzz::violated("counters of a bounded gram");
  if (counts.numerics == DPCOV_NUMERICS_EXACT) {
    // Released as it was made for: the exact path (any policy, neighbour and budget that the
    // creation accepted), a finite and exactly symmetric matrix or a known status.
    dpcov_rng *rng = nullptr;
    if (dpcov_rng_create_seeded(&rng, 1, 0) != DPCOV_OK) fuzz::violated("rng");
    dpcov_mechanism_params params;
    if (dpcov_mechanism_params_default(&params) != DPCOV_OK) fuzz::violated("params");
    params.neighbour = spec.neighbour;
    const int64_t d = counts.dim;
    std::vector<double> released(static_cast<size_t>(d * d));
    dpcov_receipt receipt{};
    receipt.struct_size = sizeof receipt;
    const dpcov_status r =
        dpcov_mechanism_release_gram(spec.mechanism, g, spec.epsilon, spec.delta, &params, rng,
                                     DPCOV_ROW_MAJOR, released.data(), d, &receipt);
    fuzz::known_status(r);
    if (r == DPCOV_OK) {
      fuzz::require(receipt.numerics == DPCOV_NUMERICS_EXACT, "exact gram released idealized");
      for (int64_t i = 0; i < d; ++i)
        for (int64_t j = 0; j < d; ++j)
          fuzz::require(std::isfinite(released[static_cast<size_t>(i * d + j)]) &&
                            released[static_cast<size_t>(i * d + j)] ==
                                released[static_cast<size_t>(j * d + i)],
                        "exact release not finite and symmetric");
    }
    dpcov_rng_destroy(&rng);
  }
  dpcov_gram_destroy(&g);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::Input in(data, size);
  const int64_t d = in.range(1, 6);
  const int32_t layout = in.range(0, 3) == 0 ? 7 : (in.range(0, 1) ? DPCOV_ROW_MAJOR : DPCOV_COL_MAJOR);
  const int64_t rows = in.range(-1, 8);
  const int64_t cols = in.range(0, 3) == 0 ? in.range(-2, 8) : d;
  const int64_t ld = in.range(0, 3) == 0 ? in.range(-1, 12) : (layout == DPCOV_ROW_MAJOR ? cols : rows) + in.range(0, 2);
  const double bound = in.range(0, 3) == 0 ? in.number() : in.positive();
  const int32_t policy = static_cast<int32_t>(in.range(-1, 3));
  // The buffer holds everything the declared shape can address (the contract's part).
  std::vector<double> a(128);
  for (double &v : a) v = in.empty() ? 0.0 : in.number();

  dpcov_gram *g = nullptr;
  if (dpcov_gram_create(&g, d) != DPCOV_OK) fuzz::violated("create");
  std::vector<double> before(static_cast<size_t>(d * d));
  fuzz::require(dpcov_gram_get_matrix(g, DPCOV_ROW_MAJOR, before.data(), d) == DPCOV_OK, "get");
  const bool fits = rows >= 0 && cols >= 1 && ld >= 1 &&
                    (layout == DPCOV_ROW_MAJOR ? (rows == 0 || (rows - 1) * ld + cols <= 128)
                                               : (cols - 1) * ld + rows <= 128);
  if (fits) {
    const dpcov_status s = dpcov_gram_add_rows(g, layout, rows, cols, a.data(), ld, bound, policy);
    fuzz::known_status(s);
    std::vector<double> out(static_cast<size_t>(d * d));
    fuzz::require(dpcov_gram_get_matrix(g, DPCOV_ROW_MAJOR, out.data(), d) == DPCOV_OK, "get");
    if (s != DPCOV_OK) fuzz::require(out == before, "accumulator changed on error");
    fuzz::symmetric(out.data(), d, d, "gram");

    // Saved state: the counters and matrix back into a new accumulator, then merged.
    dpcov_gram_info info{};
    info.struct_size = sizeof info;
    fuzz::require(dpcov_gram_get_info(g, &info) == DPCOV_OK, "info");
    if (in.range(0, 1)) info.rows = in.range(-3, INT64_MAX);
    if (in.range(0, 1)) info.bound = in.number();
    if (in.range(0, 3) == 0) out[0] = in.number();
    dpcov_gram *h = nullptr;
    const dpcov_status t = dpcov_gram_create_from_state(&h, &info, DPCOV_ROW_MAJOR, out.data(), d);
    fuzz::known_status(t);
    if (t == DPCOV_OK) {
      const dpcov_status m = dpcov_gram_merge(h, g);
      fuzz::known_status(m);
      std::vector<double> merged = fuzz::canaries(static_cast<size_t>(d * d));
      fuzz::require(dpcov_gram_get_matrix(h, DPCOV_COL_MAJOR, merged.data(), d) == DPCOV_OK, "get");
      fuzz::symmetric(merged.data(), d, d, "merged gram");
    } else {
      fuzz::require(h == nullptr, "handle set on error");
    }
    dpcov_gram_destroy(&h);
  }
  fuzz_bounding(in, layout, rows, cols, ld, a, fits);
  // Output with a bad leading dimension: refused, canary unchanged.
  std::vector<double> small = fuzz::canaries(static_cast<size_t>(d * d));
  if (d > 1)
    fuzz::require(dpcov_gram_get_matrix(g, DPCOV_ROW_MAJOR, small.data(), d - 1) != DPCOV_OK,
                  "short leading dimension accepted");
  fuzz::unchanged(small, "gram_get_matrix");
  dpcov_gram_destroy(&g);
  return 0;
}
