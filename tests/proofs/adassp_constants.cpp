// Prints AdaSSP's constants (core/privacy/adassp_constants.hpp) for the parameter points read from
// standard input, one per line: "eps delta bound_x bound_y d rho neighbour" (neighbour 0 =
// replace-one, 1 = add/remove). Output, one line per point, %.17g:
//   sens_l sens_g sens_c joint_l joint_g joint_c paper_l paper_g paper_c (for the paper's
//   add/remove sensitivities) joint_delta shift
//   paper_shift eta paper_eta
//   sens_y joint4_l joint4_g joint4_c joint4_y joint4_delta (the release with y'y: four shares)
//   zcdp_rho zcdp_rho4 (the zCDP charge of the three- and four-statistic releases)
//   joint2_g joint2_c joint2_delta zcdp_rho2 (without the lambda_min step: X'X, X'y, half each)
//   joint3y_g joint3y_c joint3y_y joint3y_delta zcdp_rho3y (and y'y: a third each)
// proofs/check/adassp.py recomputes each with mpmath.
#include <cstdio>

#include "core/privacy/adassp_constants.hpp"

int main() {
  using namespace dpcov::privacy;
  double eps, delta, bx, by, rho;
  long long d;
  int neighbour;
  while (std::scanf("%lf %lf %lf %lf %lld %lf %d", &eps, &delta, &bx, &by, &d, &rho, &neighbour) ==
         7) {
    const Neighbour nb = neighbour == 1 ? Neighbour::AddRemove : Neighbour::ReplaceOne;
    const double sens[3] = {adassp_lambda_min_sensitivity(bx), adassp_gram_sensitivity(nb, bx),
                            adassp_cross_sensitivity(nb, bx, by)};
    // The paper's sigmas are for its own (add/remove) sensitivities.
    const double published[3] = {sens[0], adassp_gram_sensitivity(Neighbour::AddRemove, bx),
                                 adassp_cross_sensitivity(Neighbour::AddRemove, bx, by)};
    double joint[3], paper[3];
    for (int k = 0; k < 3; ++k) {
      joint[k] = adassp_joint_sigma(eps, delta, sens[k], 3);
      paper[k] = adassp_paper_sigma(eps, delta, published[k]);
    }
    const double sens4[4] = {sens[0], sens[1], sens[2], adassp_label_square_sensitivity(by)};
    double joint4[4];
    for (int k = 0; k < 4; ++k) joint4[k] = adassp_joint_sigma(eps, delta, sens4[k], 4);
    std::printf("%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g ",
                sens[0], sens[1], sens[2], joint[0], joint[1], joint[2], paper[0], paper[1],
                paper[2], adassp_joint_delta(eps, sens, joint, 3),
                adassp_lambda_min_shift(joint[0], rho),
                adassp_paper_lambda_min_shift(eps, delta, bx),
                adassp_noise_norm_bound(joint[1], d, rho),
                adassp_paper_noise_norm_bound(eps, delta, bx, d, rho));
    std::printf("%.17g %.17g %.17g %.17g %.17g %.17g ", sens4[3], joint4[0], joint4[1], joint4[2],
                joint4[3], adassp_joint_delta(eps, sens4, joint4, 4));
    std::printf("%.17g %.17g ", adassp_zcdp_rho(sens, joint, 3), adassp_zcdp_rho(sens4, joint4, 4));
    // Without the lambda_min step: the statistics released start at X'X.
    const double *released = sens4 + 1;
    const double joint2[2] = {adassp_joint_sigma(eps, delta, released[0], 2),
                              adassp_joint_sigma(eps, delta, released[1], 2)};
    double joint3y[3];
    for (int k = 0; k < 3; ++k) joint3y[k] = adassp_joint_sigma(eps, delta, released[k], 3);
    std::printf("%.17g %.17g %.17g %.17g ", joint2[0], joint2[1],
                adassp_joint_delta(eps, released, joint2, 2), adassp_zcdp_rho(released, joint2, 2));
    std::printf("%.17g %.17g %.17g %.17g %.17g\n", joint3y[0], joint3y[1], joint3y[2],
                adassp_joint_delta(eps, released, joint3y, 3),
                adassp_zcdp_rho(released, joint3y, 3));
  }
  return 0;
}
