// A release from merged saved states is the single-process release (issue 34's "Done means"):
// random rows cut into 1 to 8 random parts, each part's rows in a random order and random chunks
// in its own exact accumulator (dpcov_gram_create_bounded() naming Analyze Gauss or symmetric
// Laplace), exported (dpcov_gram_export_state()), imported (dpcov_gram_import_state()) and merged
// in a random order (dpcov_gram_merge()), then released with a fixed-seed generator, gives the
// matrix and public receipt of one accumulator given every row, byte for byte; and a state with
// a flipped byte, cut short, of another format version, or of another dimension is refused.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "dpcov.h"

namespace {

struct Handle {
  dpcov_gram *g = nullptr;
  Handle() = default;
  Handle(const Handle &) = delete;
  Handle &operator=(const Handle &) = delete;
  Handle(Handle &&o) noexcept : g(o.g) { o.g = nullptr; }
  ~Handle() { dpcov_gram_destroy(&g); }
};

Handle create(int64_t cols, const dpcov_row_bounding &spec) {
  Handle h;
  RC_ASSERT(dpcov_gram_create_bounded(&h.g, cols, &spec) == DPCOV_OK);
  return h;
}

void add(const Handle &h, const std::vector<double> &rows, int64_t cols) {
  const int64_t n = static_cast<int64_t>(rows.size()) / cols;
  RC_ASSERT(dpcov_gram_add_raw_rows(h.g, DPCOV_ROW_MAJOR, n, cols, rows.data(), cols, nullptr) ==
            DPCOV_OK);
}

std::vector<unsigned char> exported(const Handle &h) {
  size_t size = 0;
  RC_ASSERT(dpcov_gram_export_state(h.g, nullptr, 0, &size) == DPCOV_OK);
  std::vector<unsigned char> bytes(size);
  RC_ASSERT(dpcov_gram_export_state(h.g, bytes.data(), size, &size) == DPCOV_OK);
  return bytes;
}

dpcov_status import(const std::vector<unsigned char> &bytes, size_t len, Handle &out) {
  return dpcov_gram_import_state(&out.g, bytes.data(), len);
}

struct Release {
  std::vector<double> matrix;
  dpcov_receipt receipt;
};

Release release(const Handle &h, int32_t mechanism, int64_t d, const dpcov_row_bounding &spec) {
  dpcov_rng *rng = nullptr;
  RC_ASSERT(dpcov_rng_create_seeded(&rng, 20261129, 7) == DPCOV_OK);
  dpcov_mechanism_params params;
  RC_ASSERT(dpcov_mechanism_params_default(&params) == DPCOV_OK);
  params.neighbour = spec.neighbour;
  Release r{std::vector<double>(static_cast<size_t>(d * d)), {}};
  dpcov_receipt full{};
  full.struct_size = sizeof full;
  const dpcov_status s = dpcov_mechanism_release_gram(mechanism, h.g, spec.epsilon, spec.delta,
                                                      &params, rng, DPCOV_ROW_MAJOR,
                                                      r.matrix.data(), d, &full);
  dpcov_rng_destroy(&rng);
  RC_ASSERT(s == DPCOV_OK);
  r.receipt.struct_size = sizeof r.receipt;
  RC_ASSERT(dpcov_receipt_public(&full, &r.receipt) == DPCOV_OK);
  return r;
}

// Field by field: the struct's padding bytes are not part of the receipt.
bool same_receipt(const dpcov_receipt &a, const dpcov_receipt &b) {
  const auto same = [](double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; };
  return a.mechanism == b.mechanism && a.neighbour == b.neighbour &&
         a.calibration == b.calibration && a.not_dp == b.not_dp &&
         a.seed_fixed == b.seed_fixed && a.sensitivity_norm == b.sensitivity_norm &&
         a.dim == b.dim && a.n == b.n && same(a.bound, b.bound) && same(a.epsilon, b.epsilon) &&
         same(a.delta, b.delta) && same(a.sensitivity, b.sensitivity) &&
         same(a.sigma, b.sigma) && same(a.scale, b.scale) && a.generator == b.generator &&
         a.numerics == b.numerics;
}

RC_GTEST_PROP(GramStateProperty, MergedStatesReleaseAsOneAccumulatorAndBadStatesAreRefused, ()) {
  const int64_t cols = *rc::gen::inRange<int64_t>(1, 6);
  const int64_t n = *rc::gen::inRange<int64_t>(0, 120);
  const int32_t mechanism =
      *rc::gen::element<int32_t>(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_MECHANISM_LAPLACE_SYM);
  dpcov_row_bounding spec;
  RC_ASSERT(dpcov_row_bounding_default(&spec) == DPCOV_OK);
  spec.mechanism = mechanism;
  spec.bound = *rc::gen::element(0.5, 1.0, 4.0);
  spec.neighbour = *rc::gen::element<int32_t>(DPCOV_NEIGHBOUR_REPLACE_ONE,
                                              DPCOV_NEIGHBOUR_ADD_REMOVE);
  if (spec.neighbour == DPCOV_NEIGHBOUR_ADD_REMOVE && *rc::gen::inRange(0, 2) == 0)
    spec.policy = DPCOV_BOUND_DROP;
  if (*rc::gen::inRange(0, 3) == 0) spec.constant = spec.bound;
  spec.epsilon = *rc::gen::element(0.3, 1.0, 2.0);
  const int64_t d = cols + (spec.constant != 0.0 ? 1 : 0);
  // Rows of norms around the bound, so that clipping (or dropping) happens too.
  std::vector<double> rows(static_cast<size_t>(n * cols));
  for (double &v : rows) v = *rc::gen::inRange(-1000, 1000) * (spec.bound / 1000.0);

  Handle whole = create(cols, spec);
  add(whole, rows, cols);

  const int64_t parts = *rc::gen::inRange<int64_t>(1, 9);
  std::vector<std::vector<double>> part_rows(static_cast<size_t>(parts));
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  for (int64_t i = n - 1; i > 0; --i)
    std::swap(order[static_cast<size_t>(i)],
              order[static_cast<size_t>(*rc::gen::inRange<int64_t>(0, i + 1))]);
  for (int64_t i : order) {
    auto &to = part_rows[static_cast<size_t>(*rc::gen::inRange<int64_t>(0, parts))];
    to.insert(to.end(), rows.begin() + i * cols, rows.begin() + (i + 1) * cols);
  }
  std::vector<std::vector<unsigned char>> states;
  for (const auto &part : part_rows) {
    Handle h = create(cols, spec);
    // In random chunks.
    for (size_t first = 0; first < part.size();) {
      const size_t count = std::min(part.size() - first,
                                    static_cast<size_t>(cols) * *rc::gen::inRange<size_t>(1, 40));
      add(h, std::vector<double>(part.begin() + static_cast<std::ptrdiff_t>(first),
                                 part.begin() + static_cast<std::ptrdiff_t>(first + count)),
          cols);
      first += count;
    }
    states.push_back(exported(h));
  }
  const auto merge_order = *rc::gen::unique<std::vector<size_t>>(
      states.size(), rc::gen::inRange<size_t>(0, states.size()));
  Handle merged;
  RC_ASSERT(import(states[merge_order[0]], states[merge_order[0]].size(), merged) == DPCOV_OK);
  for (size_t k = 1; k < merge_order.size(); ++k) {
    Handle part;
    RC_ASSERT(import(states[merge_order[k]], states[merge_order[k]].size(), part) == DPCOV_OK);
    RC_ASSERT(dpcov_gram_merge(merged.g, part.g) == DPCOV_OK);
  }
  RC_ASSERT(exported(merged) == exported(whole));
  const Release a = release(whole, mechanism, d, spec);
  const Release b = release(merged, mechanism, d, spec);
  RC_ASSERT(std::memcmp(a.matrix.data(), b.matrix.data(), a.matrix.size() * sizeof(double)) == 0);
  RC_ASSERT(same_receipt(a.receipt, b.receipt));

  // A flipped byte, a cut, another format version, another dimension: refused, out untouched.
  const std::vector<unsigned char> good = exported(whole);
  std::vector<unsigned char> bad = good;
  bad[*rc::gen::inRange<size_t>(0, bad.size())] ^=
      static_cast<unsigned char>(1u << *rc::gen::inRange(0, 8));
  Handle refused;
  RC_ASSERT(import(bad, bad.size(), refused) != DPCOV_OK);
  RC_ASSERT(import(good, *rc::gen::inRange<size_t>(0, good.size()), refused) != DPCOV_OK);
  bad = good;
  bad[8] = static_cast<unsigned char>(*rc::gen::inRange(2, 256));
  RC_ASSERT(import(bad, bad.size(), refused) == DPCOV_E_INCOMPATIBLE);
  const bool untouched = refused.g == nullptr;
  RC_ASSERT(untouched);
  Handle other = create(cols + 1, spec);
  Handle other_imported;
  RC_ASSERT(import(exported(other), exported(other).size(), other_imported) == DPCOV_OK);
  RC_ASSERT(dpcov_gram_merge(merged.g, other_imported.g) == DPCOV_E_INCOMPATIBLE);
}

}  // namespace
