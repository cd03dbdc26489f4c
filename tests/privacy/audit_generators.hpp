// RapidCheck generators of audit cases: a dataset of one of the audit dataset kinds and its
// neighbour of one of the neighbour kinds, built by the kernel's own generators
// (core/audit/datasets.hpp) from a RapidCheck-chosen seed, so that a failing case shrinks to
// small n, d and a reproducible seed.
#pragma once

#include <rapidcheck.h>

#include <cstdint>

#include "core/audit/datasets.hpp"
#include "core/privacy/neighbour.hpp"
#include "core/random/rng.hpp"

namespace dpcov::audit::testing {

struct AuditCase {
  DatasetKind dataset = DatasetKind::RandomRows;
  NeighbourKind neighbour = NeighbourKind::Random;
  privacy::Neighbour relation = privacy::Neighbour::ReplaceOne;
  int64_t n = 1;
  int64_t dim = 1;
  double bound = 1.0;
  uint64_t seed = 0;
  DatasetPair pair;
};

inline rc::Gen<DatasetKind> dataset_kinds() {
  return rc::gen::element(DatasetKind::RandomRows, DatasetKind::SphereRows,
                          DatasetKind::RepeatedRows, DatasetKind::RankDeficient,
                          DatasetKind::NearlySingular, DatasetKind::TinyN);
}

inline rc::Gen<NeighbourKind> neighbour_kinds() {
  return rc::gen::element(NeighbourKind::Random, NeighbourKind::MaxL2Change,
                          NeighbourKind::MaxL1Change, NeighbourKind::LeastEigenvector);
}

// Cases with 1 <= d <= max_dim, 1 <= n <= max_n, B in {0.5, 1, 3}, either relation.
inline rc::Gen<AuditCase> audit_cases(int64_t max_dim, int64_t max_n) {
  return rc::gen::map(
      rc::gen::tuple(dataset_kinds(), neighbour_kinds(),
                     rc::gen::element(privacy::Neighbour::ReplaceOne, privacy::Neighbour::AddRemove),
                     rc::gen::inRange<int64_t>(1, max_n + 1),
                     rc::gen::inRange<int64_t>(1, max_dim + 1), rc::gen::element(0.5, 1.0, 3.0),
                     rc::gen::arbitrary<uint64_t>()),
      [](const auto &t) {
        AuditCase c;
        std::tie(c.dataset, c.neighbour, c.relation, c.n, c.dim, c.bound, c.seed) = t;
        random::Rng rng = random::Rng::from_seed(c.seed);
        const Matrix rows = generate_dataset(c.dataset, c.n, c.dim, c.bound, rng);
        c.pair = make_neighbour(rows, c.bound, c.relation, c.neighbour, rng);
        return c;
      });
}

}  // namespace dpcov::audit::testing

namespace rc {
// Printed with a failing case so that it can be regenerated from its seed.
inline void showValue(const dpcov::audit::testing::AuditCase &c, std::ostream &os) {
  os << dpcov::audit::dataset_kind_name(c.dataset) << " / "
     << dpcov::audit::neighbour_kind_name(c.neighbour) << " / "
     << dpcov::privacy::neighbour_name(c.relation) << ", n = " << c.n << ", d = " << c.dim
     << ", B = " << c.bound << ", seed = " << c.seed;
}
}  // namespace rc
