// C ABI of the Gram accumulator (dpcov/gram.h).
#include "dpcov/gram.h"
#include "dpcov/mechanism.h"
#include "dpcov/receipt.h"
#include "struct_size.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "../core/check.hpp"
#include "../core/data/gram.hpp"
#include "../core/mechanisms/exact_additive.hpp"
#include "../core/mechanisms/mechanism.hpp"
#include "../core/privacy/unit_bound.hpp"
#include "rng_handle.hpp"
#include "gram_handle.hpp"
#include "guard.hpp"

namespace {

dpcov::BoundPolicy bound_policy(int32_t value) {
  if (value != DPCOV_BOUND_CLIP && value != DPCOV_BOUND_REJECT && value != DPCOV_BOUND_DROP)
    dpcov::fail(dpcov::Status::InvalidArgument,
                "policy must be DPCOV_BOUND_CLIP (0), DPCOV_BOUND_REJECT (1) or DPCOV_BOUND_DROP "
                "(2), got ",
                value);
  return static_cast<dpcov::BoundPolicy>(value);
}

dpcov::privacy::Neighbour neighbour(int32_t value) {
  if (value != DPCOV_NEIGHBOUR_REPLACE_ONE && value != DPCOV_NEIGHBOUR_ADD_REMOVE)
    dpcov::fail(dpcov::Status::InvalidArgument,
                "spec->neighbour must be DPCOV_NEIGHBOUR_REPLACE_ONE (0) ",
                "or DPCOV_NEIGHBOUR_ADD_REMOVE (1), got ", value);
  return static_cast<dpcov::privacy::Neighbour>(value);
}

dpcov_row_bounding default_bounding() {
  dpcov_row_bounding spec{};
  spec.struct_size = sizeof spec;
  spec.bound = 1.0;
  spec.policy = DPCOV_BOUND_CLIP;
  spec.neighbour = DPCOV_NEIGHBOUR_REPLACE_ONE;
  spec.numerics = DPCOV_NUMERICS_EXACT;
  spec.mechanism = 0;
  spec.epsilon = 1.0;
  spec.delta = 1e-6;
  spec.max_rows_per_unit = 0;
  spec.balanced = 0;
  return spec;
}

dpcov_row_bounding read_bounding(const dpcov_row_bounding *spec) {
  const dpcov_row_bounding s = dpcov::capi::read_struct(spec, default_bounding(), "spec");
  if (s.numerics != DPCOV_NUMERICS_IDEALIZED && s.numerics != DPCOV_NUMERICS_EXACT)
    dpcov::fail(dpcov::Status::InvalidArgument,
                "spec->numerics must be DPCOV_NUMERICS_IDEALIZED (0) or ",
                "DPCOV_NUMERICS_EXACT (1), got ", s.numerics);
  if (s.mechanism != 0) static_cast<void>(dpcov::mechanisms::mechanism_id(s.mechanism));
  if (s.max_rows_per_unit != 0) {
    if (s.max_rows_per_unit < 0 || s.max_rows_per_unit > dpcov::privacy::kMaxRowsPerUnit)
      dpcov::fail(dpcov::Status::InvalidArgument, "spec->max_rows_per_unit must be 0 (no units) ",
                  "or in [1, ", dpcov::privacy::kMaxRowsPerUnit, "], got ", s.max_rows_per_unit);
    if (s.policy == DPCOV_BOUND_REJECT)
      dpcov::fail(dpcov::Status::InvalidArgument, "spec->policy DPCOV_BOUND_REJECT is not ",
                  "available with privacy units (max_rows_per_unit > 0): a unit's rows are ",
                  "bounded when the unit closes, chunks later; clip them, or drop them under ",
                  "add/remove");
  }
  return s;
}

dpcov::data::RowBounding checked_bounding(int64_t cols, const dpcov_row_bounding &s) {
  dpcov::check::dimension(cols, "cols");
  dpcov::check::dimension(cols + (s.constant != 0.0 || s.lower != nullptr ? 1 : 0),
                          "the bounded rows' columns");
  if (s.lower != nullptr) dpcov::check::vector(cols, s.lower, sizeof(double), "spec->lower");
  if (s.upper != nullptr) dpcov::check::vector(cols, s.upper, sizeof(double), "spec->upper");
  if (s.balanced != 0 && s.balanced != 1)
    dpcov::fail(dpcov::Status::InvalidArgument, "spec->balanced must be 0 or 1, got ", s.balanced);
  return dpcov::data::RowBounding(cols, s.bound, bound_policy(s.policy), s.constant, s.lower,
                                  s.upper, s.label_bound, neighbour(s.neighbour), s.balanced == 1);
}

dpcov_row_refusal no_refusal() {
  dpcov_row_refusal r{};
  r.row = -1;
  return r;
}

dpcov_row_refusal refusal_of(const dpcov::RowError &e) {
  dpcov_row_refusal r{};
  r.row = e.row();
  r.label = e.measure().label ? 1 : 0;
  r.norm_exponent = e.measure().exponent;
  r.norm_rest = e.measure().rest;
  return r;
}

// Whether the exact accumulator takes the raw rows as they are and bounds them itself (its own
// clip or reject, the norm bound on x alone), as the floating-point one does.
bool exact_bounds_itself(const dpcov::data::RowBounding &bounding) {
  return bounding.norm_only() && bounding.policy() != dpcov::BoundPolicy::Drop;
}

// A constant column that rounds to 0 on the exact grid (|c| at most half its unit B 2^-k) would
// hold no count and no intercept: every reader of the release divides by the value it holds.
void refuse_constant_off_the_grid(double constant, double bound, int bits) {
  if (constant == 0.0 || dpcov::data::exact_grid_value(constant, bound, bits) != 0.0) return;
  dpcov::fail(dpcov::Status::Precondition, "exact numerics: the constant column's value ",
              constant, " rounds to 0 on the grid of unit B 2^-", bits, " = ",
              std::ldexp(bound, -bits), " (bound B = ", bound, "), so the release would hold no "
              "count and no intercept: a row bound below ", std::ldexp(std::fabs(constant), bits + 1),
              " (nearer the rows' norms, or the data in smaller units), or idealized numerics");
}

// The exact accumulator of `s`'s named release, when it has exact numerics: the grid of the plan
// of that release for the bounded rows (d, `bound`: their norm bound B, or with privacy units the
// unit bound, epsilon, delta, neighbour), public values only; `planned` when the caller's plan
// (dpcov_gram_create_planned) chose it already. Throws the plan's statuses, so an accumulator is
// made only for a release that can be made.
std::optional<dpcov::data::ExactGramAccumulator> exact_accumulator(
    const dpcov_row_bounding &s, const dpcov::data::RowBounding &bounding, double bound,
    const dpcov::mechanisms::ExactGrid *planned) {
  namespace mech = dpcov::mechanisms;
  if (s.numerics != DPCOV_NUMERICS_EXACT ||
      (s.mechanism != DPCOV_MECHANISM_ANALYZE_GAUSS && s.mechanism != DPCOV_MECHANISM_LAPLACE_SYM))
    return std::nullopt;
  mech::Options options;
  options.neighbour = static_cast<dpcov::privacy::Neighbour>(s.neighbour);
  const mech::Request request{bounding.out_cols(), 0, bound, s.epsilon, s.delta, options};
  mech::ExactGrid grid;
  if (planned != nullptr)
    grid = *planned;
  else
    static_cast<void>(mech::plan_exact_additive(mech::mechanism_id(s.mechanism), request, &grid));
  refuse_constant_off_the_grid(s.constant, bound, grid.bits);
  return dpcov::data::ExactGramAccumulator(
      mech::grid_spec(request, grid),
      exact_bounds_itself(bounding) && s.max_rows_per_unit == 0 ? bounding.policy()
                                                                : dpcov::BoundPolicy::Clip);
}

// The chunk bounded into scratch first, then accumulated with the bounding's counts: a refused
// row anywhere leaves the accumulator unchanged.
void add_bounded(dpcov_gram &gram, dpcov::ConstMatrixView raw) {
  const dpcov::data::RowBounding &bounding = *gram.bounding;
  if (raw.cols != bounding.cols())
    dpcov::fail(dpcov::Status::Dimension, "rows have ", raw.cols,
                " columns but the accumulator takes ", bounding.cols());
  if (gram.exact && exact_bounds_itself(bounding)) {
    gram.exact->add_rows(raw);
    return;
  }
  if (!gram.exact && bounding.norm_only()) {
    gram.acc.add_rows(raw, bounding.norm_bound(), bounding.policy());
    return;
  }
  std::vector<double> bounded;
  dpcov::GramCounts upstream;
  const int64_t kept = bounding.bound_rows(raw, bounded, upstream);
  upstream.drop_policy = bounding.policy() == dpcov::BoundPolicy::Drop;
  const dpcov::ConstMatrixView rows{bounded.data(), kept, bounding.out_cols(), bounding.out_cols(),
                                    dpcov::Layout::RowMajor};
  if (gram.exact)
    gram.exact->add_rows(rows, upstream);
  else
    gram.acc.add_rows(rows, bounding.norm_bound(), dpcov::BoundPolicy::Clip, upstream);
}

// The kept rows of the units a step closed, bounded by the rows' bounding and added whole units at
// a time (the exact accumulator tests each unit's integer trace). The accumulators are strongly
// exception-safe, so a failure leaves them unchanged.
void add_unit_batch(dpcov_gram &gram, const dpcov::data::UnitBatch &batch) {
  const dpcov::data::RowBounding &bounding = *gram.bounding;
  std::vector<double> bounded;
  dpcov::GramCounts upstream;
  const int64_t width = bounding.out_cols();
  std::vector<int64_t> ends;
  if (bounding.policy() != dpcov::BoundPolicy::Drop) {
    // No row is left out: the whole batch in one call, and the units' ends stay as they are.
    bounding.bound_rows(batch.view(), bounded, upstream);
    ends = batch.ends;
  } else {
    // Unit by unit, so that rows dropped by the bounding leave each unit's end where it belongs.
    ends.reserve(batch.ends.size());
    int64_t first = 0;
    std::vector<double> unit_rows;
    for (const int64_t end : batch.ends) {
      const int64_t kept = bounding.bound_rows(batch.view().row_block(first, end - first),
                                               unit_rows, upstream);
      bounded.insert(bounded.end(), unit_rows.begin(), unit_rows.begin() + kept * width);
      ends.push_back(static_cast<int64_t>(bounded.size()) / width);
      first = end;
    }
  }
  upstream.drop_policy = bounding.policy() == dpcov::BoundPolicy::Drop;
  const dpcov::ConstMatrixView rows{bounded.data(), static_cast<int64_t>(bounded.size()) / width,
                                    width, width, dpcov::Layout::RowMajor};
  if (gram.exact)
    gram.exact->add_units(rows, ends, upstream);
  else
    gram.acc.add_rows(rows, dpcov::capi::accumulator_bound(gram), dpcov::BoundPolicy::Clip,
                      upstream);
}

// Rows of a chunk of units handled at a time: their kept rows (1.6 MB at d = 50) stay in
// a core's own cache between the sampler, the bounding and the exact sum.
constexpr int64_t kUnitSliceRows = 4096;

dpcov_gram &unit_gram(dpcov_gram *gram) {
  dpcov::check::not_null(gram, "gram");
  if (!gram->units)
    dpcov::fail(dpcov::Status::InvalidArgument, "gram was not made with privacy units ",
                "(dpcov_row_bounding::max_rows_per_unit > 0)");
  return *gram;
}

}  // namespace

namespace dpcov::capi {

void refuse_unit_gram(const dpcov_gram &gram, const char *use) {
  if (gram.units)
    fail(dpcov::Status::Incompatible, use, " needs rows bounded one by one, and this accumulator ",
         "bounds privacy units (dpcov_row_bounding::max_rows_per_unit)");
}

double accumulator_bound(const dpcov_gram &gram) {
  if (!gram.bounding) return gram.acc.bound();
  if (!gram.units) return gram.bounding->norm_bound();
  return dpcov::privacy::unit_contribution_bound(gram.units->max_rows_per_unit(),
                                                 gram.bounding->norm_bound());
}

void refuse_exact_gram(const dpcov_gram &gram, const char *use) {
  if (gram.exact)
    fail(dpcov::Status::Incompatible, use,
         " needs a floating-point Gram matrix, and this accumulator ",
         "holds the exact integer one of an exact release (dpcov_row_bounding::numerics): create ",
         "it with DPCOV_NUMERICS_IDEALIZED for this use");
}

// Bit for bit, so that a spec whose unread fields (epsilon without an exact mechanism) are NaN
// still equals itself.
bool StoredBounding::operator==(const StoredBounding &other) const {
  const auto same = [](double a, double b) {
    return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
  };
  const dpcov_row_bounding &a = spec;
  const dpcov_row_bounding &b = other.spec;
  return same(a.bound, b.bound) && a.policy == b.policy && a.neighbour == b.neighbour &&
         same(a.constant, b.constant) && same(a.label_bound, b.label_bound) &&
         a.numerics == b.numerics && a.mechanism == b.mechanism && same(a.epsilon, b.epsilon) &&
         same(a.delta, b.delta) && a.max_rows_per_unit == b.max_rows_per_unit &&
         a.balanced == b.balanced &&
         std::ranges::equal(lower, other.lower, same) &&
         std::ranges::equal(upper, other.upper, same);
}

std::unique_ptr<dpcov_gram> bounded_gram(int64_t cols, const dpcov_row_bounding *spec,
                                         const PlannedBounding *planned) {
  dpcov_row_bounding s = read_bounding(spec);
  if (planned != nullptr) planned->apply(s);
  dpcov::data::RowBounding bounding = checked_bounding(cols, s);
  if (planned != nullptr) planned->check(bounding);
  auto gram = std::make_unique<dpcov_gram>(dpcov_gram{dpcov::GramAccumulator(bounding.out_cols())});
  if (planned != nullptr && s.max_rows_per_unit > 0)
    dpcov::fail(dpcov::Status::Incompatible, "a plan (dpcov_gram_create_planned) is made at the ",
                "rows' bound, and privacy units release at the unit bound: create an accumulator ",
                "of privacy units with dpcov_gram_create_bounded");
  const double bound =
      s.max_rows_per_unit > 0
          ? dpcov::privacy::unit_contribution_bound(s.max_rows_per_unit, bounding.norm_bound())
          : bounding.norm_bound();
  gram->exact = exact_accumulator(s, bounding, bound, planned != nullptr ? planned->grid : nullptr);
  if (s.max_rows_per_unit > 0) gram->units.emplace(s.max_rows_per_unit, cols);
  // The request, not the rows, says whether rows may be dropped: recorded now, so that an
  // accumulator given no chunk (a partition without rows, a state exported early) says so too.
  if (bounding.policy() == dpcov::BoundPolicy::Drop) {
    dpcov::GramCounts upstream;
    upstream.drop_policy = true;
    const dpcov::ConstMatrixView none{nullptr, 0, bounding.out_cols(), bounding.out_cols(),
                                      dpcov::Layout::RowMajor};
    if (gram->exact)
      gram->exact->add_rows(none, upstream);
    else
      gram->acc.add_rows(none, bound, dpcov::BoundPolicy::Clip, upstream);
  }
  gram->bounding = std::move(bounding);
  StoredBounding stored{s, {}, {}};
  if (s.lower != nullptr) stored.lower.assign(s.lower, s.lower + cols);
  if (s.upper != nullptr) stored.upper.assign(s.upper, s.upper + cols);
  stored.spec.lower = nullptr;
  stored.spec.upper = nullptr;
  gram->spec = std::move(stored);
  return gram;
}

}  // namespace dpcov::capi

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
    if (gram->exact)
      dpcov::fail(dpcov::Status::InvalidArgument, "gram has exact numerics: add its raw rows with ",
                  "dpcov_gram_add_raw_rows(), which rounds them to the release's grid");
    if (gram->units)
      dpcov::fail(dpcov::Status::InvalidArgument, "gram has privacy units: add its rows with ",
                  "their unit ids by dpcov_gram_add_unit_rows()");
    const dpcov::ConstMatrixView view = dpcov::check::matrix(layout, rows, cols, a, lda, "a", true);
    gram->acc.add_rows(view, bound, bound_policy(policy));
  });
}

DPCOV_API dpcov_status dpcov_gram_merge(dpcov_gram *dst, const dpcov_gram *src) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(dst, "dst");
    dpcov::check::not_null(src, "src");
    if (dst->exact.has_value() != src->exact.has_value())
      dpcov::fail(dpcov::Status::Incompatible,
                  "cannot merge an accumulator with exact numerics and one ",
                  "with idealized numerics");
    // A bounded accumulator reports its spec's bound: rows summed at another bound in an
    // accumulator made without a spec would be released as if they were within it.
    if (dst->spec.has_value() != src->spec.has_value())
      dpcov::fail(dpcov::Status::Incompatible, "cannot merge an accumulator made from a row ",
                  "bounding spec (dpcov_gram_create_bounded) and one made without");
    if (dst->spec && src->spec && !(*dst->spec == *src->spec))
      dpcov::fail(dpcov::Status::Incompatible, "cannot merge accumulators made from different row ",
                  "bounding specs (dpcov_row_bounding)");
    if (dst->units.has_value() != src->units.has_value())
      dpcov::fail(dpcov::Status::Incompatible, "cannot merge an accumulator of privacy units and ",
                  "one of rows");
    // The units' check first, on a copy: the accumulators' merge is strongly exception-safe, so
    // a refusal anywhere leaves dst unchanged.
    std::optional<dpcov::data::UnitSampler> units = dst->units;
    if (units) units->merge(*src->units);
    if (dst->exact)
      dst->exact->merge(*src->exact);
    else
      dst->acc.merge(src->acc);
    dst->units = std::move(units);
  });
}

DPCOV_API dpcov_status dpcov_gram_get_matrix(const dpcov_gram *gram, int32_t layout, double *out,
                                             int64_t ld) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(gram, "gram");
    const int64_t d = gram->exact ? gram->exact->grid().dim : gram->acc.dim();
    const dpcov::MatrixView view = dpcov::check::output_matrix(layout, d, d, out, ld, "out");
    if (gram->exact)
      gram->exact->write_matrix(view);
    else
      gram->acc.write_matrix(view);
  });
}

DPCOV_API dpcov_status dpcov_gram_get_info(const dpcov_gram *gram, dpcov_gram_info *info) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(gram, "gram");
    dpcov::check::not_null(info, "info");
    dpcov::capi::struct_bytes(info, "info");
    const dpcov::GramCounts &c = gram->exact ? gram->exact->counts() : gram->acc.counts();
    // Zeroed as bytes: the struct has padding after `numerics`, which would otherwise carry
    // whatever the stack held into the caller's memory.
    dpcov_gram_info out;
    std::memset(&out, 0, sizeof out);
    out.dim = gram->exact ? gram->exact->grid().dim : gram->acc.dim();
    out.rows = c.rows;
    out.clipped = c.clipped;
    out.dropped = c.dropped;
    // A bounded accumulator's bound is public from its creation, whatever rows come.
    out.bound = dpcov::capi::accumulator_bound(*gram);
    out.clamped = c.clamped;
    out.numerics = gram->exact ? DPCOV_NUMERICS_EXACT : DPCOV_NUMERICS_IDEALIZED;
    out.units = gram->units ? gram->units->units() : 0;
    out.truncated = gram->units ? gram->units->truncated() : 0;
    dpcov::capi::write_struct(info, out);
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

DPCOV_API dpcov_status dpcov_row_bounding_init(dpcov_row_bounding *spec, size_t size) {
  return dpcov::capi::guarded(
      [&] { dpcov::capi::init_struct(spec, size, default_bounding(), "spec"); });
}

DPCOV_API dpcov_status dpcov_gram_create_bounded(dpcov_gram **out, int64_t cols,
                                                 const dpcov_row_bounding *spec) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(out, "out");
    *out = dpcov::capi::bounded_gram(cols, spec).release();
  });
}

DPCOV_API dpcov_status dpcov_row_bounding_apply(const dpcov_row_bounding *spec, int32_t layout,
                                                int64_t rows, int64_t cols, const double *a,
                                                int64_t lda, double *out, int64_t ldout,
                                                dpcov_gram_info *info, dpcov_row_refusal *refusal) {
  return dpcov::capi::guarded([&] {
    if (refusal != nullptr) {
      dpcov::capi::struct_bytes(refusal, "refusal");
      dpcov::capi::write_struct(refusal, no_refusal());
    }
    dpcov::capi::struct_bytes(info, "info");
    const dpcov::data::RowBounding bounding = checked_bounding(cols, read_bounding(spec));
    const dpcov::ConstMatrixView view = dpcov::check::matrix(layout, rows, cols, a, lda, "a", true);
    const int64_t width = bounding.out_cols();
    dpcov::MatrixView target;
    if (rows > 0)
      target = dpcov::check::output_matrix(DPCOV_ROW_MAJOR, rows, width, out, ldout, "out");
    std::vector<double> bounded;
    dpcov::GramCounts counts;
    int64_t kept = 0;
    try {
      kept = bounding.bound_rows(view, bounded, counts);
    } catch (const dpcov::RowError &e) {
      if (refusal != nullptr) dpcov::capi::write_struct(refusal, refusal_of(e));
      throw;
    }
    for (int64_t i = 0; i < kept; ++i)
      for (int64_t j = 0; j < width; ++j) target(i, j) = bounded[static_cast<size_t>(i * width + j)];
    dpcov_gram_info written{};
    written.dim = width;
    written.rows = kept;
    written.clipped = counts.clipped;
    written.dropped = counts.dropped;
    written.clamped = counts.clamped;
    written.bound = bounding.norm_bound();
    dpcov::capi::write_struct(info, written);
  });
}

DPCOV_API dpcov_status dpcov_row_bounding_coefficient_factors(const dpcov_row_bounding *spec,
                                                              int64_t cols, double *factors,
                                                              int64_t count) {
  return dpcov::capi::guarded([&] {
    const dpcov::data::RowBounding bounding = checked_bounding(cols, read_bounding(spec));
    dpcov::check::not_null(factors, "factors");
    if (bounding.column_bounds())
      dpcov::fail(dpcov::Status::InvalidArgument, "column bounds map a fit back affinely, not by ",
                  "factors (the intercept moves with the slopes; proofs/column_bounds.md)");
    const int64_t regressors = bounding.out_cols() - (bounding.label_bound() > 0.0 ? 1 : 0);
    if (count != regressors)
      dpcov::fail(dpcov::Status::Dimension, "count must be the bounded rows' regressors, ",
                  regressors, ", got ", count);
    std::vector<double> written(static_cast<size_t>(regressors));
    dpcov::data::coefficient_factors(bounding, written.data());
    std::ranges::copy(written, factors);
  });
}

DPCOV_API dpcov_status dpcov_gram_add_raw_rows(dpcov_gram *gram, int32_t layout, int64_t rows,
                                               int64_t cols, const double *a, int64_t lda,
                                               dpcov_row_refusal *refusal) {
  return dpcov::capi::guarded([&] {
    if (refusal != nullptr) {
      dpcov::capi::struct_bytes(refusal, "refusal");
      dpcov::capi::write_struct(refusal, no_refusal());
    }
    dpcov::check::not_null(gram, "gram");
    if (!gram->bounding)
      dpcov::fail(dpcov::Status::InvalidArgument,
                  "gram was not made by dpcov_gram_create_bounded(): ",
                  "add its rows with dpcov_gram_add_rows()");
    if (gram->units)
      dpcov::fail(dpcov::Status::InvalidArgument, "gram has privacy units: add its rows with ",
                  "their unit ids by dpcov_gram_add_unit_rows()");
    const dpcov::ConstMatrixView view = dpcov::check::matrix(layout, rows, cols, a, lda, "a", true);
    try {
      add_bounded(*gram, view);
    } catch (const dpcov::RowError &e) {
      if (refusal != nullptr) dpcov::capi::write_struct(refusal, refusal_of(e));
      throw;
    }
  });
}

DPCOV_API dpcov_status dpcov_gram_add_unit_rows(dpcov_gram *gram, dpcov_rng *rng, int32_t layout,
                                                int64_t rows, int64_t cols, const double *a,
                                                int64_t lda, const int64_t *units,
                                                dpcov_row_refusal *refusal) {
  return dpcov::capi::guarded([&] {
    if (refusal != nullptr) {
      dpcov::capi::struct_bytes(refusal, "refusal");
      dpcov::capi::write_struct(refusal, no_refusal());
    }
    dpcov_gram &g = unit_gram(gram);
    dpcov::check::not_null(rng, "rng");
    const dpcov::ConstMatrixView view = dpcov::check::matrix(layout, rows, cols, a, lda, "a", true);
    if (rows > 0) dpcov::check::vector(rows, units, sizeof(int64_t), "units");
    try {
      g.units->check(view, units);
    } catch (const dpcov::RowError &e) {
      if (refusal != nullptr) dpcov::capi::write_struct(refusal, refusal_of(e));
      throw;
    }
    // The chunk in slices, so that the kept rows and their bounded copy stay in cache instead of
    // two fresh buffers the size of the chunk; on a copy of the accumulator (O(d^2)), which
    // replaces it only once every slice is in.
    dpcov_gram next = g;
    dpcov::data::UnitBatch batch;
    for (int64_t first = 0; first < view.rows; first += kUnitSliceRows) {
      const int64_t count = std::min(kUnitSliceRows, view.rows - first);
      batch.rows.clear();
      batch.ends.clear();
      next.units->add_checked(view.row_block(first, count), units + first, rng->rng, batch);
      if (!batch.ends.empty()) add_unit_batch(next, batch);
    }
    g = std::move(next);
  });
}

DPCOV_API dpcov_status dpcov_gram_finish_units(dpcov_gram *gram) {
  return dpcov::capi::guarded([&] {
    dpcov_gram &g = unit_gram(gram);
    dpcov::data::UnitSampler next = *g.units;
    dpcov::data::UnitBatch batch;
    next.finish(batch);
    if (!batch.ends.empty()) add_unit_batch(g, batch);
    *g.units = std::move(next);
  });
}

}  // extern "C"
