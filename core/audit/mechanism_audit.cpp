#include "mechanism_audit.hpp"

#include <algorithm>
#include <cmath>

#include "../error.hpp"
#include "../linalg/blas.hpp"
#include "../mechanisms/inverse_gauss.hpp"
#include "../mechanisms/registry.hpp"

namespace dpcov::audit {

namespace {

// ols_jl_threshold_rows(): how far above the test's threshold the expected lambda_min is placed.
constexpr double kThresholdRowsMargin = 1.05;

bool same_row(const Matrix &a, int64_t i, const Matrix &b, int64_t k) {
  for (int64_t j = 0; j < a.cols(); ++j)
    if (a(i, j) != b(k, j)) return false;
  return true;
}

// Whether `shorter` is `longer` with exactly one row removed (rows kept in order).
bool one_row_removed(const Matrix &longer, const Matrix &shorter) {
  int64_t skipped = 0;
  for (int64_t i = 0, k = 0; i < longer.rows(); ++i) {
    if (k < shorter.rows() && same_row(longer, i, shorter, k)) {
      ++k;
    } else if (++skipped > 1) {
      return false;
    }
  }
  return skipped == 1;
}

}  // namespace

DatasetPair generate_pair(const mechanisms::Request &request, DatasetKind dataset,
                          NeighbourKind neighbour, uint64_t seed) {
  random::Rng rng = random::Rng::from_seed(seed, 1);
  const Matrix rows = generate_dataset(dataset, request.n, request.dim, request.bound, rng);
  return make_neighbour(rows, request.bound, request.options.neighbour, neighbour, rng);
}

PairStatistics pair_statistics(const Matrix &rows, const Matrix &rows_prime, double bound,
                               privacy::Neighbour relation) {
  if (rows.cols() != rows_prime.cols())
    fail(Status::Dimension, "the two datasets must have the same d, got ", rows.cols(), " and ",
         rows_prime.cols());
  if (relation == privacy::Neighbour::ReplaceOne) {
    if (rows.rows() != rows_prime.rows())
      fail(Status::Incompatible, "replace-one neighbours have the same n, got ", rows.rows(),
           " and ", rows_prime.rows());
    int64_t differing = 0;
    for (int64_t i = 0; i < rows.rows(); ++i) differing += same_row(rows, i, rows_prime, i) ? 0 : 1;
    if (differing > 1)
      fail(Status::Incompatible,
           "replace-one neighbours differ in at most one row, these differ in ", differing);
  } else {
    const bool ok = rows.rows() == rows_prime.rows() + 1   ? one_row_removed(rows, rows_prime)
                    : rows_prime.rows() == rows.rows() + 1 ? one_row_removed(rows_prime, rows)
                                                           : false;
    if (!ok)
      fail(Status::Incompatible, "add/remove neighbours: one dataset must be the other with ",
           "exactly one row removed");
  }
  return {gram_of(rows, bound), gram_of(rows_prime, bound), rows.rows(), rows_prime.rows()};
}

bool bound_from_pair(mechanisms::MechanismId mechanism, const mechanisms::Request &request) {
  const int32_t options = mechanisms::entry_of(static_cast<int32_t>(mechanism)).options;
  return (options & mechanisms::kOptionLambdaMin) != 0 && request.options.lambda_min_bound == 0.0;
}

mechanisms::Request request_for_pair(mechanisms::MechanismId mechanism,
                                     mechanisms::Request request, const PairStatistics &pair) {
  if (!bound_from_pair(mechanism, request)) return request;
  // The same computation as the mechanism's own check, so the bound holds there exactly.
  const double bound = std::min(linalg::eigvalsh(pair.gram).front(),
                                linalg::eigvalsh(pair.gram_prime).front());
  // Within the rounding allowance a rank-deficient pair's computed lambda_min is positive or not
  // by the BLAS's summation order (its thread count): only a provably positive one is a bound.
  const double allowance = std::max(mechanisms::eigenvalue_allowance(pair.gram),
                                    mechanisms::eigenvalue_allowance(pair.gram_prime));
  if (!(bound > allowance))
    fail(Status::Precondition, "inverse_gauss needs lambda_min(G) > 0 on both datasets of the ",
         "audited pair, got ", bound, "; use data of full rank");
  request.options.lambda_min_bound = bound;
  return request;
}

int64_t ols_jl_threshold_rows(const mechanisms::Request &request) {
  const mechanisms::Receipt receipt = mechanisms::plan(mechanisms::MechanismId::OlsJl, request);
  const double level = receipt.threshold_w2 + receipt.test_shift;
  const double rows = std::ceil(kThresholdRowsMargin * static_cast<double>(request.dim) * level /
                                (request.bound * request.bound));
  // The threshold grows as 1/epsilon: a tiny epsilon asks for more rows than an int64_t holds.
  if (!(rows < 0x1p63))
    fail(Status::TooLarge, "ols_jl's threshold rows at epsilon = ", request.epsilon, " (", rows,
         ") do not fit in a 64-bit integer");
  return std::max<int64_t>(1, static_cast<int64_t>(rows));
}

AuditReport audit_mechanism(mechanisms::MechanismId mechanism, const mechanisms::Request &request,
                            const PairStatistics &pair, const Settings &settings) {
  return run_exact_audit(mechanism_target(mechanism, request), pair, settings);
}

}  // namespace dpcov::audit
