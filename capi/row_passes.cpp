// C ABI of the zCDP row mechanisms as passes over the rows (dpcov/row_passes.h).
#include <algorithm>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "../core/check.hpp"
#include "../core/error.hpp"
#include "guard.hpp"
#include "receipt_prefix.hpp"
#include "rng_handle.hpp"
#include "row_pass_handle.hpp"
#include "struct_size.hpp"
#include "zcdp_structs.hpp"

namespace {

using dpcov::fail;
using dpcov::Status;
namespace check = dpcov::check;
namespace mech = dpcov::mechanisms;

// The generator a session takes: the caller's handle is freed and nulled, so that nothing else
// draws from the stream whose noise the session consumes.
std::unique_ptr<dpcov_row_session> take_generator(dpcov_rng **rng) {
  check::not_null(rng, "rng");
  check::not_null(*rng, "*rng");
  return std::make_unique<dpcov_row_session>((*rng)->rng);
}

void check_usable(const dpcov_row_session *session) {
  check::not_null(session, "session");
  if (session->failed)
    fail(Status::InvalidArgument,
         "the session failed after drawing noise: its budget is spent; destroy it");
}

bool done(const dpcov_row_session &s) {
  if (s.coinpress_mean) return s.coinpress_mean->done();
  return s.dly ? s.dly->done() : s.coinpress->done();
}

const mech::RowPass &pending_pass(const dpcov_row_session &s) {
  if (s.coinpress_mean) return s.coinpress_mean->pass();
  return s.dly ? s.dly->pass() : s.coinpress->pass();
}

const char *kind_name(const dpcov_row_session &s) {
  if (s.coinpress_mean) return "CoinPress mean";
  return s.dly ? "Dong-Liang-Yi" : "CoinPress";
}

void write_matrix(const dpcov::Matrix &m, dpcov::MatrixView target) {
  check::finite_result(m.view(), "released matrix");
  for (int64_t j = 0; j < m.cols(); ++j)
    for (int64_t i = 0; i < m.rows(); ++i) target(i, j) = m(i, j);
}

// The finished session of the asked kind (its name, as kind_name() gives), for reading its result.
const dpcov_row_session &finished(const dpcov_row_session *session, const char *want) {
  check_usable(session);
  if (std::string_view(want) != kind_name(*session))
    fail(Status::InvalidArgument, "the session is a ", kind_name(*session), " release");
  if (!done(*session))
    fail(Status::InvalidArgument, "the release is not complete: a pass is pending");
  return *session;
}

}  // namespace

extern "C" {

dpcov_status dpcov_dly_session_create(dpcov_row_session **out, int64_t n, int64_t dim,
                                      const dpcov_dly_params *params, dpcov_rng **rng) {
  return dpcov::capi::guarded([&] {
    check::not_null(out, "out");
    const mech::DlyRequest request = dpcov::capi::dly_request(n, dim, params);
    mech::dly_plan(request);  // every setting checked before the generator is taken
    std::unique_ptr<dpcov_row_session> session = take_generator(rng);
    session->n = n;
    session->dly = std::make_unique<mech::DlyPasses>(request, session->rng);
    *out = session.release();
    dpcov_rng_destroy(rng);
  });
}

dpcov_status dpcov_coinpress_session_create(dpcov_row_session **out, int64_t n, int64_t dim,
                                            const dpcov_coinpress_params *params,
                                            dpcov_rng **rng) {
  return dpcov::capi::guarded([&] {
    check::not_null(out, "out");
    const mech::CoinpressRequest request = dpcov::capi::coinpress_request(n, dim, params);
    const mech::CoinpressReceipt plan = mech::coinpress_plan(request);
    std::unique_ptr<dpcov_row_session> session = take_generator(rng);
    session->n = n;
    session->coinpress = std::make_unique<mech::CoinpressPasses>(mech::coinpress_steps(plan), dim,
                                                                 n, session->rng);
    session->coinpress_receipt = plan;
    session->coinpress_receipt.seed_fixed = session->rng.seed_fixed();
    *out = session.release();
    dpcov_rng_destroy(rng);
  });
}

dpcov_status dpcov_coinpress_mean_session_create(dpcov_row_session **out, int64_t n, int64_t dim,
                                                 const double *centre,
                                                 const dpcov_coinpress_mean_params *params,
                                                 dpcov_rng **rng) {
  return dpcov::capi::guarded([&] {
    check::not_null(out, "out");
    const mech::CoinpressMeanRequest request = dpcov::capi::coinpress_mean_request(n, dim, params);
    const mech::CoinpressMeanReceipt plan = mech::coinpress_mean_plan(request);
    std::vector<double> start(static_cast<size_t>(dim), 0.0);
    if (centre != nullptr) {
      check::vector(dim, centre, sizeof(double), "centre");
      start.assign(centre, centre + dim);
      for (double v : start) check::finite(v, "centre");
    }
    std::unique_ptr<dpcov_row_session> session = take_generator(rng);
    session->n = n;
    session->coinpress_mean =
        std::make_unique<mech::CoinpressMeanPasses>(plan, std::move(start), session->rng);
    session->coinpress_mean_receipt = plan;
    session->coinpress_mean_receipt.seed_fixed = session->rng.seed_fixed();
    *out = session.release();
    dpcov_rng_destroy(rng);
  });
}

dpcov_status dpcov_coinpress_centred_session_create(dpcov_row_session **out,
                                                     dpcov_row_session *mean_session,
                                                     const dpcov_coinpress_params *params) {
  return dpcov::capi::guarded([&] {
    check::not_null(out, "out");
    const dpcov_row_session &mean = finished(mean_session, "CoinPress mean");
    if (mean.generator_handed_on)
      fail(Status::InvalidArgument, "the mean session's generator was handed on to a centred ",
           "CoinPress session already: another would draw the same noise again");
    const int64_t dim = mean.coinpress_mean_receipt.dim;
    const mech::CoinpressRequest request = dpcov::capi::coinpress_request(mean.n, dim, params);
    const mech::CoinpressReceipt plan = mech::coinpress_plan(request);
    // The released mean: finite (the mean session fails otherwise), a post-processing of its
    // noisy steps.
    std::vector<double> centre = mean.coinpress_mean->mean();
    auto session = std::make_unique<dpcov_row_session>(mean.rng);
    session->n = mean.n;
    session->coinpress = std::make_unique<mech::CoinpressPasses>(
        mech::coinpress_steps(plan), dim, mean.n, session->rng, nullptr, std::move(centre));
    session->coinpress_receipt = plan;
    session->coinpress_receipt.seed_fixed = session->rng.seed_fixed();
    mean_session->generator_handed_on = true;
    *out = session.release();
  });
}

void dpcov_row_session_destroy(dpcov_row_session **session) {
  if (session == nullptr) return;
  delete *session;
  *session = nullptr;
}

dpcov_status dpcov_row_session_done(const dpcov_row_session *session, int32_t *is_done) {
  return dpcov::capi::guarded([&] {
    check_usable(session);
    check::not_null(is_done, "done");
    *is_done = done(*session) ? 1 : 0;
  });
}

dpcov_status dpcov_row_partial_create(dpcov_row_partial **out, const dpcov_row_session *session) {
  return dpcov::capi::guarded([&] {
    check::not_null(out, "out");
    check_usable(session);
    auto partial = std::make_unique<dpcov_row_partial>();
    partial->partial = mech::row_partial(pending_pass(*session));
    *out = partial.release();
  });
}

void dpcov_row_partial_destroy(dpcov_row_partial **partial) {
  if (partial == nullptr) return;
  delete *partial;
  *partial = nullptr;
}

dpcov_status dpcov_row_partial_add_rows(dpcov_row_partial *partial, int32_t layout, int64_t rows,
                                        int64_t cols, const double *a, int64_t lda) {
  return dpcov::capi::guarded([&] {
    check::not_null(partial, "partial");
    const dpcov::ConstMatrixView data = check::matrix(layout, rows, cols, a, lda, "rows", true);
    mech::add_rows(partial->partial, data);
  });
}

dpcov_status dpcov_row_partial_merge(dpcov_row_partial *dst, const dpcov_row_partial *src) {
  return dpcov::capi::guarded([&] {
    check::not_null(dst, "dst");
    check::not_null(src, "src");
    const mech::RowPartial from = src->partial;  // src may be dst
    mech::merge(dst->partial, from);
  });
}

dpcov_status dpcov_row_session_finish_pass(dpcov_row_session *session,
                                           dpcov_row_partial **partial) {
  return dpcov::capi::guarded([&] {
    check_usable(session);
    check::not_null(partial, "partial");
    check::not_null(*partial, "*partial");
    if (done(*session)) fail(Status::InvalidArgument, "the release is complete: no pass is left");
    // Checked before any draw: a wrong partial leaves everything as it was.
    mech::check_pass_sums(pending_pass(*session), session->n, (*partial)->partial);
    try {
      if (session->coinpress_mean)
        session->coinpress_mean->finish_pass((*partial)->partial);
      else if (session->dly)
        session->dly->finish_pass((*partial)->partial);
      else
        session->coinpress->finish_pass((*partial)->partial);
    } catch (...) {
      session->failed = true;
      dpcov_row_partial_destroy(partial);
      throw;
    }
    dpcov_row_partial_destroy(partial);
  });
}

dpcov_status dpcov_dly_session_result(const dpcov_row_session *session, int32_t layout,
                                      double *out, int64_t ldo, dpcov_dly_receipt *receipt) {
  return dpcov::capi::guarded([&] {
    const dpcov_row_session &s = finished(session, "Dong-Liang-Yi");
    dpcov::capi::struct_bytes(receipt, "receipt");
    const mech::DlyRelease &release = s.dly->release();
    const int64_t d = release.covariance.rows();
    const dpcov::MatrixView target = check::output_matrix(layout, d, d, out, ldo, "out");
    write_matrix(release.covariance, target);
    dpcov_dly_receipt written = dpcov::capi::dly_c_receipt(release.receipt, receipt->struct_size);
    written.generator = dpcov::capi::c_generator(s.rng);
    dpcov::capi::write_struct(receipt, written);
  });
}

dpcov_status dpcov_coinpress_session_result(const dpcov_row_session *session, int32_t layout,
                                            double *out, int64_t ldo,
                                            dpcov_coinpress_receipt *receipt) {
  return dpcov::capi::guarded([&] {
    const dpcov_row_session &s = finished(session, "CoinPress");
    dpcov::capi::struct_bytes(receipt, "receipt");
    const dpcov::Matrix &estimate = s.coinpress->estimate();
    const int64_t d = estimate.rows();
    const dpcov::MatrixView target = check::output_matrix(layout, d, d, out, ldo, "out");
    write_matrix(estimate, target);
    dpcov_coinpress_receipt written =
        dpcov::capi::coinpress_c_receipt(s.coinpress_receipt, receipt->struct_size);
    written.generator = dpcov::capi::c_generator(s.rng);
    dpcov::capi::write_struct(receipt, written);
  });
}

dpcov_status dpcov_coinpress_mean_session_result(const dpcov_row_session *session, double *mean,
                                                 dpcov_coinpress_mean_receipt *receipt) {
  return dpcov::capi::guarded([&] {
    const dpcov_row_session &s = finished(session, "CoinPress mean");
    dpcov::capi::struct_bytes(receipt, "receipt");
    check::not_null(mean, "mean");
    const std::vector<double> &estimate = s.coinpress_mean->mean();
    check::vector(static_cast<int64_t>(estimate.size()), mean, sizeof(double), "mean");
    check::finite_result(estimate.data(), estimate.size(), "released mean");
    std::copy(estimate.begin(), estimate.end(), mean);
    dpcov_coinpress_mean_receipt written =
        dpcov::capi::coinpress_mean_c_receipt(s.coinpress_mean_receipt);
    written.generator = dpcov::capi::c_generator(s.rng);
    dpcov::capi::write_struct(receipt, written);
  });
}

}  // extern "C"
