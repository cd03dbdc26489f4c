// Datasets and neighbouring pairs for privacy audits: plain generators driven by an explicit
// generator, shared by the tests (through RapidCheck wrappers), the C ABI and the CLI.
//
// Every row has Euclidean norm <= B. A pair (D, D') is neighbouring under the request's relation:
// replace-one (same n, row `changed_row` differs) or add/remove (D' = D plus one row, appended).
// Adversarial pairs may also rewrite the changed row of D: both datasets stay in the domain, and a
// guarantee must hold for every pair in the domain.
#pragma once

#include <cstdint>

#include "../matrix.hpp"
#include "../privacy/neighbour.hpp"
#include "../random/rng.hpp"

namespace dpcov::audit {

enum class DatasetKind : int32_t {
  // Directions uniform on the sphere, radius B U^{1/d}: uniform in the ball of radius B.
  RandomRows = 0,
  // Directions uniform, every norm exactly B (up to rounding): the norm bound is tight.
  SphereRows = 1,
  // max(1, n/4) distinct random rows, each repeated: duplicated records.
  RepeatedRows = 2,
  // Rows in a random subspace of dimension max(1, d/2): G singular when d >= 2.
  RankDeficient = 3,
  // Rank-deficient rows plus a perturbation of relative size 1e-6 off the subspace: G invertible
  // with condition number about 1e12.
  NearlySingular = 4,
  // min(n, 2) random rows: the smallest datasets (n = 1 makes G rank one).
  TinyN = 5,
};

enum class NeighbourKind : int32_t {
  // Replace-one: row 0 of D replaced by a row uniform in the ball. Add/remove: such a row appended.
  Random = 0,
  // The pair maximising the L2 norm of the change of the upper triangle of G (the quantity the
  // Gaussian mechanisms are calibrated to): v = B e_1 -> v' = B e_2 (replace-one, norm sqrt(2) B^2;
  // v' = 0 when d = 1), or v = B e_1 appended (add/remove, norm B^2).
  MaxL2Change = 1,
  // The pair maximising the L1 norm of the change of the upper triangle (Laplace): replace-one by
  // local search (see max_l1_change_pair()), v = B (1, ..., 1) / sqrt(d) appended for add/remove
  // (tight: (d + 1) B^2 / 2).
  MaxL1Change = 2,
  // The change along the least-eigenvalue direction u of the Gram matrix of the unchanged rows:
  // replace-one makes row 0 of D zero and row 0 of D' equal to B u, add/remove appends B u. This
  // is the direction where a positive-definite noise (Wishart) misses its support and where
  // G^{-1} moves most.
  LeastEigenvector = 3,
};

const char *dataset_kind_name(DatasetKind kind);
const char *neighbour_kind_name(NeighbourKind kind);
// The enum for a C value; throws Status::InvalidArgument for an unknown one.
DatasetKind dataset_kind(int32_t value);
NeighbourKind neighbour_kind(int32_t value);

// An n x d dataset (n >= 1, d >= 1, B > 0 finite) of the given kind; TinyN returns min(n, 2)
// rows. Throws Status::Dimension / Status::InvalidArgument / Status::NonFinite.
Matrix generate_dataset(DatasetKind kind, int64_t n, int64_t d, double bound, random::Rng &rng);

struct DatasetPair {
  Matrix rows;        // D, n x d
  Matrix rows_prime;  // D', n x d (replace-one) or (n + 1) x d (add/remove)
  int64_t changed_row = 0;
};

// The neighbour of `rows` (n >= 1 rows of norm <= B) of the given kind under `relation`.
DatasetPair make_neighbour(const Matrix &rows, double bound, privacy::Neighbour relation,
                           NeighbourKind kind, random::Rng &rng);

// Unit vectors (v, w) maximising the L1 norm of the upper triangle of v v^T - w w^T: for a sign
// pattern s, that norm is at most lambda_max(S) - lambda_min(S) with S_ii = s_ii, S_ij = s_ij / 2,
// attained by the extreme eigenvectors; alternating "signs of v v^T - w w^T" and "extreme
// eigenvectors of S" never decreases it. Best of `restarts` random sign patterns (seeded by
// `rng`) and the all-ones pattern. Reaches 2.2361, 2.8723, 7.8102 at d = 2, 3, 10 (constants.md
// section 1 quotes about 0.71 (d + 1), 7.8101 at d = 10). Returns the value; writes v and w.
double max_l1_change_pair(int64_t d, int restarts, random::Rng &rng, double *v, double *w);

// G = A^T A of the rows, exactly symmetric (through the library's Gram accumulator with the
// reject policy, so a row over the bound throws Status::NormBound).
Matrix gram_of(const Matrix &rows, double bound);

// L2 and L1 norms of the upper triangle (diagonal included) of a - b.
double upper_triangle_l2_distance(ConstMatrixView a, ConstMatrixView b);
double upper_triangle_l1_distance(ConstMatrixView a, ConstMatrixView b);

}  // namespace dpcov::audit
