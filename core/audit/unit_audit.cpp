#include "unit_audit.hpp"

#include <vector>

#include "../error.hpp"
#include "../mechanisms/registry.hpp"
#include "../mechanisms/unit_group_request.hpp"
#include "../privacy/unit_bound.hpp"
#include "../random/rng.hpp"
#include "audit_table.hpp"
#include "datasets.hpp"
#include "mechanism_audit.hpp"
#include "target.hpp"
#include "unit_black_box.hpp"

namespace dpcov::audit {

namespace {

// The search of max_l1_change_pair() is seeded, so that the audited pair is the same every run.
constexpr uint64_t kL1PairSeed = 2019;

std::vector<double> axis(int64_t d, int64_t j) {
  std::vector<double> v(static_cast<size_t>(d), 0.0);
  v[static_cast<size_t>(j)] = 1.0;
  return v;
}

// IEV and KT release the spectrum through a Laplace step whose loss on a pair is
// eps_0 |lambda(G) - lambda(G')|_1 / sensitivity.
bool releases_spectrum(mechanisms::MechanismId mechanism) {
  return mechanism == mechanisms::MechanismId::Iev || mechanism == mechanisms::MechanismId::KtRank1;
}

UnitRows base_units(mechanisms::MechanismId mechanism, privacy::Neighbour neighbour, int64_t d,
                    int64_t k, double bound) {
  // A unit of k rows along e_2 that stays (below), and for d >= 3 the base off e_2 as well as
  // e_1: replacing the unit k B^2 e_1 e_1^T by k B^2 e_2 e_2^T then moves the spectrum from
  // (k B^2, k B^2) to (2 k B^2, 0) beside the base's own, an l1 change of 2 k B^2 for every k,
  // the most any replaced unit can make (Lidskii: |lambda(G) - lambda(G')|_1 <= |G - G'|_* <=
  // 2 k B^2). Without it the spectra of the two datasets nearly coincide (the unit's k B^2 only
  // changes axis), and the rows-only variant's loss on the pair is mostly that of its weak
  // Bingham steps.
  const bool spectral =
      releases_spectrum(mechanism) && neighbour == privacy::Neighbour::ReplaceOne;
  UnitRows data;
  data.cols = d;
  for (int64_t u = 0; u < 6; ++u) {
    std::vector<double> direction(static_cast<size_t>(d), 0.0);
    for (int64_t j = spectral && d >= 3 ? 2 : 1; j < d; ++j)
      direction[static_cast<size_t>(j)] = 0.3 + 0.1 * static_cast<double>((u + j) % 5);
    data = joined(data, aligned_unit(1 + u % 3, bound, direction));
  }
  const auto &entry = mechanisms::entry_of(static_cast<int32_t>(mechanism));
  if (entry.options & mechanisms::kOptionLambdaMin)
    for (int64_t j = 0; j < d; ++j)
      for (int u = 0; u < 2; ++u) data = joined(data, aligned_unit(k, bound, axis(d, j)));
  if (spectral) data = joined(data, aligned_unit(k, bound, axis(d, 1)));
  return data;
}

}  // namespace

std::pair<UnitRows, UnitRows> aligned_unit_pair(mechanisms::MechanismId mechanism,
                                                privacy::Neighbour neighbour, int64_t dim,
                                                int64_t max_rows_per_unit, double row_bound) {
  if (dim < 2) fail(Status::Dimension, "a unit audit needs d >= 2, got ", dim);
  // At most 12 + 2 k (d + 1) rows (the base, the unit, its replacement); doubles hold the product
  // of int64 sizes well enough for a cap.
  const double rows = 12.0 + 2.0 * static_cast<double>(max_rows_per_unit) *
                                  (static_cast<double>(dim) + 1.0);
  if (rows * static_cast<double>(dim) * static_cast<double>(dim) > kMaxUnitPairWork)
    fail(Status::TooLarge, "a unit audit at k = ", max_rows_per_unit, " and d = ", dim,
         " forms Gram matrices of about ", rows, " rows: above the cap of 2^34 rows x d^2");
  const UnitRows base = base_units(mechanism, neighbour, dim, max_rows_per_unit, row_bound);
  std::vector<double> first = axis(dim, 0), second = axis(dim, 1);
  if (mechanism == mechanisms::MechanismId::LaplaceSym) {
    if (neighbour == privacy::Neighbour::AddRemove) {
      first.assign(static_cast<size_t>(dim), 1.0);
    } else {
      random::Rng search = random::Rng::from_seed(kL1PairSeed);
      max_l1_change_pair(dim, 64, search, first.data(), second.data());
    }
  }
  const UnitRows with_unit = joined(base, aligned_unit(max_rows_per_unit, row_bound, first));
  if (neighbour == privacy::Neighbour::AddRemove) return {with_unit, base};
  return {with_unit, joined(base, aligned_unit(max_rows_per_unit, row_bound, second))};
}

mechanisms::Request unit_release_request(mechanisms::MechanismId mechanism,
                                         const mechanisms::Request &request,
                                         int64_t max_rows_per_unit) {
  if (!mechanisms::supports_units(mechanism))
    fail(Status::Incompatible, "no unit audit: ", mechanisms::unit_refusal_message(mechanism));
  if (mechanisms::units_by_group_privacy(mechanism))
    return mechanisms::group_unit_request(request, max_rows_per_unit, request.bound);
  mechanisms::Request out = request;
  out.bound = privacy::unit_contribution_bound(max_rows_per_unit, request.bound);
  return out;
}

AuditReport audit_units(mechanisms::MechanismId mechanism, const mechanisms::Request &request,
                        int64_t max_rows_per_unit, bool broken, const Settings &settings) {
  check_settings(settings);
  const mechanisms::Request shipped =
      unit_release_request(mechanism, request, max_rows_per_unit);
  const auto [data, data_prime] = aligned_unit_pair(mechanism, request.options.neighbour,
                                                    request.dim, max_rows_per_unit, request.bound);
  const PairStatistics pair{float_gram(data), float_gram(data_prime), data.row_count(),
                            data_prime.row_count()};
  const mechanisms::Request released =
      request_for_pair(mechanism, broken ? request : shipped, pair);
  Target target = mechanism_target(mechanism, released);
  // The claim is the unit-level one whatever budget the release was drawn at.
  target.epsilon = request.epsilon;
  if (target.delta != 0.0) target.delta = request.delta;
  // A mechanism the standard audit audits black-box has no density to audit by.
  const MechanismAudit *row = find_audit(static_cast<int32_t>(mechanism));
  if (row != nullptr && row->standard_cases().front().black_box)
    return audit_units_black_box(target, pair, settings);
  return run_exact_audit(target, pair, settings);
}

}  // namespace dpcov::audit
