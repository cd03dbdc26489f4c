// Audits of dpcov mechanisms on generated or given dataset pairs: what the C ABI
// (dpcov/audit.h), the CLI and the long audit call.
#pragma once

#include <cstdint>

#include "../mechanisms/mechanism.hpp"
#include "datasets.hpp"
#include "loss_audit.hpp"

namespace dpcov::audit {

// Generates D (request.n rows of `dataset` kind, request.dim, request.bound) and its neighbour of
// `neighbour` kind under request.options.neighbour, from Rng::from_seed(seed, 1) (a stream the
// audit's own draws never use).
DatasetPair generate_pair(const mechanisms::Request &request, DatasetKind dataset,
                          NeighbourKind neighbour, uint64_t seed);

// Checks that (rows, rows_prime) are neighbours under `relation` (replace-one: same n and at most
// one row differs; add/remove: one of them is the other with exactly one row removed) with rows of
// norm <= B, and returns their statistics. Throws Status::Dimension, Status::Incompatible (not
// neighbours), Status::NormBound, Status::NonFinite.
PairStatistics pair_statistics(const Matrix &rows, const Matrix &rows_prime, double bound,
                               privacy::Neighbour relation);

// The request to audit on this pair. Inverse Gauss needs a public bound theta^2 <= lambda_min(G)
// that covers both datasets; when request.options.lambda_min_bound is 0 it is set to
// min(lambda_min(G), lambda_min(G')) (so the domain is exactly what the pair spans), and
// Status::Precondition is thrown if that is not > 0. Every other request is returned unchanged.
mechanisms::Request request_for_pair(mechanisms::MechanismId mechanism,
                                     mechanisms::Request request, const PairStatistics &pair);

// Whether request_for_pair() sets a bound of the request from the pair (a mechanism that takes a
// lambda_min bound, asked without one): such a request is planned only once the pair is known.
bool bound_from_pair(mechanisms::MechanismId mechanism, const mechanisms::Request &request);

// The number of rows at which rows on the sphere of radius B (E G = (n B^2 / d) I) put
// lambda_min(G) near the threshold of ols_jl's private test, w^2 + shift: 5% above it, which the
// sampling deficit of lambda_min (O(sqrt(n) B^2)) roughly takes back. There both refusals and
// releases occur, and their probabilities under D and D' differ most. Throws the plan's statuses.
int64_t ols_jl_threshold_rows(const mechanisms::Request &request);

// run_exact_audit() of the mechanism's own target on the pair.
AuditReport audit_mechanism(mechanisms::MechanismId mechanism, const mechanisms::Request &request,
                            const PairStatistics &pair, const Settings &settings);

}  // namespace dpcov::audit
