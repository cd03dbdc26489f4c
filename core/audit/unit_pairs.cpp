#include "unit_pairs.hpp"

#include <cmath>

#include "../error.hpp"
#include "exact_pmf.hpp"

namespace dpcov::audit {

namespace {

Matrix unit_integer_gram(const mechanisms::Request &request, const mechanisms::ExactGrid &grid,
                         const UnitRows &data) {
  data::ExactGramAccumulator acc(mechanisms::grid_spec(request, grid), BoundPolicy::Clip);
  acc.add_units(data.view(), data.ends);
  return to_matrix(acc.upper(), request.dim);
}

}  // namespace

UnitRows joined(const UnitRows &data, const UnitRows &other) {
  if (other.cols != data.cols)
    fail(Status::Dimension, "unit datasets of ", data.cols, " and ", other.cols, " columns");
  UnitRows out = data;
  const int64_t offset = data.row_count();
  out.rows.insert(out.rows.end(), other.rows.begin(), other.rows.end());
  for (const int64_t end : other.ends) out.ends.push_back(offset + end);
  return out;
}

Matrix float_gram(const UnitRows &data) {
  const ConstMatrixView v = data.view();
  Matrix g(data.cols, data.cols);
  for (int64_t r = 0; r < v.rows; ++r)
    for (int64_t i = 0; i < data.cols; ++i)
      for (int64_t j = 0; j < data.cols; ++j) g(i, j) += v(r, i) * v(r, j);
  return g;
}

UnitRows aligned_unit(int64_t k, double bound, const std::vector<double> &direction) {
  double norm2 = 0.0;
  for (const double v : direction) norm2 += v * v;
  if (!(norm2 > 0.0)) fail(Status::InvalidArgument, "a unit's direction must not be zero");
  UnitRows unit;
  unit.cols = static_cast<int64_t>(direction.size());
  // Scaled a few ulps inside the bound, as a clipped row is.
  const double scale = bound / std::sqrt(norm2) * (1.0 - 0x1p-50);
  for (int64_t r = 0; r < k; ++r)
    for (const double v : direction) unit.rows.push_back(v * scale);
  unit.ends.push_back(k);
  return unit;
}

PairStatistics exact_unit_pair_statistics(const mechanisms::Request &unit_request,
                                          const mechanisms::ExactGrid &grid, const UnitRows &data,
                                          const UnitRows &data_prime) {
  PairStatistics pair;
  pair.gram = unit_integer_gram(unit_request, grid, data);
  pair.gram_prime = unit_integer_gram(unit_request, grid, data_prime);
  pair.n = static_cast<int64_t>(data.ends.size());
  pair.n_prime = static_cast<int64_t>(data_prime.ends.size());
  return pair;
}

PairStatistics exact_row_pair_statistics(const mechanisms::Request &row_request,
                                         const mechanisms::ExactGrid &grid, const UnitRows &data,
                                         const UnitRows &data_prime) {
  PairStatistics pair;
  pair.gram = to_matrix(mechanisms::rounded_gram(data.view(), row_request, grid),
                             row_request.dim);
  pair.gram_prime = to_matrix(mechanisms::rounded_gram(data_prime.view(), row_request, grid),
                                   row_request.dim);
  pair.n = data.row_count();
  pair.n_prime = data_prime.row_count();
  return pair;
}

}  // namespace dpcov::audit
