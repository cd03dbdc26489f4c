#include "row_bounding.hpp"

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
