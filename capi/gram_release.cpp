#include "gram_release.hpp"

#include "../core/check.hpp"
#include "../core/error.hpp"
#include "../core/data/row_bounding.hpp"
#include "../core/mechanisms/registry.hpp"
#include "../core/mechanisms/unit_group_request.hpp"
#include "receipt_writer.hpp"
#include "rng_handle.hpp"
#include "struct_size.hpp"

namespace dpcov::capi {

namespace mech = dpcov::mechanisms;

mech::Request gram_request(const dpcov_gram &gram, double epsilon, double delta,
                           const mech::Options &options) {
  const GramCounts &counts = gram.exact ? gram.exact->counts() : gram.acc.counts();
  const int64_t dim = gram.exact ? gram.exact->grid().dim : gram.acc.dim();
  // A bounded accumulator's bound is public from its creation, whatever rows come; with privacy
  // units it is the bound of a unit's contribution.
  const double bound = gram.bounding ? accumulator_bound(gram) : gram.acc.bound();
  if (bound == 0.0)
    fail(Status::InvalidArgument, "gram holds no chunk yet, so its bound B is unknown; add ",
         "rows first or call dpcov_mechanism_release with an explicit bound");
  const mech::Request request{dim, counts.rows, bound, epsilon, delta, options};
  data::check_drop_policy(counts.drop_policy || counts.dropped > 0, request.options.neighbour);
  return request;
}

void check_exact_release(mech::MechanismId id) {
  if (id != mech::MechanismId::AnalyzeGauss && id != mech::MechanismId::LaplaceSym)
    fail(Status::Incompatible,
         "gram holds the exact integer Gram matrix of an exact release ",
         "(dpcov_row_bounding::numerics), which only analyze_gauss and laplace_sym release; create ",
         "it with DPCOV_NUMERICS_IDEALIZED to release ", mech::mechanism_name(id));
}

void check_unit_release(mech::MechanismId id, const data::UnitSampler &units) {
  if (!mech::supports_units(id))
    fail(Status::Incompatible, "gram bounds privacy units: ", mech::unit_refusal_message(id));
  if (units.open())
    fail(Status::Precondition, "gram has an open privacy unit: call ",
         "dpcov_gram_finish_units() after its last rows");
}

mech::Request drawn_request(mech::MechanismId id, const dpcov_gram &gram,
                           const mech::Request &request) {
  if (!gram.units || !mech::units_by_group_privacy(id))
    return request;
  return mech::group_unit_request(request, gram.units->max_rows_per_unit(),
                                  gram.bounding->norm_bound());
}

namespace {

// The plan of a release drawn at the per-row budget of privacy units (group privacy): a theorem's
// precondition that fails there names the unit-level epsilon the caller asked for, as the
// mechanism's own message names only the per-row one.
template <class Plan>
mech::Receipt plan_at_row_budget(const dpcov_gram &gram, const mech::Request &request,
                                 const mech::Request &drawn, const Plan &plan) {
  try {
    return plan();
  } catch (const Error &e) {
    if (!gram.units || drawn.epsilon == request.epsilon || e.status() != Status::Precondition)
      throw;
    fail(Status::Precondition, "units of up to ", gram.units->max_rows_per_unit(),
         " rows are released at a per-row epsilon = ", drawn.epsilon,
         " of the requested epsilon = ", request.epsilon, " (group privacy): ", e.what());
  }
}

// With privacy units neighbouring datasets differ in a unit: the receipt states n as the number of
// units (public under replace-one) and k, public, and the unit-level guarantee of `request`; the
// rows kept, which the draw checks, are not.
void state_units(mech::Receipt &receipt, const data::UnitSampler &units,
                 const mech::Request &request) {
  receipt.n = units.units();
  receipt.max_rows_per_unit = units.max_rows_per_unit();
  receipt.epsilon = request.epsilon;
  if (receipt.delta != 0.0) receipt.delta = request.delta;
  receipt.neighbour = request.options.neighbour;
}

}  // namespace

void release_gram_into(mech::MechanismId id, const dpcov_gram &gram, const mech::Request &request,
                       const PlanOf &plan_of, dpcov_rng *rng, int32_t layout, double *out,
                       int64_t ldo, dpcov_receipt *receipt) {
  if (gram.exact) check_exact_release(id);
  if (gram.units) check_unit_release(id, *gram.units);
  const MatrixView out_view =
      check::output_matrix(layout, request.dim, request.dim, out, ldo, "out");
  // The plan's checks, its receipt's included, run before the first draw, so that a release
  // fails where its plan fails, with the same status, and a refused call leaves the generator as
  // it was; a draw once made is consumed (a call that fails after drawing still advances it).
  mech::ExactGrid grid;
  const mech::Request drawn = drawn_request(id, gram, request);
  const mech::Receipt planned = plan_at_row_budget(gram, request, drawn, [&] {
    return plan_of(drawn, gram.exact ? &grid : nullptr);
  });
  mech::Receipt stated = planned;
  if (gram.units) state_units(stated, *gram.units, request);
  c_receipt(stated, receipt);
  mech::Release release =
      gram.exact ? mech::release_exact_gram(id, *gram.exact, drawn, planned, grid, rng->rng)
                 : mech::release(id, gram.acc.matrix().view(), drawn, planned, rng->rng);
  if (gram.units) state_units(release.receipt, *gram.units, request);
  check::finite_result(release.matrix.view(), "released matrix");
  const dpcov_receipt written = c_receipt(release.receipt, receipt);
  write_symmetric_from_upper(release.matrix, out_view);
  write_struct(receipt, written);
}

}  // namespace dpcov::capi
