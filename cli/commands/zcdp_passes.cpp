#include "zcdp_passes.hpp"

#include <memory>
#include <vector>

#include "../io/progress.hpp"

namespace dpcov::cli {

namespace {

struct SessionDeleter {
  void operator()(dpcov_row_session *s) const { dpcov_row_session_destroy(&s); }
};
struct PartialDeleter {
  void operator()(dpcov_row_partial *p) const { dpcov_row_partial_destroy(&p); }
};
using SessionHandle = std::unique_ptr<dpcov_row_session, SessionDeleter>;
using PartialHandle = std::unique_ptr<dpcov_row_partial, PartialDeleter>;

// A generator in `rng`'s state, for the session to take.
dpcov_status copy_of(const dpcov_rng *rng, dpcov_rng **copy) {
  std::vector<unsigned char> state(dpcov_rng_state_size());
  dpcov_status status = dpcov_rng_state_save(rng, state.data(), state.size());
  if (status == DPCOV_OK) status = dpcov_rng_create_seeded(copy, 0, 0);
  if (status == DPCOV_OK) status = dpcov_rng_state_restore(*copy, state.data(), state.size());
  return status;
}

// One pass: every row of the input, read again, added to a partial of the pending pass, which
// finishes it.
dpcov_status run_pass(const ZcdpReleaseOptions &o, RereadableInput &input,
                      dpcov_row_session *session) {
  dpcov_row_partial *raw = nullptr;
  dpcov_status status = dpcov_row_partial_create(&raw, session);
  if (status != DPCOV_OK) return status;
  PartialHandle partial(raw);
  const std::unique_ptr<RowReader> reader = input.open();
  Progress progress(!o.quiet, reader->total_bytes());
  Chunk chunk;
  int64_t rows = 0;
  while (reader->next_chunk(chunk)) {
    status = dpcov_row_partial_add_rows(partial.get(), DPCOV_ROW_MAJOR, chunk.rows, chunk.dim,
                                        chunk.values.data(), chunk.dim);
    if (status != DPCOV_OK) return status;
    rows += chunk.rows;
    progress.update(reader->bytes_read(), rows);
  }
  progress.finish();
  raw = partial.release();
  status = dpcov_row_session_finish_pass(session, &raw);
  dpcov_row_partial_destroy(&raw);
  return status;
}

}  // namespace

bool zcdp_rereads_input(const ZcdpReleaseOptions &o) {
  return o.mechanism.mechanism != "coinpress_mean" && !o.center;
}

dpcov_status zcdp_release_passes(const ZcdpReleaseOptions &o, RereadableInput &input,
                                 const ZcdpPlan &plan, int64_t n, int64_t d, dpcov_rng *rng,
                                 double *released, dpcov_dly_receipt *dly,
                                 dpcov_coinpress_receipt *coinpress) {
  dpcov_rng *copy = nullptr;
  dpcov_status status = copy_of(rng, &copy);
  const bool is_coinpress = plan.mechanism == "coinpress";
  dpcov_row_session *raw = nullptr;
  if (status == DPCOV_OK)
    status = is_coinpress ? dpcov_coinpress_session_create(&raw, n, d, &plan.coinpress, &copy)
                          : dpcov_dly_session_create(&raw, n, d, &plan.dly, &copy);
  dpcov_rng_destroy(&copy);
  if (status != DPCOV_OK) return status;
  SessionHandle session(raw);
  // The session spends the noise of `rng`'s stream from here: `rng` moves on, and every failure
  // from now on is charged.
  uint64_t spent = 0;
  status = dpcov_rng_next_u64(rng, &spent);
  int32_t done = 0;
  while (status == DPCOV_OK && (status = dpcov_row_session_done(session.get(), &done)) == DPCOV_OK &&
         done == 0)
    status = run_pass(o, input, session.get());
  if (status != DPCOV_OK) return status;
  return is_coinpress
             ? dpcov_coinpress_session_result(session.get(), DPCOV_ROW_MAJOR, released, d, coinpress)
             : dpcov_dly_session_result(session.get(), DPCOV_ROW_MAJOR, released, d, dly);
}

}  // namespace dpcov::cli
