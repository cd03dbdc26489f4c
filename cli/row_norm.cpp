#include "row_norm.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cli_error.hpp"

namespace dpcov::cli {

RowNorm row_norm(const double *x, int64_t dim) {
  double sum = 0.0;
  for (int64_t j = 0; j < dim; ++j) sum += x[j] * x[j];
  if (std::isfinite(sum) && sum > 1e-280) return {1.0, std::sqrt(sum)};
  double largest = 0.0;
  for (int64_t j = 0; j < dim; ++j) largest = std::max(largest, std::fabs(x[j]));
  if (!(largest > 0.0) || !std::isfinite(largest)) return {1.0, std::isnan(sum) ? sum : largest};
  double scaled = 0.0;
  for (int64_t j = 0; j < dim; ++j) scaled += (x[j] / largest) * (x[j] / largest);
  return {largest, std::sqrt(scaled)};
}

std::string norm_text(const RowNorm &norm) {
  const double value = norm.value();
  if (!std::isinf(value) || !std::isfinite(norm.rest)) return concat(value);
  // log10 of the norm, a sum of two logarithms of finite numbers (about 308): its error, a few
  // 1e-14, is far below the sixth digit of the mantissa printed.
  const double log10_norm = std::log10(norm.largest) + std::log10(norm.rest);
  int exponent = static_cast<int>(std::floor(log10_norm));
  double mantissa = std::round(std::pow(10.0, log10_norm - exponent) * 1e5) / 1e5;
  if (mantissa >= 10.0) {
    mantissa /= 10.0;
    ++exponent;
  }
  char text[64];
  std::snprintf(text, sizeof text, "about %.5fe+%d (above the largest double)", mantissa, exponent);
  return text;
}

}  // namespace dpcov::cli
