#include "row_bounding.hpp"

#include <cmath>
#include <cstdio>

#include "../cli_error.hpp"
#include "../library_status.hpp"

namespace dpcov::cli {

dpcov_row_bounding row_bounding(double bound, int32_t policy) {
  dpcov_row_bounding spec;
  library_check(dpcov_row_bounding_default(&spec), "the row bounding's defaults");
  spec.bound = bound;
  spec.policy = policy;
  return spec;
}

std::string refused_norm_text(const dpcov_row_refusal &refusal) {
  const double value = std::ldexp(refusal.norm_rest, refusal.norm_exponent);
  if (!std::isinf(value)) return concat(value);
  // log10 of the norm, a sum of two logarithms of finite numbers (about 308): its error, a few
  // 1e-14, is far below the sixth digit of the mantissa printed.
  const double log10_norm =
      std::log10(refusal.norm_rest) + refusal.norm_exponent * std::log10(2.0);
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

dpcov_gram_info bound_chunk(const RowReader &reader, const Chunk &chunk,
                            const dpcov_row_bounding &spec, std::vector<double> &out,
                            RefusalReport report) {
  const int64_t width = chunk.dim + 1;  // room for a constant column
  out.resize(static_cast<size_t>(chunk.rows * width));
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  dpcov_row_refusal refusal{};
  refusal.struct_size = sizeof refusal;
  const dpcov_status status =
      dpcov_row_bounding_apply(&spec, DPCOV_ROW_MAJOR, chunk.rows, chunk.dim, chunk.values.data(),
                               chunk.dim, chunk.rows ? out.data() : nullptr, width, &info, &refusal);
  if (status == DPCOV_E_NORM_BOUND && refusal.row >= 0) report(reader, chunk, refusal, spec);
  if (status != DPCOV_OK)
    library_fail(status, concat(reader.row_location(chunk, refusal.row >= 0 ? refusal.row : 0),
                                " (chunk of ", chunk.rows, " rows)"));
  // Packed to info.dim columns, as the readers' chunks are.
  if (info.dim != width)
    for (int64_t i = 0; i < info.rows; ++i)
      for (int64_t j = 0; j < info.dim; ++j)
        out[static_cast<size_t>(i * info.dim + j)] = out[static_cast<size_t>(i * width + j)];
  out.resize(static_cast<size_t>(info.rows * info.dim));
  return info;
}

}  // namespace dpcov::cli
