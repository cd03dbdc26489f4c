#include "regression_unit_rows.hpp"

#include <optional>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "../library_status.hpp"
#include "gram_stream.hpp"
#include "unit_stream.hpp"

namespace dpcov::cli {

namespace {

// The input's columns x (the regressors), y (the label) and the unit, in that order: the rows the
// accumulator of units bounds are [x, y], the unit column taken out of each by unit_stream.
class RegressionColumnsView : public RowReader {
 public:
  RegressionColumnsView(RowReader &inner, std::vector<int64_t> columns)
      : inner_(inner), columns_(std::move(columns)) {
    for (const int64_t j : columns_) names_.push_back(inner_.column_names()[at(j)]);
  }
  const std::string &name() const override { return inner_.name(); }
  int64_t dim() const override { return static_cast<int64_t>(columns_.size()); }
  const std::vector<std::string> &column_names() const override { return names_; }
  bool next_chunk(Chunk &chunk) override {
    const bool more = inner_.next_chunk(read_);
    const int64_t d = dim();
    chunk.rows = read_.rows;
    chunk.dim = d;
    chunk.first_row = read_.first_row;
    chunk.lines = read_.lines;
    chunk.values.resize(at(read_.rows * d));
    for (int64_t i = 0; i < read_.rows; ++i)
      for (int64_t j = 0; j < d; ++j)
        chunk.values[at(i * d + j)] = read_.values[at(i * read_.dim + columns_[at(j)])];
    return more;
  }
  // Positions read only the chunk's first row and lines, which the view keeps.
  std::string row_location(const Chunk &chunk, int64_t i) const override {
    return inner_.row_location(chunk, i);
  }
  uint64_t bytes_read() const override { return inner_.bytes_read(); }
  std::optional<uint64_t> total_bytes() const override { return inner_.total_bytes(); }
  nlohmann::ordered_json describe() const override { return inner_.describe(); }

 private:
  static size_t at(int64_t i) { return static_cast<size_t>(i); }
  RowReader &inner_;
  std::vector<int64_t> columns_;
  std::vector<std::string> names_;
  Chunk read_;
};

}  // namespace

UnitRegressionGram accumulate_regression_units(RowReader &reader, const RegressionColumns &c,
                                               const RegressionBounds &bounds,
                                               const std::string &unit_column,
                                               int64_t max_rows_per_unit, dpcov_rng *rng,
                                               bool quiet) {
  std::vector<int64_t> columns = c.features;
  columns.push_back(c.label);
  columns.push_back(unit_column_index(reader, unit_column));
  RegressionColumnsView view(reader, columns);
  dpcov_row_bounding spec = regression_bounding(bounds);
  spec.max_rows_per_unit = max_rows_per_unit;
  const GramHandle gram =
      accumulate_units(view, spec, static_cast<int64_t>(columns.size()) - 1, rng, quiet);
  const dpcov_gram_info info = gram_info(gram.get());
  UnitRegressionGram out;
  const int64_t q = info.dim;
  out.data.gram.resize(static_cast<size_t>(q * q));
  library_check(dpcov_gram_get_matrix(gram.get(), DPCOV_ROW_MAJOR, out.data.gram.data(), q),
                "reading the Gram matrix of the units' rows");
  out.data.rows = info.rows;
  out.data.clipped = info.clipped;
  out.units = info.units;
  out.truncated = info.truncated;
  return out;
}

}  // namespace dpcov::cli
