#include "kt_rank1.hpp"

#include "../error.hpp"
#include "eigenvector_sampling.hpp"
#include "statistic.hpp"

namespace dpcov::mechanisms {

Receipt plan_kt_rank1(const Request &request) {
  return plan_eigenvector_sampling(MechanismId::KtRank1, request);
}

Release release_kt_rank1(ConstMatrixView gram, const Request &request, const Receipt &planned,
                         random::Rng &rng) {
  return release_eigenvector_sampling(MechanismId::KtRank1, gram, request, planned, rng).release;
}

double log_density_kt_rank1(ConstMatrixView released, ConstMatrixView gram, const Request &request) {
  plan_kt_rank1(request);
  check_gram_statistic(gram, request);
  check_released(released, request.dim);
  fail(Status::InvalidArgument, "kt_rank1 has no closed-form density of the released matrix; use ",
       "the per-step densities of its transcript (eigenvector_sampling.hpp)");
}

}  // namespace dpcov::mechanisms
