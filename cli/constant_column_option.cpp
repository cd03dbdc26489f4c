#include "constant_column_option.hpp"

#include <cmath>
#include <limits>
#include <numbers>
#include <utility>

#include "cli_error.hpp"
#include "column_bounds_option.hpp"
#include "row_norm.hpp"

namespace dpcov::cli {

namespace {

constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

}  // namespace

double constant_column_norm_bound(double row_bound) {
  // sqrt2 (the double) exceeds sqrt(2) by 9.7e-17; the product's rounding may fall below
  // sqrt(2) B by less than half an ulp, which the step up covers.
  return std::nextafter(row_bound * std::numbers::sqrt2, std::numeric_limits<double>::infinity());
}

double constant_column_clip_factor(double norm, double row_bound, int64_t dim) {
  return constant_column_clip_factor(norm, 1.0, row_bound, dim);
}

double constant_column_clip_factor(double rest, double largest, double row_bound, int64_t dim) {
  // A relative margin of (2 dim + 24) eps on ||x'|| absorbs the rounding of ||x|| (about
  // (dim / 2 + 2) u, u = eps / 2), of the scaled entries and of the sum of squares of the dim + 1
  // entries of [B, x'] (about (dim + 3) u), and the accumulator's within limit, which keeps a row
  // whole only below (sqrt(2) B within_shave(dim + 1))^2 (proofs/row_bound.md): the sum stays
  // below 2 B^2 (1 - (2 c - 1.5 dim - 6) u) for a margin of c eps, the limit above
  // 2 B^2 (1 - (2 dim + 37) u), so c >= 1.75 dim + 21.5 suffices.
  const double limit = row_bound * (1.0 - (2.0 * static_cast<double>(dim) + 24.0) * kEpsilon);
  // ||x|| = largest rest, which may overflow: the factor limit / ||x|| as (limit / largest) / rest
  // (largest = 1 on the plain path). Two roundings in the subnormals may lift it by up to 2^-1074
  // beyond the relative margin; one subnormal ulp down takes that back.
  if (rest * largest <= limit) return 1.0;
  const double factor = (limit / largest) / rest;
  return factor >= std::numeric_limits<double>::min() ? factor : std::nextafter(factor, 0.0);
}

ConstantColumnReader::ConstantColumnReader(std::unique_ptr<RowReader> inner, double row_bound,
                                           bool reject)
    : inner_(std::move(inner)), row_bound_(row_bound), reject_(reject) {
  names_.push_back(kConstantColumn);
  for (const std::string &name : inner_->column_names()) names_.push_back(name);
}

bool ConstantColumnReader::next_chunk(Chunk &chunk) {
  const bool more = inner_->next_chunk(buffer_);
  const int64_t d = buffer_.dim;
  chunk.rows = buffer_.rows;
  chunk.dim = d + 1;
  chunk.first_row = buffer_.first_row;
  chunk.lines = buffer_.lines;
  chunk.values.resize(static_cast<size_t>(buffer_.rows * (d + 1)));
  for (int64_t i = 0; i < buffer_.rows; ++i) {
    const double *x = buffer_.values.data() + i * d;
    double *out = chunk.values.data() + i * (d + 1);
    const RowNorm norm = row_norm(x, d);
    if (norm.value() > row_bound_) {
      if (reject_)
        fail(kExitInputData, inner_->row_location(buffer_, i), ": the row's norm ",
             norm_text(norm), " is over --bound ", row_bound_, " (--reject)");
      ++clipped_;
    }
    const double factor = std::isfinite(norm.rest)
                              ? constant_column_clip_factor(norm.rest, norm.largest, row_bound_, d)
                              : 1.0;
    out[0] = row_bound_;
    for (int64_t j = 0; j < d; ++j) out[j + 1] = x[j] * factor;
  }
  return more;
}

double exact_grid_constant(double row_bound, double norm_bound, int32_t bits, double unit) {
  // As the exact release rounds a coordinate x of a row within the bound: nearbyint(x 2^k / B).
  const double to_grid = std::ldexp(1.0, bits) / norm_bound;
  return std::nearbyint(row_bound * 1.0 * to_grid) * unit;
}

nlohmann::ordered_json constant_column_json(double value, double row_bound, double norm_bound) {
  return {{"name", kConstantColumn},
          {"value", value},
          {"row_bound", row_bound},
          {"norm_bound", norm_bound},
          {"method", "--add-constant: rows [B, x] with x clipped to norm B, norm bound sqrt(2) B "
                     "rounded up; entry (const, const) estimates value^2 n, (const, j) value times "
                     "the column sums (value: B, or B rounded to the exact numerics' grid)"}};
}

ReceiptConstant receipt_constant(const nlohmann::ordered_json &receipt, const std::string &path) {
  ReceiptConstant found;
  if (!receipt.is_object()) return found;
  if (receipt.contains("constant_column")) {
    const auto &record = receipt["constant_column"];
    if (!record.is_object() || !record.contains("name") || !record["name"].is_string() ||
        !record.contains("value") || !record["value"].is_number() ||
        !std::isfinite(record["value"].get<double>()) || !(record["value"].get<double>() > 0.0))
      fail(kExitInputData, path, ": \"constant_column\" must hold a \"name\" and a finite "
           "\"value\" > 0");
    found.found = true;
    found.name = record["name"].get<std::string>();
    found.value = record["value"].get<double>();
    return found;
  }
  if (receipt.contains("scaling") && receipt["scaling"].is_object()) {
    found.name = receipt["scaling"].value("constant_column", "");
    found.found = !found.name.empty();
  }
  return found;
}

}  // namespace dpcov::cli
