// A plan kept by the library releases as the call that plans for itself, finite or failed: over
// random (mechanism, numerics, epsilon, delta, bound, d, neighbour relation), dpcov_plan_create
// returns the status of dpcov_mechanism_plan (idealized) or dpcov_exact_plan (exact) and, when OK,
// the same receipt and grid (dpcov_plan_get_receipt, dpcov_plan_get_exact_grid), all finite; the
// plan moved to another bound (dpcov_plan_create_at_bound) is the plan made at that bound; an
// accumulator made for the plan (dpcov_gram_create_planned) with one row of norm B releases
// (dpcov_plan_release_gram) exactly as dpcov_mechanism_release_gram does from the same seed:
// the same status, and on success the same finite, exactly symmetric matrix and receipt, its
// output untouched on failure; and a plan of n = 1 rows with idealized numerics releases the Gram
// matrix of such a row (dpcov_plan_release_matrix) exactly as dpcov_mechanism_release does.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "dpcov.h"
#include "finite_or_failed.hpp"

namespace {

// Log-uniform in [lo, hi], or one of the ends (extremes are where the failures were).
rc::Gen<double> log_uniform(double lo, double hi) {
  return rc::gen::oneOf(rc::gen::element(lo, hi), finite_or_failed::log_uniform(lo, hi));
}

struct Point {
  int32_t mechanism;
  int32_t numerics;
  int64_t d;
  double bound;
  double epsilon;
  double delta;
  dpcov_mechanism_params params;
};

dpcov_receipt empty_receipt() {
  dpcov_receipt r{};
  r.struct_size = sizeof r;
  return r;
}

bool same_receipt(const dpcov_receipt &a, const dpcov_receipt &b) {
  return finite_or_failed::bytes_equal(a, b);
}

bool finite_receipt(const dpcov_receipt &r) {
  for (double v : {r.bound, r.epsilon, r.delta, r.sensitivity, r.sigma, r.scale, r.dof})
    if (!std::isfinite(v)) return false;
  return true;
}

// The plan through the one-shot call, with its status.
dpcov_status direct_plan(const Point &p, double bound, dpcov_receipt &receipt,
                         dpcov_exact_grid &grid) {
  return p.numerics == DPCOV_NUMERICS_EXACT
             ? dpcov_exact_plan(p.mechanism, p.d, 0, bound, p.epsilon, p.delta, &p.params,
                                &receipt, &grid)
             : dpcov_mechanism_plan(p.mechanism, p.d, 0, bound, p.epsilon, p.delta, &p.params,
                                    &receipt);
}

// One row of norm B along the first axis, into an accumulator made by `make`.
template <typename Make>
dpcov_gram *one_row_gram(const Point &p, Make make) {
  dpcov_row_bounding spec;
  RC_ASSERT(dpcov_row_bounding_default(&spec) == DPCOV_OK);
  spec.bound = p.bound;
  spec.neighbour = p.params.neighbour;
  spec.numerics = p.numerics;
  spec.mechanism = p.mechanism;
  spec.epsilon = p.epsilon;
  spec.delta = p.delta;
  dpcov_gram *gram = nullptr;
  if (make(&gram, &spec) != DPCOV_OK) return nullptr;
  std::vector<double> row(static_cast<size_t>(p.d), 0.0);
  row[0] = p.bound;
  RC_ASSERT(dpcov_gram_add_raw_rows(gram, DPCOV_ROW_MAJOR, 1, p.d, row.data(), p.d, nullptr) ==
            DPCOV_OK);
  return gram;
}

// Two releases from the same seed: the same status; on success the same receipt and the same
// finite, exactly symmetric matrix; the second's output untouched on failure.
void check_same_release(int64_t d, dpcov_status sa, dpcov_status sb, const dpcov_receipt &ra,
                        const dpcov_receipt &rb, const std::vector<double> &out_a,
                        const std::vector<double> &out_b) {
  RC_ASSERT(sa == sb);
  if (sb != DPCOV_OK) {
    for (double v : out_b) RC_ASSERT(v == -1.0);
    return;
  }
  RC_ASSERT(same_receipt(ra, rb));
  RC_ASSERT(out_a == out_b);
  for (int64_t i = 0; i < d; ++i)
    for (int64_t j = 0; j < d; ++j) {
      RC_ASSERT(std::isfinite(out_b[static_cast<size_t>(i * d + j)]));
      RC_ASSERT(out_b[static_cast<size_t>(i * d + j)] == out_b[static_cast<size_t>(j * d + i)]);
    }
}

void check_planned_release(const Point &p, const dpcov_plan *plan) {
  dpcov_gram *direct = one_row_gram(p, [&](dpcov_gram **g, const dpcov_row_bounding *s) {
    return dpcov_gram_create_bounded(g, p.d, s);
  });
  dpcov_gram *planned = one_row_gram(p, [&](dpcov_gram **g, const dpcov_row_bounding *s) {
    return dpcov_gram_create_planned(g, p.d, s, plan);
  });
  RC_ASSERT((direct == nullptr) == (planned == nullptr));
  if (direct == nullptr) return;
  dpcov_rng *a = nullptr, *b = nullptr;
  RC_ASSERT(dpcov_rng_create_seeded(&a, 11, 0) == DPCOV_OK);
  RC_ASSERT(dpcov_rng_create_seeded(&b, 11, 0) == DPCOV_OK);
  const size_t dd = static_cast<size_t>(p.d * p.d);
  std::vector<double> out_a(dd, -1.0), out_b(dd, -1.0);
  dpcov_receipt ra = empty_receipt(), rb = empty_receipt();
  const dpcov_status sa = dpcov_mechanism_release_gram(p.mechanism, direct, p.epsilon, p.delta,
                                                       &p.params, a, DPCOV_ROW_MAJOR,
                                                       out_a.data(), p.d, &ra);
  const dpcov_status sb =
      dpcov_plan_release_gram(plan, planned, b, DPCOV_ROW_MAJOR, out_b.data(), p.d, &rb);
  dpcov_rng_destroy(&a);
  dpcov_rng_destroy(&b);
  dpcov_gram_destroy(&direct);
  dpcov_gram_destroy(&planned);
  check_same_release(p.d, sa, sb, ra, rb, out_a, out_b);
}

// From a matrix: one row of norm B along the first axis, n = 1, idealized numerics (the only
// numerics a matrix is released with).
void check_planned_matrix_release(const Point &p) {
  if (p.numerics != DPCOV_NUMERICS_IDEALIZED) return;
  dpcov_plan *plan = nullptr;
  if (dpcov_plan_create(&plan, p.mechanism, p.numerics, p.d, 1, p.bound, p.epsilon, p.delta,
                        &p.params) != DPCOV_OK)
    return;
  const size_t dd = static_cast<size_t>(p.d * p.d);
  std::vector<double> gram(dd, 0.0);
  gram[0] = p.bound * p.bound;
  dpcov_rng *a = nullptr, *b = nullptr;
  RC_ASSERT(dpcov_rng_create_seeded(&a, 13, 0) == DPCOV_OK);
  RC_ASSERT(dpcov_rng_create_seeded(&b, 13, 0) == DPCOV_OK);
  std::vector<double> out_a(dd, -1.0), out_b(dd, -1.0);
  dpcov_receipt ra = empty_receipt(), rb = empty_receipt();
  const dpcov_status sa =
      dpcov_mechanism_release(p.mechanism, DPCOV_ROW_MAJOR, p.d, gram.data(), p.d, 1, p.bound,
                              p.epsilon, p.delta, &p.params, a, out_a.data(), p.d, &ra);
  const dpcov_status sb = dpcov_plan_release_matrix(plan, DPCOV_ROW_MAJOR, p.d, gram.data(), p.d,
                                                    b, out_b.data(), p.d, &rb);
  dpcov_rng_destroy(&a);
  dpcov_rng_destroy(&b);
  dpcov_plan_destroy(&plan);
  check_same_release(p.d, sa, sb, ra, rb, out_a, out_b);
}

RC_GTEST_PROP(PlannedRelease, AsThePlanAndReleaseOfOneCall, ()) {
  Point p{};
  p.numerics = *rc::gen::element(DPCOV_NUMERICS_IDEALIZED, DPCOV_NUMERICS_EXACT);
  p.mechanism = p.numerics == DPCOV_NUMERICS_EXACT
                    ? *rc::gen::element(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_MECHANISM_LAPLACE_SYM)
                    : *rc::gen::inRange(1, 14);
  p.d = *rc::gen::inRange<int64_t>(1, 5);
  p.bound = *log_uniform(1e-140, 1e140);
  p.epsilon = *log_uniform(1e-6, 100.0);
  p.delta = *rc::gen::oneOf(log_uniform(1e-300, 0.5), rc::gen::element(0.0, 0.9999999999999999));
  RC_ASSERT(dpcov_mechanism_params_default(&p.params) == DPCOV_OK);
  p.params.neighbour = *rc::gen::element(DPCOV_NEIGHBOUR_REPLACE_ONE, DPCOV_NEIGHBOUR_ADD_REMOVE);
  p.params.projection_rows = *rc::gen::element<int64_t>(0, 1, 50);

  dpcov_receipt expected = empty_receipt();
  dpcov_exact_grid expected_grid{};
  expected_grid.struct_size = sizeof expected_grid;
  const dpcov_status status = direct_plan(p, p.bound, expected, expected_grid);
  dpcov_plan *plan = nullptr;
  RC_ASSERT(dpcov_plan_create(&plan, p.mechanism, p.numerics, p.d, 0, p.bound, p.epsilon,
                              p.delta, &p.params) == status);
  if (status != DPCOV_OK) {
    const bool untouched = plan == nullptr;
    RC_ASSERT(untouched);
    return;
  }
  dpcov_receipt got = empty_receipt();
  RC_ASSERT(dpcov_plan_get_receipt(plan, &got) == DPCOV_OK);
  RC_ASSERT(finite_receipt(got));
  RC_ASSERT(same_receipt(got, expected));
  dpcov_exact_grid grid{};
  grid.struct_size = sizeof grid;
  const dpcov_status grid_status = dpcov_plan_get_exact_grid(plan, &grid);
  RC_ASSERT(grid_status == (p.numerics == DPCOV_NUMERICS_EXACT ? DPCOV_OK : DPCOV_E_INCOMPATIBLE));
  if (grid_status == DPCOV_OK) {
    RC_ASSERT(std::isfinite(grid.unit));
    RC_ASSERT(std::memcmp(&grid, &expected_grid, sizeof grid) == 0);
  }

  // Moved to another bound: the plan made there (status and receipt).
  const double other = *log_uniform(1e-140, 1e140);
  dpcov_receipt at_other = empty_receipt();
  dpcov_exact_grid other_grid{};
  other_grid.struct_size = sizeof other_grid;
  const dpcov_status other_status = direct_plan(p, other, at_other, other_grid);
  dpcov_plan *moved = nullptr;
  RC_ASSERT(dpcov_plan_create_at_bound(&moved, plan, other) == other_status);
  if (other_status == DPCOV_OK) {
    RC_ASSERT(dpcov_plan_get_receipt(moved, &got) == DPCOV_OK);
    RC_ASSERT(same_receipt(got, at_other));
  }
  dpcov_plan_destroy(&moved);

  check_planned_release(p, plan);
  dpcov_plan_destroy(&plan);
  check_planned_matrix_release(p);
}

}  // namespace
