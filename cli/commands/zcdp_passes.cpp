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

// A session made by `create` from a generator in `rng`'s state; `rng` then moves on, so that
// every failure from here on is charged.
template <class Create>
dpcov_status start_session(dpcov_rng *rng, Create create, SessionHandle &session) {
  dpcov_rng *copy = nullptr;
  dpcov_status status = copy_of(rng, &copy);
  dpcov_row_session *raw = nullptr;
  if (status == DPCOV_OK) status = create(&raw, &copy);
  dpcov_rng_destroy(&copy);
  if (status != DPCOV_OK) return status;
  session.reset(raw);
  uint64_t spent = 0;
  return dpcov_rng_next_u64(rng, &spent);
}

// Every pass `session` asks for, each reading the input again.
dpcov_status run_passes(const ZcdpReleaseOptions &o, RereadableInput &input,
                        dpcov_row_session *session) {
  int32_t done = 0;
  dpcov_status status = DPCOV_OK;
  while ((status = dpcov_row_session_done(session, &done)) == DPCOV_OK && done == 0)
    if ((status = run_pass(o, input, session)) != DPCOV_OK) return status;
  return status;
}

// The CoinPress mean session of plan.mean over the input, done.
dpcov_status mean_session(const ZcdpReleaseOptions &o, RereadableInput &input,
                          const ZcdpPlan &plan, int64_t n, int64_t d, dpcov_rng *rng,
                          SessionHandle &session) {
  const dpcov_status status = start_session(
      rng,
      [&](dpcov_row_session **s, dpcov_rng **g) {
        return dpcov_coinpress_mean_session_create(s, n, d, nullptr, &plan.mean, g);
      },
      session);
  return status == DPCOV_OK ? run_passes(o, input, session.get()) : status;
}

// coinpress --center's covariance session: the mean's passes, then a session centred on its mean.
dpcov_status centred_session(const ZcdpReleaseOptions &o, RereadableInput &input,
                             const ZcdpPlan &plan, int64_t n, int64_t d, dpcov_rng *rng,
                             CentringMean &centring, SessionHandle &session) {
  SessionHandle mean;
  dpcov_status status = mean_session(o, input, plan, n, d, rng, mean);
  centring.mean.assign(static_cast<size_t>(d), 0.0);
  centring.receipt.struct_size = sizeof centring.receipt;
  if (status == DPCOV_OK)
    status = dpcov_coinpress_mean_session_result(mean.get(), centring.mean.data(),
                                                 &centring.receipt);
  dpcov_row_session *raw = nullptr;
  if (status == DPCOV_OK)
    status = dpcov_coinpress_centred_session_create(&raw, mean.get(), &plan.coinpress);
  if (status == DPCOV_OK) session.reset(raw);
  return status;
}

}  // namespace

dpcov_status zcdp_release_passes(const ZcdpReleaseOptions &o, RereadableInput &input,
                                 const ZcdpPlan &plan, int64_t n, int64_t d, dpcov_rng *rng,
                                 double *released, dpcov_dly_receipt *dly,
                                 dpcov_coinpress_receipt *coinpress, CentringMean *centring) {
  const bool is_coinpress = plan.mechanism == "coinpress";
  SessionHandle session;
  dpcov_status status = DPCOV_OK;
  if (is_coinpress && !plan.centring.empty())
    status = centred_session(o, input, plan, n, d, rng, *centring, session);
  else
    status = start_session(
        rng,
        [&](dpcov_row_session **s, dpcov_rng **g) {
          return is_coinpress ? dpcov_coinpress_session_create(s, n, d, &plan.coinpress, g)
                              : dpcov_dly_session_create(s, n, d, &plan.dly, g);
        },
        session);
  if (status == DPCOV_OK) status = run_passes(o, input, session.get());
  if (status != DPCOV_OK) return status;
  return is_coinpress
             ? dpcov_coinpress_session_result(session.get(), DPCOV_ROW_MAJOR, released, d, coinpress)
             : dpcov_dly_session_result(session.get(), DPCOV_ROW_MAJOR, released, d, dly);
}

dpcov_status coinpress_mean_passes(const ZcdpReleaseOptions &o, RereadableInput &input,
                                   const ZcdpPlan &plan, int64_t n, int64_t d, dpcov_rng *rng,
                                   double *mean, dpcov_coinpress_mean_receipt *receipt) {
  SessionHandle session;
  const dpcov_status status = mean_session(o, input, plan, n, d, rng, session);
  return status == DPCOV_OK ? dpcov_coinpress_mean_session_result(session.get(), mean, receipt)
                            : status;
}

}  // namespace dpcov::cli
