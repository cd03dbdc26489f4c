#include "rows_black_box.hpp"

#include <cmath>
#include <utility>

#include "../error.hpp"
#include "../mechanisms/coinpress.hpp"
#include "../mechanisms/dong_liang_yi.hpp"
#include "../privacy/zcdp.hpp"
#include "mechanism_audit.hpp"

namespace dpcov::audit {

namespace {

bool is_coinpress(const RowsAuditRequest &request) {
  return request.mechanism == RowsMechanism::Coinpress;
}

mechanisms::DlyRequest dly_request(const RowsAuditRequest &request, double rho) {
  mechanisms::DlyRequest r;
  r.variant = static_cast<mechanisms::DlyVariant>(request.mechanism);
  r.dim = request.dim;
  r.n = request.n;
  r.rho = rho;
  r.radius = request.scale;
  r.delta = request.delta;
  return r;
}

mechanisms::CoinpressRequest coinpress_request(const RowsAuditRequest &request, double rho) {
  mechanisms::CoinpressRequest r;
  r.dim = request.dim;
  r.n = request.n;
  r.rho = rho;
  r.k_bound = request.scale;
  r.delta = request.delta;
  return r;
}

}  // namespace

double rows_audit_norm(const RowsAuditRequest &request) {
  return is_coinpress(request) ? std::sqrt(request.scale) : request.scale;
}

RowsMechanism rows_mechanism(int32_t value) {
  if (value < static_cast<int32_t>(RowsMechanism::DlyGauss) ||
      value > static_cast<int32_t>(RowsMechanism::Coinpress))
    fail(Status::InvalidArgument, "unknown mechanism on the rows ", value);
  return static_cast<RowsMechanism>(value);
}

const char *rows_mechanism_name(RowsMechanism mechanism) {
  switch (mechanism) {
    case RowsMechanism::DlyGauss: return "dly_gauss";
    case RowsMechanism::DlySeparate: return "dly_separate";
    case RowsMechanism::DlyAdaptive: return "dly_adaptive";
    case RowsMechanism::DlyAdaptivePaper: return "dly_adaptive_paper";
    case RowsMechanism::Coinpress: return "coinpress";
  }
  return "unknown";
}

void check_rows_request(const RowsAuditRequest &request) {
  rows_mechanism(static_cast<int32_t>(request.mechanism));
  if (is_coinpress(request))
    mechanisms::coinpress_plan(coinpress_request(request, request.rho));
  else
    mechanisms::dly_plan(dly_request(request, request.rho));
}

RowsPair rows_audit_pair(const RowsAuditRequest &request, uint64_t seed) {
  mechanisms::Request shape;
  shape.dim = request.dim;
  shape.n = request.n;
  shape.bound = rows_audit_norm(request);
  RowsPair p{generate_pair(shape, DatasetKind::SphereRows, NeighbourKind::MaxL2Change, seed), {}};
  p.stats = pair_statistics(p.rows.rows, p.rows.rows_prime, shape.bound, shape.options.neighbour);
  return p;
}

Target rows_target(const RowsAuditRequest &claim, const RowsPair &pair, double rho_used) {
  Target t;
  t.name = rows_mechanism_name(claim.mechanism);
  t.epsilon = privacy::zcdp_epsilon(claim.rho, claim.delta);
  t.delta = claim.delta;
  t.release = [&pair, claim, rho_used](ConstMatrixView gram, int64_t, random::Rng &rng) {
    const Matrix &rows =
        gram.data == pair.stats.gram.data() ? pair.rows.rows : pair.rows.rows_prime;
    Matrix out = is_coinpress(claim)
                     ? mechanisms::coinpress_release(rows.view(), coinpress_request(claim, rho_used),
                                                     rng)
                           .covariance
                     : mechanisms::dly_release(rows.view(), dly_request(claim, rho_used), rng)
                           .covariance;
    // n is public: n times the estimate of X^T X / n estimates the Gram matrix the audit compares.
    const double n = static_cast<double>(rows.rows());
    for (int64_t j = 0; j < out.cols(); ++j)
      for (int64_t i = 0; i < out.rows(); ++i) out(i, j) *= n;
    return Output{std::move(out), 0.0, false};
  };
  return t;
}

BlackBoxReport audit_rows_black_box(const RowsAuditRequest &request,
                                    const BlackBoxSettings &settings) {
  check_rows_request(request);
  const RowsPair pair = rows_audit_pair(request, settings.seed);
  return run_black_box_audit(rows_target(request, pair, request.rho), pair.stats, settings);
}

}  // namespace dpcov::audit
