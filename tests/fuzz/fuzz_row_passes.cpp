// Sessions of passes over rows (dpcov/row_passes.h): Dong-Liang-Yi, CoinPress and CoinPress mean
// sessions (and CoinPress centred on a CoinPress mean session) of
// fuzzed settings over fuzzed rows split into two partials, one of them carried as bytes (with
// fuzzed bytes changed and the checksum written again or not: a forger's partial), and any bytes
// imported. Every call returns a known status and leaves its outputs untouched on error; a
// partial that imports exports back to its own bytes; a complete session's result is finite (and
// a matrix exactly symmetric).
#include <sodium.h>

#include <vector>

#include "fuzz_input.hpp"

namespace {

enum class Kind { Dly, Coinpress, CoinpressMean };

std::vector<unsigned char> exported(const dpcov_row_partial *p) {
  size_t size = 0;
  fuzz::require(dpcov_row_partial_export(p, nullptr, 0, &size) == DPCOV_OK, "size query");
  std::vector<unsigned char> bytes(size);
  fuzz::require(dpcov_row_partial_export(p, bytes.data(), size, &size) == DPCOV_OK, "export");
  return bytes;
}

// The partial of `bytes`, or null; an accepted partial exports back to exactly its bytes.
dpcov_row_partial *imported(const std::vector<unsigned char> &bytes) {
  dpcov_row_partial *canary = reinterpret_cast<dpcov_row_partial *>(0x10);
  dpcov_row_partial *p = canary;
  const dpcov_status s = dpcov_row_partial_import(&p, bytes.data(), bytes.size());
  fuzz::known_status(s);
  if (s != DPCOV_OK) {
    fuzz::require(p == canary, "handle set on error");
    return nullptr;
  }
  fuzz::require(exported(p) == bytes, "an imported partial does not export to its own bytes");
  return p;
}

void forge(fuzz::Input &in, std::vector<unsigned char> &bytes) {
  const int64_t changes = in.range(0, 3);
  for (int64_t k = 0; k < changes && !bytes.empty(); ++k)
    bytes[static_cast<size_t>(in.range(0, static_cast<int64_t>(bytes.size()) - 1))] ^=
        in.raw<unsigned char>();
  if (in.range(0, 1) && bytes.size() >= 32 &&
      crypto_generichash(bytes.data() + bytes.size() - 32, 32, bytes.data(), bytes.size() - 32,
                         nullptr, 0) != 0)
    fuzz::violated("BLAKE2b");
}

dpcov_row_session *session(fuzz::Input &in, Kind kind, int64_t n, int64_t d) {
  dpcov_rng *rng = nullptr;
  if (dpcov_rng_create_seeded(&rng, 1, 0) != DPCOV_OK) fuzz::violated("rng");
  dpcov_row_session *canary = reinterpret_cast<dpcov_row_session *>(0x10);
  dpcov_row_session *s = canary;
  dpcov_status status;
  if (kind == Kind::CoinpressMean) {
    dpcov_coinpress_mean_params p;
    dpcov_coinpress_mean_params_default(&p);
    p.rho = fuzz::budget(in);
    p.radius = in.number();
    p.scale = in.positive();
    p.steps = in.range(0, 5);
    std::vector<double> centre(static_cast<size_t>(d));
    for (double &v : centre) v = in.number();
    const double *start = in.range(0, 1) ? centre.data() : nullptr;
    status = dpcov_coinpress_mean_session_create(&s, n, d, start, &p, &rng);
  } else if (kind == Kind::Dly) {
    dpcov_dly_params p;
    dpcov_dly_params_default(&p);
    p.variant = static_cast<int32_t>(in.range(-1, 4));
    p.rho = fuzz::budget(in);
    p.radius = in.positive();
    status = dpcov_dly_session_create(&s, n, d, &p, &rng);
  } else {
    dpcov_coinpress_params p;
    dpcov_coinpress_params_default(&p);
    p.rho = fuzz::budget(in);
    p.k_bound = in.positive();
    p.steps = in.range(0, 5);
    status = dpcov_coinpress_session_create(&s, n, d, &p, &rng);
  }
  fuzz::known_status(status);
  fuzz::require((status == DPCOV_OK) == (rng == nullptr), "generator taken iff created");
  dpcov_rng_destroy(&rng);
  if (status != DPCOV_OK) {
    fuzz::require(s == canary, "session set on error");
    return nullptr;
  }
  return s;
}

void check_mean(const dpcov_row_session *s, int64_t d) {
  std::vector<double> out = fuzz::canaries(static_cast<size_t>(d));
  dpcov_coinpress_mean_receipt r{};
  r.struct_size = sizeof r;
  const dpcov_status status = dpcov_coinpress_mean_session_result(s, out.data(), &r);
  fuzz::known_status(status);
  if (status != DPCOV_OK) {
    fuzz::unchanged(out, "mean written on error");
    return;
  }
  fuzz::finite(out.data(), out.size(), "session mean");
}

void check_result(const dpcov_row_session *s, Kind kind, int64_t d) {
  if (kind == Kind::CoinpressMean) return check_mean(s, d);
  std::vector<double> out = fuzz::canaries(static_cast<size_t>(d * d));
  dpcov_status status;
  if (kind == Kind::Dly) {
    dpcov_dly_receipt r{};
    r.struct_size = sizeof r;
    status = dpcov_dly_session_result(s, DPCOV_COL_MAJOR, out.data(), d, &r);
  } else {
    dpcov_coinpress_receipt r{};
    r.struct_size = sizeof r;
    status = dpcov_coinpress_session_result(s, DPCOV_COL_MAJOR, out.data(), d, &r);
  }
  fuzz::known_status(status);
  if (status != DPCOV_OK) {
    fuzz::unchanged(out, "result written on error");
    return;
  }
  fuzz::finite(out.data(), out.size(), "session result");
  fuzz::symmetric(out.data(), d, d, "session result");
}

// The passes of `s` over the rows, each in two partials, one carried as (forged) bytes.
void run_passes(fuzz::Input &in, dpcov_row_session *s, int64_t n, int64_t d,
                const std::vector<double> &rows) {
  for (int pass = 0; pass < 8; ++pass) {
    int32_t done = 0;
    fuzz::known_status(dpcov_row_session_done(s, &done));
    if (done) break;
    dpcov_row_partial *a = nullptr, *b = nullptr;
    if (dpcov_row_partial_create(&a, s) != DPCOV_OK) break;
    fuzz::require(dpcov_row_partial_create(&b, s) == DPCOV_OK, "second partial");
    const int64_t half = in.range(0, n);
    fuzz::known_status(dpcov_row_partial_add_rows(a, DPCOV_ROW_MAJOR, half, d, rows.data(), d));
    fuzz::known_status(
        dpcov_row_partial_add_rows(b, DPCOV_ROW_MAJOR, n - half, d, rows.data() + half * d, d));
    std::vector<unsigned char> bytes = exported(b);
    forge(in, bytes);
    dpcov_row_partial_destroy(&b);
    b = imported(bytes);
    if (b != nullptr) fuzz::known_status(dpcov_row_partial_merge(a, b));
    dpcov_row_partial_destroy(&b);
    fuzz::known_status(dpcov_row_session_finish_pass(s, &a));
    dpcov_row_partial_destroy(&a);
  }
}

// A CoinPress session centred on the mean session `mean` (done or not) with fuzzed settings,
// asked for twice: the second must be refused, the generator being handed on once only.
void run_centred(fuzz::Input &in, dpcov_row_session *mean, int64_t n, int64_t d,
                 const std::vector<double> &rows) {
  dpcov_coinpress_params p;
  dpcov_coinpress_params_default(&p);
  p.rho = fuzz::budget(in);
  p.k_bound = in.positive();
  p.steps = in.range(0, 5);
  dpcov_row_session *canary = reinterpret_cast<dpcov_row_session *>(0x10);
  dpcov_row_session *s = canary;
  const dpcov_status status = dpcov_coinpress_centred_session_create(&s, mean, &p);
  fuzz::known_status(status);
  if (status != DPCOV_OK) {
    fuzz::require(s == canary, "session set on error");
    return;
  }
  dpcov_row_session *again = canary;
  fuzz::require(dpcov_coinpress_centred_session_create(&again, mean, &p) ==
                        DPCOV_E_INVALID_ARGUMENT &&
                    again == canary,
                "a mean session handed its generator on twice");
  run_passes(in, s, n, d, rows);
  check_result(s, Kind::Coinpress, d);
  dpcov_row_session_destroy(&s);
}

void run(fuzz::Input &in) {
  const auto kind = static_cast<Kind>(in.range(0, 2));
  const int64_t d = in.range(1, 3);
  const int64_t n = in.range(1, 6);
  std::vector<double> rows(static_cast<size_t>(n * d));
  for (double &v : rows) v = in.number();
  dpcov_row_session *s = session(in, kind, n, d);
  if (s == nullptr) return;
  run_passes(in, s, n, d, rows);
  check_result(s, kind, d);
  if (kind == Kind::CoinpressMean) run_centred(in, s, n, d, rows);
  dpcov_row_session_destroy(&s);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::Input in(data, size);
  if (in.range(0, 3) == 0) {
    std::vector<unsigned char> bytes;
    while (!in.empty()) bytes.push_back(in.raw<unsigned char>());
    dpcov_row_partial *p = imported(bytes);
    dpcov_row_partial_destroy(&p);
    return 0;
  }
  run(in);
  return 0;
}
