// Prints AdaSSP's plan at the level of privacy units (core/privacy/adassp_unit_sensitivity.hpp,
// core/mechanisms/adassp.hpp) for the points read from standard input, one per line:
// "eps delta bound_x bound_y k neighbour statistics" (neighbour 0 = replace-one, 1 = add/remove;
// statistics 3, or 4 with y'y). Output, one line per point, %.17g: the unit plan's
//   sens_l sens_g sens_c sens_y sigma_l sigma_g sigma_c sigma_y delta_exact zcdp_rho
// then the row-level plan's (k = 0) sigma_l sigma_g sigma_c sigma_y.
// proofs/check/adassp_units.py recomputes each with mpmath.
#include <cstdio>

#include "core/mechanisms/adassp.hpp"

int main() {
  using namespace dpcov;
  double eps, delta, bx, by;
  long long k;
  int neighbour, statistics;
  while (std::scanf("%lf %lf %lf %lf %lld %d %d", &eps, &delta, &bx, &by, &k, &neighbour,
                    &statistics) == 7) {
    mechanisms::AdasspOptions options;
    options.neighbour = neighbour == 1 ? privacy::Neighbour::AddRemove
                                       : privacy::Neighbour::ReplaceOne;
    options.release_label_square = statistics == 4;
    options.max_rows_per_unit = k;
    const mechanisms::AdasspReceipt u = mechanisms::plan_adassp(3, bx, by, eps, delta, options);
    options.max_rows_per_unit = 0;
    const mechanisms::AdasspReceipt r = mechanisms::plan_adassp(3, bx, by, eps, delta, options);
    std::printf("%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g ",
                u.sensitivity_lambda_min, u.sensitivity_gram, u.sensitivity_cross,
                u.sensitivity_label_square, u.sigma_lambda_min, u.sigma_gram, u.sigma_cross,
                u.sigma_label_square, u.delta_exact, u.zcdp_rho);
    std::printf("%.17g %.17g %.17g %.17g\n", r.sigma_lambda_min, r.sigma_gram, r.sigma_cross,
                r.sigma_label_square);
  }
  return 0;
}
