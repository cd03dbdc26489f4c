#include "regression_units.hpp"

#include <cmath>

#include <dpcov.h>

#include "../options/column_bounds_option.hpp"
#include "../options/constant_column_option.hpp"

namespace dpcov::cli {

UnitMap unit_map(const LoadedMatrix &m, std::vector<double> &g) {
  UnitMap map;
  const std::optional<ColumnBounds> scaling = release_scaling(m);
  if (!scaling) return map;
  const ColumnBounds &bounds = *scaling;
  const auto d = static_cast<int64_t>(bounds.lower.size());
  g = in_units(m, bounds, m.values, DPCOV_UNITS_SCALED);
  map.active = true;
  map.centre.push_back(0.0);
  map.half.push_back(1.0);
  for (int64_t j = 0; j < d; ++j) {
    map.centre.push_back(bounds.lower[static_cast<size_t>(j)] / 2 + bounds.upper[static_cast<size_t>(j)] / 2);
    map.half.push_back(bounds.upper[static_cast<size_t>(j)] / 2 - bounds.lower[static_cast<size_t>(j)] / 2);
  }
  return map;
}

void to_user_units(const UnitMap &map, int64_t label, bool intercept,
                   const std::vector<int64_t> &features, std::vector<double> &coef,
                   std::initializer_list<std::vector<double> *> spread,
                   std::initializer_list<std::vector<double> *> invariant) {
  if (!map.active || coef.empty()) return;
  const size_t first = intercept ? 1 : 0;
  const double hy = map.half[static_cast<size_t>(label)];
  double shift = 0.0;
  for (size_t i = 0; i < features.size(); ++i) {
    const auto j = static_cast<size_t>(features[i]);
    const double factor = hy / map.half[j];
    coef[first + i] *= factor;
    for (auto *v : spread) (*v)[first + i] *= factor;
    shift += coef[first + i] * map.centre[j];
  }
  if (!intercept) return;
  coef[0] = map.centre[static_cast<size_t>(label)] + hy * coef[0] - shift;
  for (auto *v : spread) (*v)[0] = NAN;
  for (auto *v : invariant) (*v)[0] = NAN;
}

double intercept_in_label_units(const LoadedMatrix &m, int64_t intercept,
                                std::initializer_list<std::vector<double> *> spread) {
  const ReceiptConstant recorded = receipt_constant(m.receipt, m.receipt_path);
  if (intercept < 0 || !recorded.found || recorded.name != m.names[static_cast<size_t>(intercept)])
    return 1.0;
  for (auto *v : spread)
    if (!v->empty()) v->front() *= recorded.value;
  return recorded.value;
}

}  // namespace dpcov::cli
