#include "refusal_replay.hpp"

#include <cmath>

#include "../linalg/blas.hpp"
#include "../mechanisms/ols_ptr.hpp"
#include "../mechanisms/projection.hpp"
#include "distributions.hpp"

namespace dpcov::audit {

Target refusal_replay_target(const mechanisms::Request &request, double retry_epsilon, bool rewind) {
  mechanisms::Request retry = request;
  retry.epsilon = retry_epsilon;
  const mechanisms::Receipt first = mechanisms::plan_ols_jl(request);
  const mechanisms::Receipt second = mechanisms::plan_ols_jl(retry);
  Target target;
  target.name = rewind ? "ols_jl_refusal_replay_rewound" : "ols_jl_refusal_replay";
  target.epsilon = first.test_epsilon + second.test_epsilon;
  target.delta = 0.0;
  target.noise.family = NoiseFamily::ClaimedLaw;
  target.release = [first, second, rewind](ConstMatrixView gram, int64_t, random::Rng &rng) {
    const random::Rng before = rng;
    const double s1 = mechanisms::private_sigma_min_squared(gram, first, rng);
    if (rewind) rng = before;
    const double s2 = mechanisms::private_sigma_min_squared(gram, second, rng);
    Output out;
    out.matrix = Matrix(1, 2);
    out.matrix(0, 0) = s1;
    out.matrix(0, 1) = s2;
    out.test_value = s1;
    return out;
  };
  target.log_density = [first, second](const Output &o, ConstMatrixView gram, int64_t) {
    return mechanisms::sigma_min_test_log_density(o.matrix(0, 0), gram, first) +
           mechanisms::sigma_min_test_log_density(o.matrix(0, 1), gram, second);
  };
  target.transforms = [first, second](const Output &o, ConstMatrixView gram, int64_t,
                                      std::vector<double> &uniforms) {
    const double lambda = linalg::eigvalsh(Matrix::from(gram)).front();
    const double u1 = laplace_cdf((o.matrix(0, 0) - (lambda - first.test_shift)) / first.test_scale);
    const double u2 =
        laplace_cdf((o.matrix(0, 1) - (lambda - second.test_shift)) / second.test_scale);
    const double d = u1 - u2;
    uniforms.push_back(d < 0.0 ? d + 1.0 : d);
  };
  return target;
}

}  // namespace dpcov::audit
