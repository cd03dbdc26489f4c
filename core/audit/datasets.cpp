#include "datasets.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "../check.hpp"
#include "../data/gram.hpp"
#include "../data/row_bound.hpp"
#include "../linalg/blas.hpp"
#include "../random/samplers.hpp"
#include "trials.hpp"

namespace dpcov::audit {

namespace {

// Norms are brought to B (1 - kShrink) at most: B u with ||u|| = 1 can round to a norm one ulp
// above B, which the reject policy would refuse.
constexpr double kShrink = 0x1.0p-50;
// Relative size of the off-subspace perturbation of NearlySingular data.
constexpr double kNearlySingularScale = 1e-6;

double norm_of(const double *x, int64_t d) { return linalg::nrm2(d, x, 1); }

void fit_to_bound(double *x, int64_t d, double bound) {
  const double norm = norm_of(x, d);
  const double cap = bound * (1.0 - kShrink);
  if (norm > cap) {
    const double factor = cap / norm;
    for (int64_t i = 0; i < d; ++i) x[i] *= factor;
  }
}

void set_row(Matrix &m, int64_t i, const std::vector<double> &x) {
  for (int64_t j = 0; j < m.cols(); ++j) m(i, j) = x[static_cast<size_t>(j)];
}

std::vector<double> get_row(const Matrix &m, int64_t i) {
  std::vector<double> x(static_cast<size_t>(m.cols()));
  for (int64_t j = 0; j < m.cols(); ++j) x[static_cast<size_t>(j)] = m(i, j);
  return x;
}

// A point uniform in the ball of radius `bound`: uniform direction, radius B U^{1/d}.
std::vector<double> ball_point(random::Rng &rng, int64_t d, double bound) {
  std::vector<double> x(static_cast<size_t>(d));
  random::uniform_sphere(rng, x.data(), d);
  const double radius = bound * std::pow(random::uniform01(rng), 1.0 / static_cast<double>(d));
  for (double &v : x) v *= radius;
  fit_to_bound(x.data(), d, bound);
  return x;
}

std::vector<double> sphere_point(random::Rng &rng, int64_t d, double bound) {
  std::vector<double> x(static_cast<size_t>(d));
  random::uniform_sphere(rng, x.data(), d);
  for (double &v : x) v *= bound;
  fit_to_bound(x.data(), d, bound);
  return x;
}

// An orthonormal basis (columns, d x r) of a random r-dimensional subspace: Gram-Schmidt on
// Gaussian vectors, repeated once for numerical orthogonality.
Matrix random_basis(random::Rng &rng, int64_t d, int64_t r) {
  Matrix q(d, r);
  for (int64_t k = 0; k < r; ++k) {
    for (;;) {
      for (int64_t i = 0; i < d; ++i) q(i, k) = random::standard_normal(rng);
      for (int pass = 0; pass < 2; ++pass)
        for (int64_t p = 0; p < k; ++p) {
          double dot = 0.0;
          for (int64_t i = 0; i < d; ++i) dot += q(i, p) * q(i, k);
          for (int64_t i = 0; i < d; ++i) q(i, k) -= dot * q(i, p);
        }
      const double norm = linalg::nrm2(d, &q(0, k), 1);
      if (norm > 1e-8) {
        for (int64_t i = 0; i < d; ++i) q(i, k) /= norm;
        break;
      }
    }
  }
  return q;
}

Matrix subspace_rows(random::Rng &rng, int64_t n, int64_t d, double bound, bool perturb) {
  const int64_t r = std::max<int64_t>(1, d / 2);
  const Matrix q = random_basis(rng, d, r);
  Matrix rows(n, d);
  for (int64_t i = 0; i < n; ++i) {
    const std::vector<double> c = ball_point(rng, r, bound);
    std::vector<double> x(static_cast<size_t>(d), 0.0);
    for (int64_t k = 0; k < r; ++k)
      for (int64_t j = 0; j < d; ++j) x[static_cast<size_t>(j)] += q(j, k) * c[static_cast<size_t>(k)];
    if (perturb)
      for (double &v : x) v += kNearlySingularScale * bound * random::standard_normal(rng);
    fit_to_bound(x.data(), d, bound);
    set_row(rows, i, x);
  }
  return rows;
}

Matrix append_row(const Matrix &rows, const std::vector<double> &x) {
  Matrix out(rows.rows() + 1, rows.cols());
  for (int64_t j = 0; j < rows.cols(); ++j)
    for (int64_t i = 0; i < rows.rows(); ++i) out(i, j) = rows(i, j);
  set_row(out, rows.rows(), x);
  return out;
}

// Unit least-eigenvalue eigenvector of the Gram matrix of `rows` without row `skip` (-1: none).
std::vector<double> least_direction(const Matrix &rows, int64_t skip) {
  const int64_t d = rows.cols();
  Matrix g(d, d);
  for (int64_t i = 0; i < rows.rows(); ++i) {
    if (i == skip) continue;
    for (int64_t b = 0; b < d; ++b)
      for (int64_t a = 0; a <= b; ++a) g(a, b) += rows(i, a) * rows(i, b);
  }
  linalg::symmetrize_from_upper(g);
  const linalg::SymmetricEigen eig = linalg::eigh(g);
  std::vector<double> u(static_cast<size_t>(d));
  for (int64_t j = 0; j < d; ++j) u[static_cast<size_t>(j)] = eig.vectors(j, 0);
  return u;
}

std::vector<double> scaled(std::vector<double> x, double factor, double bound) {
  for (double &v : x) v *= factor;
  fit_to_bound(x.data(), static_cast<int64_t>(x.size()), bound);
  return x;
}

std::vector<double> basis_vector(int64_t d, int64_t k) {
  std::vector<double> e(static_cast<size_t>(d), 0.0);
  e[static_cast<size_t>(k)] = 1.0;
  return e;
}

double upper_l1_of_outer_difference(const std::vector<double> &v, const std::vector<double> &w) {
  double sum = 0.0;
  for (size_t j = 0; j < v.size(); ++j)
    for (size_t i = 0; i <= j; ++i) sum += std::fabs(v[i] * v[j] - w[i] * w[j]);
  return sum;
}

}  // namespace

const char *dataset_kind_name(DatasetKind kind) {
  switch (kind) {
    case DatasetKind::RandomRows: return "random_rows";
    case DatasetKind::SphereRows: return "sphere_rows";
    case DatasetKind::RepeatedRows: return "repeated_rows";
    case DatasetKind::RankDeficient: return "rank_deficient";
    case DatasetKind::NearlySingular: return "nearly_singular";
    case DatasetKind::TinyN: return "tiny_n";
  }
  return "unknown";
}

const char *neighbour_kind_name(NeighbourKind kind) {
  switch (kind) {
    case NeighbourKind::Random: return "random";
    case NeighbourKind::MaxL2Change: return "max_l2_change";
    case NeighbourKind::MaxL1Change: return "max_l1_change";
    case NeighbourKind::LeastEigenvector: return "least_eigenvector";
  }
  return "unknown";
}

DatasetKind dataset_kind(int32_t value) {
  if (value < static_cast<int32_t>(DatasetKind::RandomRows) ||
      value > static_cast<int32_t>(DatasetKind::TinyN))
    fail(Status::InvalidArgument, "unknown audit dataset kind ", value);
  return static_cast<DatasetKind>(value);
}

NeighbourKind neighbour_kind(int32_t value) {
  if (value < static_cast<int32_t>(NeighbourKind::Random) ||
      value > static_cast<int32_t>(NeighbourKind::LeastEigenvector))
    fail(Status::InvalidArgument, "unknown audit neighbour kind ", value);
  return static_cast<NeighbourKind>(value);
}

Matrix generate_dataset(DatasetKind kind, int64_t n, int64_t d, double bound, random::Rng &rng) {
  if (n < 1) fail(Status::Dimension, "an audit dataset needs n >= 1 rows, got ", n);
  check::dimension(d, "dimension d");
  check_pair_size(n, d);
  data::check_row_bound(bound, "bound B");
  switch (kind) {
    case DatasetKind::RandomRows:
    case DatasetKind::SphereRows:
    case DatasetKind::TinyN: {
      const int64_t rows_wanted = kind == DatasetKind::TinyN ? std::min<int64_t>(n, 2) : n;
      Matrix rows(rows_wanted, d);
      for (int64_t i = 0; i < rows_wanted; ++i)
        set_row(rows, i, kind == DatasetKind::SphereRows ? sphere_point(rng, d, bound)
                                                         : ball_point(rng, d, bound));
      return rows;
    }
    case DatasetKind::RepeatedRows: {
      const int64_t distinct = std::max<int64_t>(1, n / 4);
      std::vector<std::vector<double>> pool;
      for (int64_t k = 0; k < distinct; ++k) pool.push_back(ball_point(rng, d, bound));
      Matrix rows(n, d);
      for (int64_t i = 0; i < n; ++i) set_row(rows, i, pool[static_cast<size_t>(i % distinct)]);
      return rows;
    }
    case DatasetKind::RankDeficient: return subspace_rows(rng, n, d, bound, false);
    case DatasetKind::NearlySingular: return subspace_rows(rng, n, d, bound, true);
  }
  fail(Status::InvalidArgument, "unknown audit dataset kind ", static_cast<int32_t>(kind));
}

double max_l1_change_pair(int64_t d, int restarts, random::Rng &rng, double *v, double *w) {
  check::dimension(d, "dimension d");
  const size_t ds = static_cast<size_t>(d);
  if (d == 1) {
    // One coordinate: v v^T - w w^T = v^2 - w^2, largest at v = 1, w = 0.
    v[0] = 1.0;
    w[0] = 0.0;
    return 1.0;
  }
  double best = -1.0;
  for (int start = 0; start <= restarts; ++start) {
    // Sign pattern of the start: all ones first, then random symmetric patterns.
    Matrix s(d, d, 1.0);
    if (start > 0)
      for (int64_t j = 0; j < d; ++j)
        for (int64_t i = 0; i <= j; ++i) {
          s(i, j) = (rng.next_u64() >> 63) != 0 ? 1.0 : -1.0;
          s(j, i) = s(i, j);
        }
    double value = -1.0;
    for (int iteration = 0; iteration < 200; ++iteration) {
      Matrix weights(d, d);
      for (int64_t j = 0; j < d; ++j)
        for (int64_t i = 0; i < d; ++i) weights(i, j) = i == j ? s(i, j) : 0.5 * s(i, j);
      const linalg::SymmetricEigen eig = linalg::eigh(weights);
      std::vector<double> a(ds), b(ds);
      for (int64_t i = 0; i < d; ++i) {
        a[static_cast<size_t>(i)] = eig.vectors(i, d - 1);
        b[static_cast<size_t>(i)] = eig.vectors(i, 0);
      }
      const double next = upper_l1_of_outer_difference(a, b);
      if (next > best) {
        best = next;
        std::copy(a.begin(), a.end(), v);
        std::copy(b.begin(), b.end(), w);
      }
      if (next <= value * (1.0 + 1e-15)) break;
      value = next;
      for (int64_t j = 0; j < d; ++j)
        for (int64_t i = 0; i < d; ++i) {
          const size_t is = static_cast<size_t>(i), js = static_cast<size_t>(j);
          s(i, j) = a[is] * a[js] - b[is] * b[js] >= 0.0 ? 1.0 : -1.0;
        }
    }
  }
  return best;
}

DatasetPair make_neighbour(const Matrix &rows, double bound, privacy::Neighbour relation,
                           NeighbourKind kind, random::Rng &rng) {
  const int64_t n = rows.rows(), d = rows.cols();
  if (n < 1) fail(Status::Dimension, "a neighbour needs a dataset with n >= 1 rows, got ", n);
  check::dimension(d, "dimension d");
  data::check_row_bound(bound, "bound B");
  DatasetPair pair{rows, rows, 0};
  const bool replace = relation == privacy::Neighbour::ReplaceOne;
  std::vector<double> removed = get_row(rows, 0);  // row 0 of D (replace-one)
  std::vector<double> added;                       // row 0 of D', or the appended row
  switch (kind) {
    case NeighbourKind::Random: added = ball_point(rng, d, bound); break;
    case NeighbourKind::MaxL2Change:
      removed = scaled(basis_vector(d, 0), bound, bound);
      added = replace ? (d >= 2 ? scaled(basis_vector(d, 1), bound, bound)
                                : std::vector<double>(1, 0.0))
                      : removed;
      break;
    case NeighbourKind::MaxL1Change:
      if (replace) {
        std::vector<double> v(static_cast<size_t>(d)), w(static_cast<size_t>(d));
        max_l1_change_pair(d, 64, rng, v.data(), w.data());
        removed = scaled(v, bound, bound);
        added = scaled(w, bound, bound);
      } else {
        added = scaled(std::vector<double>(static_cast<size_t>(d), 1.0),
                       bound / std::sqrt(static_cast<double>(d)), bound);
      }
      break;
    case NeighbourKind::LeastEigenvector:
      removed.assign(static_cast<size_t>(d), 0.0);
      added = scaled(least_direction(rows, replace ? 0 : -1), bound, bound);
      break;
  }
  if (replace) {
    set_row(pair.rows, 0, removed);
    set_row(pair.rows_prime, 0, added);
    pair.changed_row = 0;
  } else {
    pair.rows_prime = append_row(rows, added);
    pair.changed_row = n;
  }
  return pair;
}

Matrix gram_of(const Matrix &rows, double bound) {
  GramAccumulator accumulator(rows.cols());
  accumulator.add_rows(rows.view(), bound, BoundPolicy::Reject);
  return accumulator.matrix();
}

double upper_triangle_l2_distance(ConstMatrixView a, ConstMatrixView b) {
  double sum = 0.0;
  for (int64_t j = 0; j < a.cols; ++j)
    for (int64_t i = 0; i <= j; ++i) sum += (a(i, j) - b(i, j)) * (a(i, j) - b(i, j));
  return std::sqrt(sum);
}

double upper_triangle_l1_distance(ConstMatrixView a, ConstMatrixView b) {
  double sum = 0.0;
  for (int64_t j = 0; j < a.cols; ++j)
    for (int64_t i = 0; i <= j; ++i) sum += std::fabs(a(i, j) - b(i, j));
  return sum;
}

}  // namespace dpcov::audit
