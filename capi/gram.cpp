// C ABI of the Gram accumulator (dpcov/gram.h).
#include "dpcov/gram.h"
#include "struct_size.hpp"

#include <new>

#include "../core/check.hpp"
#include "../core/data/gram.hpp"
#include "gram_handle.hpp"
#include "guard.hpp"

namespace {

dpcov::BoundPolicy bound_policy(int32_t value) {
  if (value != DPCOV_BOUND_CLIP && value != DPCOV_BOUND_REJECT && value != DPCOV_BOUND_DROP)
    dpcov::fail(DPCOV_E_INVALID_ARGUMENT,
                "policy must be DPCOV_BOUND_CLIP (0), DPCOV_BOUND_REJECT (1) or DPCOV_BOUND_DROP "
                "(2), got ",
                value);
  return static_cast<dpcov::BoundPolicy>(value);
}

}  // namespace

extern "C" {

DPCOV_API dpcov_status dpcov_gram_create(dpcov_gram **out, int64_t dim) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(out, "out");
    *out = new dpcov_gram{dpcov::GramAccumulator(dim)};
  });
}

DPCOV_API void dpcov_gram_destroy(dpcov_gram **gram) {
  if (gram == nullptr) return;
  delete *gram;
  *gram = nullptr;
}

DPCOV_API dpcov_status dpcov_gram_add_rows(dpcov_gram *gram, int32_t layout, int64_t rows,
                                           int64_t cols, const double *a, int64_t lda,
                                           double bound, int32_t policy) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(gram, "gram");
    const dpcov::ConstMatrixView view = dpcov::check::matrix(layout, rows, cols, a, lda, "a", true);
    gram->acc.add_rows(view, bound, bound_policy(policy));
  });
}

DPCOV_API dpcov_status dpcov_gram_merge(dpcov_gram *dst, const dpcov_gram *src) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(dst, "dst");
    dpcov::check::not_null(src, "src");
    dst->acc.merge(src->acc);
  });
}

DPCOV_API dpcov_status dpcov_gram_get_matrix(const dpcov_gram *gram, int32_t layout, double *out,
                                             int64_t ld) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(gram, "gram");
    const int64_t d = gram->acc.dim();
    gram->acc.write_matrix(dpcov::check::output_matrix(layout, d, d, out, ld, "out"));
  });
}

DPCOV_API dpcov_status dpcov_gram_get_info(const dpcov_gram *gram, dpcov_gram_info *info) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(gram, "gram");
    dpcov::check::not_null(info, "info");
    dpcov::capi::struct_bytes(info, "info");
    const dpcov::GramCounts &c = gram->acc.counts();
    info->dim = gram->acc.dim();
    info->rows = c.rows;
    info->clipped = c.clipped;
    info->dropped = c.dropped;
    info->bound = gram->acc.bound();
  });
}

DPCOV_API dpcov_status dpcov_gram_create_from_state(dpcov_gram **out, const dpcov_gram_info *info,
                                                    int32_t layout, const double *g, int64_t ldg) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(out, "out");
    dpcov::check::not_null(info, "info");
    dpcov::capi::struct_bytes(info, "info");
    dpcov::check::dimension(info->dim, "info->dim");
    const dpcov::ConstMatrixView view =
        dpcov::check::matrix(layout, info->dim, info->dim, g, ldg, "g");
    dpcov::GramCounts counts;
    counts.rows = info->rows;
    counts.clipped = info->clipped;
    counts.dropped = info->dropped;
    *out = new dpcov_gram{dpcov::GramAccumulator::from_state(view, counts, info->bound)};
  });
}

}  // extern "C"
