// The CLI's receipt reader on arbitrary JSON: a receipt is either accepted, after which every
// entry the commands read (mechanism, command, n, sigma, scale, dof, projection_rows, columns) can
// be read without an exception, or refused with exit code 2 naming the receipt; never an internal
// error or a crash. The same for planning its constants again (check_receipt_constants).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "analysis/receipt_replan.hpp"
#include "analysis/released_matrix.hpp"
#include "cli_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  // The first byte picks the matrix's dimension and whether it has header names.
  const int64_t dim = 1 + data[0] % 4;
  const bool named = (data[0] & 0x80) != 0;
  std::vector<std::string> header;
  for (int64_t j = 0; j < dim; ++j) header.push_back(std::string(1, static_cast<char>('a' + j)));
  const auto receipt = nlohmann::ordered_json::parse(data + 1, data + size, nullptr, false);
  if (receipt.is_discarded()) return 0;  // read_receipt refuses it with exit code 2
  const std::string path = "receipt.json";
  try {
    dpcov::cli::LoadedMatrix m;
    m.dim = dim;
    m.names = header;
    m.receipt = receipt;
    const dpcov::cli::ReceiptFacts facts =
        dpcov::cli::check_receipt(receipt, path, dim, named ? &header : nullptr);
    dpcov::cli::check_receipt_constants(receipt, path, dim);
    if (!facts.names.empty() && facts.names.size() != static_cast<size_t>(dim)) std::abort();
    if (facts.rows && *facts.rows < 0) std::abort();
    m.rows = facts.rows;
    (void)m.mechanism();
    (void)m.is_private_release();
    (void)dpcov::cli::noise_receipt(m);
    if (receipt.contains("sigma")) (void)receipt["sigma"].get<double>();
    if (receipt.contains("projection_rows")) (void)receipt["projection_rows"].get<int64_t>();
  } catch (const dpcov::cli::CliError &e) {
    if (e.code() != dpcov::cli::kExitInputData ||
        std::string(e.what()).compare(0, path.size(), path) != 0) {
      std::fprintf(stderr, "exit %d for a bad receipt: %s\n", e.code(), e.what());
      std::abort();
    }
  }
  return 0;
}
