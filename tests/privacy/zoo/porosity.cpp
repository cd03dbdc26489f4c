#include "porosity.hpp"

#include <limits>

#include "core/audit/exact_pmf.hpp"
#include "core/audit/mechanism_audit.hpp"
#include "core/mechanisms/exact_additive.hpp"
#include "core/mechanisms/mechanism.hpp"

namespace dpcov::audit::zoo {

ZooCase porosity_case(mechanisms::MechanismId mechanism, Variant variant,
                      const mechanisms::Request &request, const Matrix &rows,
                      const Matrix &rows_prime, EntryReachable reachable) {
  const std::string id = mechanisms::mechanism_name(mechanism);
  ZooCase c;
  if (variant == Variant::Corrected) {
    mechanisms::ExactGrid grid;
    mechanisms::plan_exact_additive(mechanism, request, &grid);
    c.name = id + "_exact_numerics";
    c.target = exact_mechanism_target(mechanism, request, rows, rows_prime);
    c.pair = exact_pair_statistics(request, grid, rows, rows_prime);
    return c;
  }
  c.name = id + "_floating_point";
  c.pair = pair_statistics(rows, rows_prime, request.bound, request.options.neighbour);
  c.target = mechanism_target(mechanism, request);
  c.target.name = c.name;
  const mechanisms::Receipt plan = mechanisms::plan(mechanism, request);
  const double scale = mechanism == mechanisms::MechanismId::LaplaceSym ? plan.scale : plan.sigma;
  const auto density = c.target.log_density;
  c.target.log_density = [density, scale, reachable](const Output &out, ConstMatrixView gram,
                                                     int64_t n) {
    for (int64_t j = 0; j < gram.cols; ++j)
      for (int64_t i = 0; i <= j; ++i)
        if (!reachable(out.matrix(i, j), gram(i, j), scale))
          return -std::numeric_limits<double>::infinity();
    return density(out, gram, n);
  };
  return c;
}

}  // namespace dpcov::audit::zoo
