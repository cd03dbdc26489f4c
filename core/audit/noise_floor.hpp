// The exact-density audits standardise released values by the claimed noise sigma. Where sigma is
// within a few thousand ulps of the values the noise perturbs, the residuals measure the
// arithmetic's rounding rather than the noise, and a correct release would be flagged (a
// conformance test sees rounding as a wrong sampler). Such audits are refused instead.
#pragma once

namespace dpcov::audit {

// The smallest noise sigma an exact-density audit accepts, relative to the largest magnitude of
// the values it perturbs: 2^-30, so that rounding (a few d n ulps of that magnitude) stays below
// 10^-6 sigma for every size an audit uses.
inline constexpr double kNoiseFloorRelative = 0x1p-30;

// Throws Status::Precondition naming `what` if sigma < kNoiseFloorRelative * scale.
void require_noise_above_rounding(double sigma, double scale, const char *what);

}  // namespace dpcov::audit
