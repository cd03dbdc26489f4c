// C ABI of the sketch accumulator and the JL releases formed from it (dpcov/sketch.h).
#include "dpcov/sketch.h"
#include "struct_size.hpp"

#include <cstddef>

#include "../core/check.hpp"
#include "../core/data/row_bounding.hpp"
#include "../core/data/sketch.hpp"
#include "../core/mechanisms/jl_ridge.hpp"
#include "../core/mechanisms/mechanism.hpp"
#include "../core/mechanisms/registry.hpp"
#include "../core/mechanisms/ols_ptr.hpp"
#include "gram_handle.hpp"
#include "guard.hpp"
#include "mechanism_options.hpp"
#include "receipt_writer.hpp"
#include "rng_handle.hpp"

struct dpcov_sketch {
  dpcov::SketchAccumulator acc;
};

namespace {

using dpcov::fail;
namespace mech = dpcov::mechanisms;

dpcov::BoundPolicy bound_policy(int32_t value) {
  if (value != DPCOV_BOUND_CLIP && value != DPCOV_BOUND_REJECT && value != DPCOV_BOUND_DROP)
    fail(dpcov::Status::InvalidArgument,
         "policy must be DPCOV_BOUND_CLIP (0), DPCOV_BOUND_REJECT (1) or DPCOV_BOUND_DROP (2), got ",
         value);
  return static_cast<dpcov::BoundPolicy>(value);
}

void write_general(const dpcov::Matrix &m, dpcov::MatrixView out) {
  for (int64_t j = 0; j < m.cols(); ++j)
    for (int64_t i = 0; i < m.rows(); ++i) out(i, j) = m(i, j);
}

}  // namespace

extern "C" {

DPCOV_API dpcov_status dpcov_sketch_create(dpcov_sketch **out, int64_t dim,
                                           int64_t projection_rows, dpcov_rng *rng) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(out, "out");
    dpcov::check::not_null(rng, "rng");
    *out = new dpcov_sketch{dpcov::SketchAccumulator(dim, projection_rows, rng->rng)};
  });
}

DPCOV_API dpcov_status dpcov_sketch_create_partial(dpcov_sketch **out, const dpcov_sketch *like) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(out, "out");
    dpcov::check::not_null(like, "like");
    *out = new dpcov_sketch{like->acc.partial()};
  });
}

DPCOV_API void dpcov_sketch_destroy(dpcov_sketch **sketch) {
  if (sketch == nullptr) return;
  delete *sketch;
  *sketch = nullptr;
}

DPCOV_API dpcov_status dpcov_sketch_add_rows(dpcov_sketch *sketch, int32_t layout, int64_t rows,
                                             int64_t cols, const double *a, int64_t lda,
                                             int64_t first_index, double bound, int32_t policy) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(sketch, "sketch");
    const dpcov::ConstMatrixView view = dpcov::check::matrix(layout, rows, cols, a, lda, "a", true);
    sketch->acc.add_rows(view, first_index, bound, bound_policy(policy));
  });
}

DPCOV_API dpcov_status dpcov_sketch_merge(dpcov_sketch *dst, const dpcov_sketch *src) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(dst, "dst");
    dpcov::check::not_null(src, "src");
    dst->acc.merge(src->acc);
  });
}

DPCOV_API dpcov_status dpcov_sketch_get_info(const dpcov_sketch *sketch, dpcov_gram_info *info) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(sketch, "sketch");
    dpcov::check::not_null(info, "info");
    dpcov::capi::struct_bytes(info, "info");
    const dpcov::GramCounts &c = sketch->acc.counts();
    info->dim = sketch->acc.dim();
    info->rows = c.rows;
    info->clipped = c.clipped;
    info->dropped = c.dropped;
    info->bound = sketch->acc.bound();
  });
}

DPCOV_API dpcov_status dpcov_sketch_get(const dpcov_sketch *sketch, double w, int32_t layout,
                                        double *out, int64_t ldo) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(sketch, "sketch");
    const dpcov::MatrixView view = dpcov::check::output_matrix(
        layout, sketch->acc.projection_rows(), sketch->acc.dim(), out, ldo, "out");
    const dpcov::Matrix s = sketch->acc.sketch(w);
    // R_A A + w R_I overflows for a huge w (found by fuzz_sketch): finite or failed.
    dpcov::check::finite_result(s.view(), "sketch");
    write_general(s, view);
  });
}

DPCOV_API dpcov_status dpcov_sketch_release(int32_t mechanism, const dpcov_sketch *sketch,
                                            double epsilon, double delta,
                                            const dpcov_mechanism_params *params, dpcov_rng *rng,
                                            int32_t layout, double *sketch_out, int64_t lds,
                                            double *out, int64_t ldo, dpcov_receipt *receipt) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::check_receipt_output(receipt);
    dpcov::check::not_null(sketch, "sketch");
    dpcov::check::not_null(rng, "rng");
    const mech::MechanismId id = mech::mechanism_id(mechanism);
    // A sketch holds R A: the mechanisms that release from a Gaussian projection of r rows.
    const auto projects = [](const mech::RegistryEntry &e) {
      return (e.options & mech::kOptionProjectionRows) != 0;
    };
    if (!projects(mech::entry_of(mechanism)))
      fail(dpcov::Status::InvalidArgument, "dpcov_sketch_release releases ",
           mech::names_where(projects, " or "), ", not ", mech::mechanism_name(id));
    const mech::Options options = dpcov::capi::options_from(params);
    const dpcov::GramCounts &counts = sketch->acc.counts();
    dpcov::data::check_drop_policy(counts.drop_policy || counts.dropped > 0, options.neighbour);
    const int64_t d = sketch->acc.dim();
    const int64_t r = sketch->acc.projection_rows();
    dpcov::MatrixView sketch_view;
    if (sketch_out != nullptr)
      sketch_view = dpcov::check::output_matrix(layout, r, d, sketch_out, lds, "sketch_out");
    const dpcov::MatrixView out_view = dpcov::check::output_matrix(layout, d, d, out, ldo, "out");
    // The plan's checks first, receipt constants included, as in dpcov_mechanism_release(): a
    // constant that overflows (the sigma_min test's Laplace scale at a tiny epsilon) is refused
    // before anything is drawn, with the status of the plan.
    // The release then draws from this plan: each constant is computed once.
    const mech::Request request = mech::sketch_request(sketch->acc, epsilon, delta, options);
    const mech::Receipt planned = mech::plan(id, request);
    dpcov::capi::c_receipt(planned, receipt);
    // Draw from the caller's generator itself: noise once drawn is consumed, so a call that fails
    // after drawing (a refusal) still advances it and a retry never reuses a draw. Arguments are
    // checked before the first draw, so a rejected call leaves the generator as it was.
    dpcov::random::Rng &local = rng->rng;
    dpcov::Matrix s, m;
    mech::Receipt kernel_receipt;
    if (id == mech::MechanismId::OlsJl) {
      mech::ProjectedData p = mech::release_ols_jl_from_sketch(sketch->acc, planned, local);
      s = std::move(p.sketch);
      m = std::move(p.release.matrix);
      kernel_receipt = p.release.receipt;
    } else {
      mech::SketchRelease p = mech::release_jl_ridge_from_sketch(sketch->acc, planned, local);
      s = std::move(p.sketch);
      m = std::move(p.release.matrix);
      kernel_receipt = p.release.receipt;
    }
    const dpcov_receipt written = dpcov::capi::c_receipt(kernel_receipt, receipt);
    dpcov::check::finite_result(s.view(), "released sketch");
    dpcov::check::finite_result(m.view(), "released matrix");
    if (sketch_out != nullptr) write_general(s, sketch_view);
    dpcov::write_symmetric_from_upper(m, out_view);
    dpcov::capi::write_struct(receipt, written);
  });
}

DPCOV_API dpcov_status dpcov_sketch_get_gram(const dpcov_sketch *sketch, int32_t layout,
                                             double *out, int64_t ld) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(sketch, "sketch");
    const int64_t d = sketch->acc.dim();
    sketch->acc.gram().write_matrix(dpcov::check::output_matrix(layout, d, d, out, ld, "out"));
  });
}

DPCOV_API dpcov_status dpcov_sketch_create_from_state(dpcov_sketch **out, dpcov_rng *rng,
                                                      int64_t projection_rows,
                                                      const dpcov_gram *gram, int32_t layout,
                                                      const double *data_sketch, int64_t lds) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(out, "out");
    dpcov::check::not_null(rng, "rng");
    dpcov::check::not_null(gram, "gram");
    dpcov::capi::refuse_exact_gram(*gram, "a sketch's state");
    dpcov::capi::refuse_unit_gram(*gram, "a sketch's state");
    if (projection_rows < 1)
      fail(dpcov::Status::Dimension, "the number of projection rows r must be >= 1, got ",
           projection_rows);
    const dpcov::ConstMatrixView view = dpcov::check::matrix(
        layout, projection_rows, gram->acc.dim(), data_sketch, lds, "data_sketch");
    *out = new dpcov_sketch{
        dpcov::SketchAccumulator::from_state(rng->rng, projection_rows, gram->acc, view)};
  });
}

}  // extern "C"
