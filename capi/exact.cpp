// C ABI of the floating-point-safe additive mechanisms (dpcov/exact.h).
#include "dpcov/exact.h"

#include <cmath>
#include <cstddef>

#include "../core/check.hpp"
#include "../core/data/exact_gram.hpp"
#include "../core/mechanisms/exact_additive.hpp"
#include "../core/mechanisms/mechanism.hpp"
#include "../core/mechanisms/registry.hpp"
#include "exact_grid.hpp"
#include "guard.hpp"
#include "mechanism_options.hpp"
#include "receipt_writer.hpp"
#include "rng_handle.hpp"
#include "struct_size.hpp"

// An exact accumulator: its plan (n left at 0 until a release, which takes the accumulator's row
// count) and the integer Gram matrix of the plan's grid.
struct dpcov_exact_gram {
  dpcov::mechanisms::MechanismId id;
  dpcov::mechanisms::Request request;
  dpcov::data::ExactGramAccumulator acc;
};

namespace {

using dpcov::fail;
namespace mech = dpcov::mechanisms;

void check_grid_output(const dpcov_exact_grid *grid) { dpcov::capi::struct_bytes(grid, "grid"); }

dpcov::BoundPolicy exact_policy(int32_t value) {
  if (value != DPCOV_BOUND_CLIP && value != DPCOV_BOUND_REJECT)
    fail(dpcov::Status::InvalidArgument,
         "policy must be DPCOV_BOUND_CLIP (0) or DPCOV_BOUND_REJECT (1) ",
         "for an exact release, got ", value);
  return static_cast<dpcov::BoundPolicy>(value);
}

// The plan of `request` and its grid, with its receipt's checks (a receipt constant that
// overflows fails here, before any draw). A release draws from this plan: its constants and grid
// are searched once.
struct CheckedPlan {
  mech::Receipt receipt;
  mech::ExactGrid grid;
};

CheckedPlan checked_plan(mech::MechanismId id, const mech::Request &request,
                         const dpcov_receipt *receipt) {
  CheckedPlan p;
  p.receipt = mech::plan_exact_additive(id, request, &p.grid);
  static_cast<void>(dpcov::capi::c_receipt(p.receipt, receipt));
  return p;
}

}  // namespace

namespace dpcov::capi {

dpcov_exact_grid c_grid(mech::MechanismId id, const mech::ExactGrid &grid, double bound) {
  dpcov_exact_grid c{};
  c.bits = grid.bits;
  // The integer analogue of the mechanism's noise law.
  c.noise_law = mech::entry_of(static_cast<int32_t>(id)).noise.kind ==
                        mech::NoiseKind::SymmetricGaussian
                    ? DPCOV_INTEGER_NOISE_DISCRETE_GAUSSIAN
                    : DPCOV_INTEGER_NOISE_DISCRETE_LAPLACE;
  c.unit = std::ldexp(bound, -grid.bits);
  c.norm2_bound = grid.norm2_bound;
  c.noise_parameter = grid.noise_parameter;
  return c;
}

}  // namespace dpcov::capi

using dpcov::capi::c_grid;

extern "C" {

DPCOV_API dpcov_status dpcov_exact_grid_value(double bound, int32_t bits, double value,
                                              double *out) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(out, "out");
    *out = dpcov::data::exact_grid_value(value, bound, bits);
  });
}

DPCOV_API dpcov_status dpcov_exact_plan(int32_t mechanism, int64_t dim, int64_t n, double bound,
                                        double epsilon, double delta,
                                        const dpcov_mechanism_params *params,
                                        dpcov_receipt *receipt, dpcov_exact_grid *grid) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::check_receipt_output(receipt);
    check_grid_output(grid);
    const mech::MechanismId id = mech::mechanism_id(mechanism);
    const mech::Request request{dim, n, bound, epsilon, delta, dpcov::capi::options_from(params)};
    mech::ExactGrid g;
    const mech::Receipt planned = mech::plan_exact_additive(id, request, &g);
    const dpcov_receipt written = dpcov::capi::c_receipt(planned, receipt);
    const dpcov_exact_grid written_grid = c_grid(id, g, bound);
    dpcov::capi::write_struct(receipt, written);
    dpcov::capi::write_struct(grid, written_grid);
  });
}

DPCOV_API dpcov_status dpcov_exact_release_rows(int32_t mechanism, int32_t layout, int64_t rows,
                                                int64_t cols, const double *a, int64_t lda,
                                                double bound, int32_t policy, double epsilon,
                                                double delta,
                                                const dpcov_mechanism_params *params,
                                                dpcov_rng *rng, double *out, int64_t ldo,
                                                dpcov_receipt *receipt, dpcov_exact_grid *grid) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::check_receipt_output(receipt);
    check_grid_output(grid);
    dpcov::check::not_null(rng, "rng");
    const mech::MechanismId id = mech::mechanism_id(mechanism);
    const dpcov::BoundPolicy bound_policy = exact_policy(policy);
    const mech::Request request{cols, rows, bound, epsilon, delta, dpcov::capi::options_from(params)};
    // The plan's checks first, its receipt's included (the release fails exactly where the plan
    // does, before any draw: a bound whose constants overflow drew noise and then failed), then
    // the arrays.
    const CheckedPlan planned = checked_plan(id, request, receipt);
    const dpcov::ConstMatrixView view = dpcov::check::matrix(layout, rows, cols, a, lda, "a", true);
    const dpcov::MatrixView out_view = dpcov::check::output_matrix(layout, cols, cols, out, ldo, "out");
    // The caller's generator itself: every check above and every row check inside runs before
    // the first draw, and a draw once made is consumed.
    const mech::Release release = mech::release_exact_additive(
        id, view, request, planned.receipt, planned.grid, rng->rng, bound_policy);
    dpcov::check::finite_result(release.matrix.view(), "released matrix");
    const dpcov_receipt written = dpcov::capi::c_receipt(release.receipt, receipt);
    const dpcov_exact_grid written_grid = c_grid(id, planned.grid, bound);
    dpcov::write_symmetric_from_upper(release.matrix, out_view);
    dpcov::capi::write_struct(receipt, written);
    dpcov::capi::write_struct(grid, written_grid);
  });
}

DPCOV_API dpcov_status dpcov_exact_gram_create(dpcov_exact_gram **out, int32_t mechanism,
                                               int64_t dim, double bound, int32_t policy,
                                               double epsilon, double delta,
                                               const dpcov_mechanism_params *params) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(out, "out");
    const mech::MechanismId id = mech::mechanism_id(mechanism);
    const dpcov::BoundPolicy bound_policy = exact_policy(policy);
    const mech::Request request{dim, 0, bound, epsilon, delta, dpcov::capi::options_from(params)};
    dpcov_receipt scratch{};
    scratch.struct_size = sizeof scratch;
    const mech::ExactGrid g = checked_plan(id, request, &scratch).grid;
    *out = new dpcov_exact_gram{
        id, request, dpcov::data::ExactGramAccumulator(mech::grid_spec(request, g), bound_policy)};
  });
}

DPCOV_API void dpcov_exact_gram_destroy(dpcov_exact_gram **acc) {
  if (acc == nullptr) return;
  delete *acc;
  *acc = nullptr;
}

DPCOV_API dpcov_status dpcov_exact_gram_add_rows(dpcov_exact_gram *acc, int32_t layout,
                                                 int64_t rows, int64_t cols, const double *a,
                                                 int64_t lda) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(acc, "acc");
    const dpcov::ConstMatrixView view = dpcov::check::matrix(layout, rows, cols, a, lda, "a", true);
    acc->acc.add_rows(view);
  });
}

DPCOV_API dpcov_status dpcov_exact_gram_merge(dpcov_exact_gram *dst, const dpcov_exact_gram *src) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(dst, "dst");
    dpcov::check::not_null(src, "src");
    dst->acc.merge(src->acc);
  });
}

DPCOV_API dpcov_status dpcov_exact_gram_get_info(const dpcov_exact_gram *acc,
                                                 dpcov_gram_info *info) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(acc, "acc");
    dpcov::check::not_null(info, "info");
    dpcov::capi::struct_bytes(info, "info");
    const dpcov::GramCounts &c = acc->acc.counts();
    dpcov_gram_info written{};
    written.dim = acc->acc.grid().dim;
    written.rows = c.rows;
    written.clipped = c.clipped;
    written.dropped = 0;
    written.bound = acc->acc.grid().bound;
    dpcov::capi::write_struct(info, written);
  });
}

DPCOV_API dpcov_status dpcov_exact_gram_release(const dpcov_exact_gram *acc, dpcov_rng *rng,
                                                double *out, int64_t ldo, dpcov_receipt *receipt,
                                                dpcov_exact_grid *grid) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::check_receipt_output(receipt);
    check_grid_output(grid);
    dpcov::check::not_null(acc, "acc");
    dpcov::check::not_null(rng, "rng");
    mech::Request request = acc->request;
    request.n = acc->acc.counts().rows;
    const CheckedPlan planned = checked_plan(acc->id, request, receipt);
    const int64_t d = request.dim;
    const dpcov::MatrixView out_view =
        dpcov::check::output_matrix(DPCOV_COL_MAJOR, d, d, out, ldo, "out");
    const mech::Release release = mech::release_exact_gram(acc->id, acc->acc, request,
                                                           planned.receipt, planned.grid, rng->rng);
    dpcov::check::finite_result(release.matrix.view(), "released matrix");
    const dpcov_receipt written = dpcov::capi::c_receipt(release.receipt, receipt);
    const dpcov_exact_grid written_grid = c_grid(acc->id, planned.grid, request.bound);
    dpcov::write_symmetric_from_upper(release.matrix, out_view);
    dpcov::capi::write_struct(receipt, written);
    dpcov::capi::write_struct(grid, written_grid);
  });
}

}  // extern "C"
