// --columns: which input columns to use, in which order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dpcov::cli {

// Resolves the --columns tokens against an input with `file_columns` columns and, for inputs with
// a header, their `names`. A token is a header name (matched exactly, first), a 1-based index
// "K", or an inclusive 1-based range "K-L". Returns 0-based file column indices in the requested
// order; all columns in file order if `tokens` is empty. Throws CliError(kExitUsage) for an
// unknown name, an index out of range, an empty selection or a column selected twice.
std::vector<int64_t> resolve_columns(const std::vector<std::string> &tokens, int64_t file_columns,
                                     const std::vector<std::string> &names);

// "column K" (K 1-based), the name of a column of an input without a header.
std::string default_column_name(int64_t index);

}  // namespace dpcov::cli
