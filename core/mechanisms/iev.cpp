#include "iev.hpp"

#include "../error.hpp"
#include "eigenvector_sampling.hpp"
#include "statistic.hpp"

namespace dpcov::mechanisms {

Receipt plan_iev(const Request &request) {
  return plan_eigenvector_sampling(MechanismId::Iev, request);
}

Release release_iev(ConstMatrixView gram, const Request &request, const Receipt &planned,
                    random::Rng &rng) {
  return release_eigenvector_sampling(MechanismId::Iev, gram, request, planned, rng).release;
}

double log_density_iev(ConstMatrixView released, ConstMatrixView gram, const Request &request) {
  plan_iev(request);
  check_gram_statistic(gram, request);
  check_released(released, request.dim);
  fail(Status::InvalidArgument, "iev has no closed-form density of the released matrix; use ",
       "the per-step densities of its transcript (eigenvector_sampling.hpp)");
}

}  // namespace dpcov::mechanisms
