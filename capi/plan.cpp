// C ABI of a release planned once (dpcov/plan.h).
#include "dpcov/plan.h"

#include <memory>
#include <optional>

#include "../core/check.hpp"
#include "../core/error.hpp"
#include "../core/mechanisms/exact_additive.hpp"
#include "../core/mechanisms/mechanism.hpp"
#include "../core/mechanisms/registry.hpp"
#include "exact_grid.hpp"
#include "gram_handle.hpp"
#include "gram_release.hpp"
#include "guard.hpp"
#include "matrix_release.hpp"
#include "mechanism_options.hpp"
#include "receipt_writer.hpp"
#include "struct_size.hpp"

// A plan as the library computed it: the caller reads it and cannot change it.
struct dpcov_plan {
  dpcov::mechanisms::MechanismId id;
  dpcov::mechanisms::Request request;
  dpcov::mechanisms::Receipt receipt;
  std::optional<dpcov::mechanisms::ExactGrid> grid;  // exact numerics only
};

namespace dpcov::capi {

void PlannedBounding::apply(dpcov_row_bounding &spec) const {
  spec.numerics = numerics;
  spec.mechanism = mechanism;
  spec.epsilon = epsilon;
  spec.delta = delta;
  spec.neighbour = neighbour;
}

void PlannedBounding::check(const data::RowBounding &bounding) const {
  if (bounding.out_cols() != dim || bounding.norm_bound() != bound)
    fail(Status::Incompatible, "the bounded rows have ", bounding.out_cols(),
         " columns and norm bound ", bounding.norm_bound(), "; the plan is for d = ", dim,
         " and B = ", bound);
}

}  // namespace dpcov::capi

namespace {

using dpcov::fail;
namespace mech = dpcov::mechanisms;

// The plan's release fields for dpcov_gram_create_planned.
dpcov::capi::PlannedBounding planned_bounding(const dpcov_plan &plan) {
  const mech::Request &r = plan.request;
  return {plan.grid ? DPCOV_NUMERICS_EXACT : DPCOV_NUMERICS_IDEALIZED,
          static_cast<int32_t>(plan.id),
          r.epsilon,
          r.delta,
          static_cast<int32_t>(r.options.neighbour),
          r.dim,
          r.bound,
          plan.grid ? &*plan.grid : nullptr};
}

// The receipt's own checks (constants within their headroom), which every plan's call runs: a
// plan is made only for a release that can be made.
void check_receipt(const mech::Receipt &receipt) {
  dpcov_receipt probe{};
  probe.struct_size = sizeof probe;
  static_cast<void>(dpcov::capi::c_receipt(receipt, &probe));
}

}  // namespace

extern "C" {

DPCOV_API dpcov_status dpcov_plan_create(dpcov_plan **out, int32_t mechanism, int32_t numerics,
                                         int64_t dim, int64_t n, double bound, double epsilon,
                                         double delta, const dpcov_mechanism_params *params) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(out, "out");
    if (numerics != DPCOV_NUMERICS_IDEALIZED && numerics != DPCOV_NUMERICS_EXACT)
      fail(dpcov::Status::InvalidArgument, "numerics must be DPCOV_NUMERICS_IDEALIZED (0) or ",
           "DPCOV_NUMERICS_EXACT (1), got ", numerics);
    const mech::MechanismId id = mech::mechanism_id(mechanism);
    const mech::Request request{dim, n, bound, epsilon, delta, dpcov::capi::options_from(params)};
    auto plan = std::make_unique<dpcov_plan>(dpcov_plan{id, request, {}, std::nullopt});
    if (numerics == DPCOV_NUMERICS_EXACT) {
      plan->grid.emplace();
      plan->receipt = mech::plan_exact_additive(id, request, &*plan->grid);
    } else {
      plan->receipt = mech::plan(id, request);
    }
    check_receipt(plan->receipt);
    *out = plan.release();
  });
}

DPCOV_API dpcov_status dpcov_plan_create_at_bound(dpcov_plan **out, const dpcov_plan *plan,
                                                  double bound) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(out, "out");
    dpcov::check::not_null(plan, "plan");
    auto moved = std::make_unique<dpcov_plan>(*plan);
    moved->request.bound = bound;
    moved->receipt = moved->grid ? mech::plan_exact_at_bound(plan->id, moved->request, *moved->grid)
                                 : mech::plan_at_bound(plan->id, plan->receipt, moved->request);
    check_receipt(moved->receipt);
    *out = moved.release();
  });
}

DPCOV_API void dpcov_plan_destroy(dpcov_plan **plan) {
  if (plan == nullptr) return;
  delete *plan;
  *plan = nullptr;
}

DPCOV_API dpcov_status dpcov_plan_get_receipt(const dpcov_plan *plan, dpcov_receipt *receipt) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(plan, "plan");
    dpcov::capi::check_receipt_output(receipt);
    dpcov::capi::write_struct(receipt, dpcov::capi::c_receipt(plan->receipt, receipt));
  });
}

DPCOV_API dpcov_status dpcov_plan_get_exact_grid(const dpcov_plan *plan, dpcov_exact_grid *grid) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(plan, "plan");
    dpcov::capi::struct_bytes(grid, "grid");
    if (!plan->grid)
      fail(dpcov::Status::Incompatible, "the plan has idealized numerics: it has no grid");
    dpcov::capi::write_struct(grid, dpcov::capi::c_grid(plan->id, *plan->grid,
                                                        plan->request.bound));
  });
}

DPCOV_API dpcov_status dpcov_gram_create_planned(dpcov_gram **out, int64_t cols,
                                                 const dpcov_row_bounding *spec,
                                                 const dpcov_plan *plan) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(out, "out");
    dpcov::check::not_null(plan, "plan");
    const dpcov::capi::PlannedBounding planned = planned_bounding(*plan);
    *out = dpcov::capi::bounded_gram(cols, spec, &planned).release();
  });
}

DPCOV_API dpcov_status dpcov_plan_release_gram(const dpcov_plan *plan, const dpcov_gram *gram,
                                               dpcov_rng *rng, int32_t layout, double *out,
                                               int64_t ldo, dpcov_receipt *receipt) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::check_receipt_output(receipt);
    dpcov::check::not_null(plan, "plan");
    dpcov::check::not_null(gram, "gram");
    dpcov::check::not_null(rng, "rng");
    const mech::Request request = dpcov::capi::gram_request(
        *gram, plan->request.epsilon, plan->request.delta, plan->request.options);
    if (request.dim != plan->request.dim || request.bound != plan->request.bound ||
        gram->exact.has_value() != plan->grid.has_value())
      fail(dpcov::Status::Incompatible, "gram (d = ", request.dim, ", B = ", request.bound,
           gram->exact ? ", exact" : ", idealized", ") is not the plan's (d = ",
           plan->request.dim, ", B = ", plan->request.bound,
           plan->grid ? ", exact" : ", idealized", " numerics)");
    // A plan is made at the bound and budget it is given; a group-privacy release of units is
    // planned at a per-row budget the plan does not hold.
    if (gram->units && mech::units_by_group_privacy(plan->id))
      fail(dpcov::Status::Incompatible, mech::mechanism_name(plan->id),
           " releases privacy units at a per-row budget (proofs/unit_group_privacy.md): release ",
           "gram with dpcov_mechanism_release_gram");
    const auto plan_of = [&](const mech::Request &, mech::ExactGrid *grid) {
      if (grid != nullptr) *grid = *plan->grid;
      return mech::plan_at_rows(plan->id, plan->receipt, request);
    };
    dpcov::capi::release_gram_into(plan->id, *gram, request, plan_of, rng, layout, out, ldo,
                                   receipt);
  });
}

DPCOV_API dpcov_status dpcov_plan_release_matrix(const dpcov_plan *plan, int32_t layout,
                                                 int64_t dim, const double *gram, int64_t ldg,
                                                 dpcov_rng *rng, double *out, int64_t ldo,
                                                 dpcov_receipt *receipt) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::check_receipt_output(receipt);
    dpcov::check::not_null(plan, "plan");
    dpcov::check::not_null(rng, "rng");
    const mech::Request &request = plan->request;
    if (plan->grid || request.n < 1)
      fail(dpcov::Status::Incompatible, "a release from a matrix needs a plan with idealized ",
           "numerics and n >= 1; the plan has ", plan->grid ? "exact" : "idealized",
           " numerics and n = ", request.n);
    if (dim != request.dim)
      fail(dpcov::Status::Incompatible, "dim is ", dim, "; the plan is for d = ", request.dim);
    const dpcov::ConstMatrixView view = dpcov::check::matrix(layout, dim, dim, gram, ldg, "gram");
    dpcov::capi::release_matrix_into(
        plan->id, view, request, [&] { return plan->receipt; }, rng, layout, out, ldo, receipt);
  });
}

}  // extern "C"
