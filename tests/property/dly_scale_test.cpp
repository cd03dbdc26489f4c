// Dong-Liang-Yi releases are the same mechanism at every scale: rows scaled by 2^k at the radius
// r 2^k release, with the same seed, the release at r scaled by 4^k (rounded where it is
// subnormal), with the same branch, clipping radius (times 2^k) and first look. So the privacy
// argument, made in the normal range at a radius in [1, 2), covers every radius the plan accepts.
// It failed below r = 2^-511: X^T X / n was rounded into the subnormals before its noise was added,
// and one replaced row could move each of its d (d + 1) / 2 entries by a whole subnormal step, an
// L2 change of sqrt(d (d + 1) / 2) 2^-1074 against the sensitivity the noise was sized for (at
// least sqrt(2) r^2 / n rounded up, 2 2^-1074 at n = 1000; at d = 10 a change of 7.42 2^-1074).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "core/mechanisms/dong_liang_yi.hpp"

namespace dpcov {
namespace {

using mechanisms::DlyRelease;
using mechanisms::DlyRequest;
using mechanisms::DlyVariant;

// 4^k x as the release computes it: exact in the normal range, rounded once in the subnormals.
double scaled(double x, int k) { return std::ldexp(x, 2 * k); }

RC_GTEST_PROP(DlyScale, AReleaseAtRadiusR2kIsTheReleaseAtRScaled, ()) {
  DlyRequest request;
  request.variant = static_cast<DlyVariant>(*rc::gen::inRange(0, 4));
  request.dim = *rc::gen::inRange<int64_t>(1, 6);
  request.n = *rc::gen::element<int64_t>(1, 2, 5, 40, 1000);
  request.rho = std::exp(*rc::gen::inRange(-7, 8));
  request.radius = 0.5 + *rc::gen::inRange(0, 1 << 20) * 0x1p-21;  // in [1/2, 1)
  // Entries of magnitude >= r / 64 (or 0), so that they stay normal scaled by 2^k, k >= -959 (r 2^k >= 2^-960);
  // some rows are beyond r and clipped.
  Matrix rows(request.n, request.dim);
  for (int64_t i = 0; i < request.n; ++i)
    for (int64_t j = 0; j < request.dim; ++j) {
      const int u = *rc::gen::inRange(-64, 65);
      rows(i, j) = request.radius * u / 64.0 / std::sqrt(static_cast<double>(request.dim)) *
                   (i % 3 == 0 ? 1.5 : 1.0);
    }
  // The adaptive variants' candidate radii stop at 2^-960: below 2^-880 they have fewer.
  const bool adaptive = request.variant == DlyVariant::Adaptive ||
                        request.variant == DlyVariant::AdaptivePaper;
  const int k = *rc::gen::oneOf(rc::gen::element(-959, -880, -600, -540, -537, -520, -511, -500,
                                                 -400, 0, 1, 300, 511),
                                rc::gen::inRange(adaptive ? -880 : -959, 512));
  RC_PRE(!adaptive || k >= -880);
  const uint64_t seed = *rc::gen::arbitrary<uint32_t>();

  random::Rng rng = random::Rng::from_seed(seed);
  const DlyRelease reference = mechanisms::dly_release(rows.view(), request, rng);

  DlyRequest at_scale = request;
  at_scale.radius = std::ldexp(request.radius, k);
  Matrix scaled_rows = rows;
  for (int64_t i = 0; i < rows.rows(); ++i)
    for (int64_t j = 0; j < rows.cols(); ++j) scaled_rows(i, j) = std::ldexp(rows(i, j), k);
  random::Rng rng_k = random::Rng::from_seed(seed);
  DlyRelease release;
  try {
    release = mechanisms::dly_release(scaled_rows.view(), at_scale, rng_k);
  } catch (const Error &e) {
    // Only a plan whose noise could overflow the data (large r, small rho) is refused, as
    // DPCOV_E_INVALID_ARGUMENT (beyond DBL_MAX / 128) or DPCOV_E_NUMERICAL (not finite).
    if (k <= 0 ||
        (e.status() != dpcov::Status::InvalidArgument && e.status() != dpcov::Status::Numerical))
      RC_FAIL("status " + std::to_string(static_cast<int>(e.status())) +
              " at k = " + std::to_string(k) + ": " + e.what());
    return;
  }
  RC_TAG(k < -511 ? "subnormal second moment" : "normal");
  for (int64_t j = 0; j < request.dim; ++j)
    for (int64_t i = 0; i < request.dim; ++i)
      if (release.covariance(i, j) != scaled(reference.covariance(i, j), k))
        RC_FAIL("entry (" + std::to_string(i) + ", " + std::to_string(j) + ") at k = " +
                std::to_string(k) + ": " + std::to_string(release.covariance(i, j) /
                                                          std::ldexp(1.0, 2 * k)) +
                " 4^k, expected " + std::to_string(reference.covariance(i, j)) + " 4^k");
  RC_ASSERT(release.receipt.branch == reference.receipt.branch);
  RC_ASSERT(release.receipt.first_look_settled == reference.receipt.first_look_settled);
  RC_ASSERT(release.receipt.rho_covariance == reference.receipt.rho_covariance);
  RC_ASSERT(release.receipt.clip_radius == std::ldexp(reference.receipt.clip_radius, k));
  // The receipt's sigma is never below the noise the release added, in the caller's units.
  RC_ASSERT(release.receipt.sigma_matrix >= scaled(reference.receipt.sigma_matrix, k));
  RC_ASSERT(release.receipt.sigma_eigenvalues >= scaled(reference.receipt.sigma_eigenvalues, k));
  if (k >= -400 && k <= 300) {
    RC_ASSERT(release.receipt.sigma_matrix == scaled(reference.receipt.sigma_matrix, k));
  }
}

}  // namespace
}  // namespace dpcov
