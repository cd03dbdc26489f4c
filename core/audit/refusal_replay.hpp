// An audit target that replays a propose-test-release refusal: Sheffet's sigma_min test (the test
// of ols_jl, projection.hpp) run at request.epsilon, then again at `retry_epsilon` on the same
// generator, as a caller retries after Status::Refused. The output is the pair of noisy test values
// (s1, s2); the claim is that the two tests draw independent noise, so the pair is
// (eps1 + eps2)-DP by composition (eps_i the test's share, test_epsilon of each plan).
//
// Conformance (NoiseFamily::ClaimedLaw): with u_i the Laplace distribution function of s_i given G,
// frac(u1 - u2) is Uniform(0, 1) exactly when the two noises are independent. The `rewind` variant
// restores the generator between the calls, as the C ABI did before noise was consumed on refusal:
// both tests then use one draw, u1 = u2, frac(u1 - u2) is 0 (or 1), and the auditor flags the
// sampler mismatch. From such a pair anyone recovers lambda_min(A^T A) exactly:
// (s1 + shift1) b2 - (s2 + shift2) b1 = lambda_min (b2 - b1).
#pragma once

#include "../mechanisms/request.hpp"
#include "target.hpp"

namespace dpcov::audit {

Target refusal_replay_target(const mechanisms::Request &request, double retry_epsilon, bool rewind);

}  // namespace dpcov::audit
