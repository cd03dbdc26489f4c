#include "rows_unit_audit.hpp"

#include <algorithm>

#include "../error.hpp"
#include "../privacy/unit_bound.hpp"
#include "../privacy/unit_group_privacy.hpp"
#include "datasets.hpp"

namespace dpcov::audit {

namespace {

void check_k(int64_t k) {
  if (k < 1 || k > privacy::kMaxRowsPerUnit)
    fail(Status::InvalidArgument, "max_rows_per_unit must be in [1, ", privacy::kMaxRowsPerUnit,
         "], got ", k);
}

void check_whole_units(int64_t n, int64_t k) {
  if (k < 1 || n % k != 0)
    fail(Status::InvalidArgument, "a unit-level pair holds units of exactly k rows: k = ", k,
         " must divide n = ", n);
}

}  // namespace

double rows_unit_release_rho(int64_t max_rows_per_unit, double rho, bool rows_only) {
  const int64_t steps = privacy::unit_group_steps(
      privacy::Neighbour::ReplaceOne, privacy::Neighbour::ReplaceOne, max_rows_per_unit);
  return rows_only ? rho : privacy::group_privacy_row_rho(steps, rho);
}

RowsAuditRequest rows_units_black_box_claim(RowsMechanism mechanism, int64_t max_rows_per_unit,
                                            double rho, double delta) {
  check_k(max_rows_per_unit);
  const int64_t units = std::max<int64_t>(5, (20 + max_rows_per_unit - 1) / max_rows_per_unit);
  return {mechanism, 3, units * max_rows_per_unit, rho, delta, 1.0};
}

mechanisms::CoinpressMeanRequest coinpress_mean_units_claim(int64_t max_rows_per_unit,
                                                            int64_t steps, double rho,
                                                            double delta) {
  check_k(max_rows_per_unit);
  mechanisms::CoinpressMeanRequest claim;
  claim.dim = 3;
  claim.n = 20 * max_rows_per_unit;
  claim.rho = rho;
  claim.radius = 5.0;
  claim.steps = steps;
  claim.delta = delta;
  return claim;
}

RowsPair rows_unit_audit_pair(const RowsAuditRequest &request, int64_t max_rows_per_unit,
                              uint64_t seed) {
  check_whole_units(request.n, max_rows_per_unit);
  RowsPair p = rows_audit_pair(request, seed);
  for (int64_t i = 1; i < max_rows_per_unit; ++i)
    for (int64_t j = 0; j < request.dim; ++j) {
      p.rows.rows(i, j) = p.rows.rows(0, j);
      p.rows.rows_prime(i, j) = p.rows.rows_prime(0, j);
    }
  const double s = rows_audit_norm(request);
  p.stats = {gram_of(p.rows.rows, s), gram_of(p.rows.rows_prime, s), request.n, request.n};
  return p;
}

BlackBoxReport audit_rows_units_black_box(const RowsAuditRequest &claim,
                                          int64_t max_rows_per_unit, bool rows_only,
                                          const BlackBoxSettings &settings) {
  check_rows_request(claim);
  const double rho_used = rows_unit_release_rho(max_rows_per_unit, claim.rho, rows_only);
  const RowsPair pair = rows_unit_audit_pair(claim, max_rows_per_unit, settings.seed);
  return run_black_box_audit(rows_target(claim, pair, rho_used), pair.stats, settings);
}

CoinpressMeanAuditReport audit_coinpress_mean_units(const mechanisms::CoinpressMeanRequest &claim,
                                                    int64_t max_rows_per_unit, bool rows_only,
                                                    int64_t trials, double alpha, uint64_t seed) {
  check_transcript_audit(trials, alpha);
  check_whole_units(claim.n, max_rows_per_unit);
  mechanisms::CoinpressMeanRequest released = claim;
  released.rho = rows_unit_release_rho(max_rows_per_unit, claim.rho, rows_only);
  mechanisms::coinpress_mean_plan(claim);  // the claim itself is one the library would plan
  return audit_coinpress_mean(released, coinpress_mean_audit_pair(released, max_rows_per_unit),
                              coinpress_mean_library_release(released), trials, alpha, seed,
                              claim.rho);
}

}  // namespace dpcov::audit
