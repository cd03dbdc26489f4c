#include "regression_rows.hpp"

#include <cmath>
#include <memory>
#include <utility>

#include "../analysis/released_matrix.hpp"
#include "../cli_error.hpp"
#include "../library_status.hpp"
#include "interrupt.hpp"
#include "progress.hpp"
#include "row_bounding.hpp"

namespace dpcov::cli {

namespace {

// A row over the user's --bound or --label-bound under --reject, by its file position and never a
// value of it (messages reach logs; a value printed invites a bound read off the data).
[[noreturn]] void report_rejected(const RowReader &reader, const Chunk &chunk,
                                  const dpcov_row_refusal &refusal,
                                  const dpcov_row_bounding &spec) {
  const int64_t i = refusal.row;
  if (refusal.label)
    fail(kExitInputData, reader.row_location(chunk, i), ": row ", chunk.first_row + i + 1,
         " has a label outside [-", spec.label_bound, ", ", spec.label_bound,
         "] (--label-bound; --reject refuses such rows)");
  fail(kExitInputData, reader.row_location(chunk, i), ": row ", chunk.first_row + i + 1,
       " has regressors of Euclidean norm > --bound ", spec.bound,
       " (--reject refuses such rows; without it they are scaled down to the bound)");
}

// The regressors and the label of `chunk`, gathered as rows [x, y] into `gathered`.
void gather(const Chunk &chunk, const RegressionColumns &c, Chunk &gathered) {
  const int64_t p = static_cast<int64_t>(c.features.size());
  gathered.rows = chunk.rows;
  gathered.dim = p + 1;
  gathered.first_row = chunk.first_row;
  gathered.lines = chunk.lines;
  gathered.values.resize(static_cast<size_t>(chunk.rows * (p + 1)));
  for (int64_t i = 0; i < chunk.rows; ++i) {
    const double *row = chunk.values.data() + i * chunk.dim;
    double *to = gathered.values.data() + i * (p + 1);
    for (int64_t k = 0; k < p; ++k) to[k] = row[c.features[static_cast<size_t>(k)]];
    to[p] = row[c.label];
  }
}

RegressionGram read_out(const dpcov_gram *gram, RegressionGram out) {
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  library_check(dpcov_gram_get_info(gram, &info), "reading the Gram counters");
  out.clipped = info.clipped;
  const int64_t q = info.dim;
  out.gram.assign(static_cast<size_t>(q * q), 0.0);
  library_check(dpcov_gram_get_matrix(gram, DPCOV_ROW_MAJOR, out.gram.data(), q),
                "reading the Gram matrix");
  return out;
}

}  // namespace

RegressionColumns resolve_regression_columns(const RowReader &reader, const std::string &label,
                                             const std::vector<std::string> &features,
                                             bool intercept) {
  const std::vector<std::string> &names = reader.column_names();
  RegressionColumns c;
  c.label = resolve_column(names, label, "--label");
  if (features.empty()) {
    for (int64_t j = 0; j < reader.dim(); ++j)
      if (j != c.label) c.features.push_back(j);
  } else {
    for (const auto &spec : features) {
      const int64_t j = resolve_column(names, spec, "--features");
      if (j == c.label) fail(kExitUsage, "--features: column '", spec, "' is the label");
      c.features.push_back(j);
    }
  }
  if (c.features.empty()) fail(kExitUsage, "--features: the regression needs a regressor");
  if (intercept) c.terms.push_back("(intercept)");
  for (int64_t j : c.features) c.terms.push_back(names[static_cast<size_t>(j)]);
  return c;
}

double choose_tighter_bound(RowReader &reader, const RegressionColumns &c, double bound,
                            double quantile, double epsilon, dpcov_rng *rng) {
  // The public candidates below --bound; a bound chosen among them never loosens it.
  std::vector<double> grid(DPCOV_TIGHTEN_STEPS + 1);
  int64_t candidates = 0;
  library_check(dpcov_private_bound_below_grid(bound, grid.data(),
                                               static_cast<int64_t>(grid.size()), &candidates),
                "the candidates below --bound");
  std::vector<int64_t> histogram(grid.size() + 1, 0);
  const int64_t p = static_cast<int64_t>(c.features.size());
  std::vector<double> regressors;
  int64_t rows = 0;
  Chunk chunk;
  while (reader.next_chunk(chunk)) {
    check_interrupted();
    // The regressors gathered; the library measures their norms.
    regressors.resize(static_cast<size_t>(chunk.rows * p));
    for (int64_t i = 0; i < chunk.rows; ++i)
      for (int64_t k = 0; k < p; ++k)
        regressors[static_cast<size_t>(i * p + k)] =
            chunk.values[static_cast<size_t>(i * chunk.dim + c.features[static_cast<size_t>(k)])];
    library_check(dpcov_private_bound_histogram(grid.data(), static_cast<int64_t>(grid.size()),
                                                DPCOV_ROW_MAJOR, chunk.rows, p,
                                                regressors.data(), p, histogram.data()),
                  "the tighter bound's histogram");
    rows += chunk.rows;
  }
  check_interrupted();
  if (rows == 0) fail(kExitInputData, reader.name(), ": the input has no rows");
  double chosen = 0.0;
  library_check(
      dpcov_private_bound_tighten(bound, histogram.data(), rows, quantile, epsilon, rng, &chosen),
      "choosing a bound below --bound");
  return chosen;
}

namespace {

// Streams every row of `reader`, gathered as [x, y], into an accumulator bounding them by `spec`
// (and refusing a row over `strict`, when given, at its file position).
// Streams every row of `reader`, gathered as [x, y], into `gram` (refusing a row over `strict`,
// when given, at its file position). Returns the rows read and the accumulator's clipped count.
RegressionGram fill(RowReader &reader, const RegressionColumns &c, dpcov_gram *gram,
                    const dpcov_row_bounding *strict, bool quiet) {
  const int64_t p = static_cast<int64_t>(c.features.size());
  Progress progress(!quiet, reader.total_bytes());
  RegressionGram out;
  Chunk chunk, gathered;
  std::vector<double> scratch;
  while (reader.next_chunk(chunk)) {
    gather(chunk, c, gathered);
    if (strict != nullptr) bound_chunk(reader, gathered, *strict, scratch, report_rejected);
    dpcov_row_refusal refusal{};
    refusal.struct_size = sizeof refusal;
    const dpcov_status status =
        dpcov_gram_add_raw_rows(gram, DPCOV_ROW_MAJOR, gathered.rows, p + 1,
                                gathered.values.data(), p + 1, &refusal);
    if (status != DPCOV_OK)
      library_fail(status, concat(reader.row_location(chunk, refusal.row >= 0 ? refusal.row : 0),
                                  " (chunk of ", chunk.rows, " rows)"));
    out.rows += chunk.rows;
    progress.update(reader.bytes_read(), out.rows);
  }
  progress.finish();
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  library_check(dpcov_gram_get_info(gram, &info), "reading the Gram counters");
  out.clipped = info.clipped;
  out.clamped = info.clamped;
  return out;
}

RegressionGram accumulate(RowReader &reader, const RegressionColumns &c,
                          const dpcov_row_bounding &spec, const dpcov_row_bounding *strict,
                          bool quiet) {
  const int64_t p = static_cast<int64_t>(c.features.size());
  dpcov_gram *raw = nullptr;
  library_check(dpcov_gram_create_bounded(&raw, p + 1, &spec),
                concat(reader.name(), ": ", p + 1, " columns"));
  const std::unique_ptr<dpcov_gram, void (*)(dpcov_gram *)> gram(
      raw, [](dpcov_gram *g) { dpcov_gram_destroy(&g); });
  return read_out(gram.get(), fill(reader, c, gram.get(), strict, quiet));
}

// The bounding of --reject: a row over the user's --bound or --label-bound is refused.
dpcov_row_bounding strict_bounding(const dpcov_row_bounding &spec, const RegressionBounds &b) {
  dpcov_row_bounding strict = spec;
  strict.bound = b.bound;
  strict.policy = DPCOV_BOUND_REJECT;
  return strict;
}

}  // namespace

dpcov_row_bounding regression_bounding(const RegressionBounds &b) {
  dpcov_row_bounding spec = row_bounding(b.clip_bound, DPCOV_BOUND_CLIP);
  spec.constant = b.intercept ? 1.0 : 0.0;
  spec.label_bound = b.label_bound;
  spec.balanced = 1;
  return spec;
}

double regressor_norm_bound(const RegressionBounds &b, int64_t features) {
  dpcov_row_bounding spec = regression_bounding(b);
  spec.label_bound = 0.0;
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  library_check(dpcov_row_bounding_apply(&spec, DPCOV_ROW_MAJOR, 0, features, nullptr, features,
                                         nullptr, features + 1, &info, nullptr),
                "the regressors' norm bound");
  return info.bound;
}

std::vector<double> regression_unit_factors(const RegressionBounds &b, int64_t features) {
  const dpcov_row_bounding spec = regression_bounding(b);
  std::vector<double> factors(static_cast<size_t>(features + (b.intercept ? 1 : 0)));
  library_check(dpcov_row_bounding_coefficient_factors(&spec, features + 1, factors.data(),
                                                       static_cast<int64_t>(factors.size())),
                "the map of the fit to the data's units");
  return factors;
}

dpcov_row_bounding scaled_regression_bounding(const std::vector<double> &lower,
                                              const std::vector<double> &upper) {
  dpcov_row_bounding spec = row_bounding(1.0, DPCOV_BOUND_CLIP);
  spec.lower = lower.data();
  spec.upper = upper.data();
  return spec;
}

void stream_bounded_rows(RowReader &reader, const RegressionColumns &c,
                         const dpcov_row_bounding &spec,
                         const std::function<void(const double *, int64_t, int64_t)> &use) {
  const int64_t p = static_cast<int64_t>(c.features.size());
  // The bounded rows have a column more with a constant or column bounds.
  const int64_t width = p + 2;
  Chunk chunk, gathered;
  std::vector<double> bounded;
  while (reader.next_chunk(chunk)) {
    check_interrupted();
    gather(chunk, c, gathered);
    bounded.resize(static_cast<size_t>(gathered.rows * width));
    dpcov_gram_info info{};
    info.struct_size = sizeof info;
    library_check(dpcov_row_bounding_apply(&spec, DPCOV_ROW_MAJOR, gathered.rows, p + 1,
                                           gathered.values.data(), p + 1, bounded.data(), width,
                                           &info, nullptr),
                  concat(reader.name(), ": bounding the rows"));
    // Kept rows in order, info.dim of each row's `width` columns used.
    std::vector<double> packed(static_cast<size_t>(info.rows * info.dim));
    for (int64_t i = 0; i < info.rows; ++i)
      for (int64_t j = 0; j < info.dim; ++j)
        packed[static_cast<size_t>(i * info.dim + j)] = bounded[static_cast<size_t>(i * width + j)];
    use(packed.data(), info.rows, info.dim);
  }
  check_interrupted();
}

nlohmann::ordered_json balanced_units_json(const RegressionBounds &b, int64_t features) {
  return {{"coefficients", "data (fitted on the balanced rows [1 (with an intercept), x sqrt(d) / "
                           "bound, y / label_bound] and mapped back by unit_factors; "
                           "proofs/balanced_rows.md)"},
          {"bound", b.clip_bound},
          {"label_bound", b.label_bound},
          {"unit_factors", regression_unit_factors(b, features)},
          {"receipts", "the fitted rows' scale: their bound and bound_y are the balanced rows' "
                       "(sqrt(1 + d) or sqrt(2 + d), and 1), as are the meat's bounds"}};
}

std::string balanced_rows_text(bool intercept) {
  return intercept ? "; fitted as balanced rows [1, x sqrt(d) / B, y / B_y], in the data's units"
                   : "; fitted as balanced rows [x sqrt(d) / B, y / B_y], in the data's units";
}

void scale_by_factors(const std::vector<double> &factors,
                      std::initializer_list<std::vector<double> *> values) {
  for (std::vector<double> *v : values)
    for (size_t j = 0; j < v->size() && j < factors.size(); ++j) (*v)[j] *= factors[j];
}

RegressionGram accumulate_regression(RowReader &reader, const RegressionColumns &c,
                                     const RegressionBounds &b, bool quiet) {
  const dpcov_row_bounding spec = regression_bounding(b);
  const dpcov_row_bounding strict = strict_bounding(spec, b);
  return accumulate(reader, c, spec, b.reject ? &strict : nullptr, quiet);
}

RegressionGram accumulate_regression_into(RowReader &reader, const RegressionColumns &c,
                                          const RegressionBounds &b, dpcov_gram *gram,
                                          bool quiet) {
  const dpcov_row_bounding strict = strict_bounding(regression_bounding(b), b);
  return fill(reader, c, gram, b.reject ? &strict : nullptr, quiet);
}

RegressionGram accumulate_scaled_regression(RowReader &reader, const RegressionColumns &c,
                                            const std::vector<double> &lower,
                                            const std::vector<double> &upper, bool quiet) {
  return accumulate(reader, c, scaled_regression_bounding(lower, upper), nullptr, quiet);
}

}  // namespace dpcov::cli
