// Finite or failed at extreme finite scales: every sampler of the C ABI, at a scale, shape or
// degrees of freedom anywhere in [1e-300, DBL_MAX] (log-uniform, and the ends), and the
// estimators and post-processing on a Gram matrix scaled as far, either return DPCOV_OK with
// every output finite, or fail with the output untouched (canary values kept).
// The finding that started it: dpcov_sample_symmetric_laplace_noise returned OK with infinite
// entries at a scale near DBL_MAX.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cfloat>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

constexpr double kCanary = -12345.0;

// Log-uniform in [1e-300, DBL_MAX], or one of the ends.
rc::Gen<double> extreme_scale() {
  return rc::gen::oneOf(
      rc::gen::element(1e-300, DBL_MAX, 1e300, 1e-300),
      rc::gen::map(rc::gen::inRange(0, 1 << 30), [](int u) {
        const double t = u / double(1 << 30);
        return std::exp(std::log(1e-300) + t * (std::log(DBL_MAX) - std::log(1e-300)));
      }));
}

// Runs `call` on a canary-filled output of `size` doubles and checks the contract.
void check_finite_or_untouched(const char *name, size_t size,
                               const std::function<dpcov_status(double *)> &call) {
  std::vector<double> out(size, kCanary);
  const dpcov_status status = call(out.data());
  for (double v : out)
    if (status == DPCOV_OK ? !std::isfinite(v) : v != kCanary)
      RC_FAIL(std::string(name) + (status == DPCOV_OK ? ": OK with a non-finite value"
                                                      : ": output written on failure"));
}

RC_GTEST_PROP(ExtremeScale, SamplersReturnFiniteValuesOrFailUntouched, ()) {
  const double scale = *extreme_scale();
  const int64_t d = *rc::gen::inRange<int64_t>(1, 5);
  const int64_t n = *rc::gen::inRange<int64_t>(1, 20);
  dpcov_rng *rng = nullptr;
  RC_ASSERT(dpcov_rng_create_seeded(&rng, *rc::gen::arbitrary<uint32_t>(), 0) == DPCOV_OK);
  const auto sz = static_cast<size_t>(n);
  const auto dd = static_cast<size_t>(d * d);
  check_finite_or_untouched("laplace", sz,
                            [&](double *out) { return dpcov_sample_laplace(rng, scale, n, out); });
  check_finite_or_untouched("gamma", sz,
                            [&](double *out) { return dpcov_sample_gamma(rng, scale, n, out); });
  check_finite_or_untouched(
      "chi_square", sz, [&](double *out) { return dpcov_sample_chi_square(rng, scale, n, out); });
  check_finite_or_untouched("symmetric_gaussian_noise", dd, [&](double *out) {
    return dpcov_sample_symmetric_gaussian_noise(rng, scale, DPCOV_ROW_MAJOR, d, out, d);
  });
  check_finite_or_untouched("symmetric_laplace_noise", dd, [&](double *out) {
    return dpcov_sample_symmetric_laplace_noise(rng, scale, DPCOV_ROW_MAJOR, d, out, d);
  });
  // Wishart and inverse Wishart with a scale matrix scale * I and dof d + 1, and with dof = scale.
  std::vector<double> identity(dd, 0.0);
  for (int64_t i = 0; i < d; ++i) identity[static_cast<size_t>(i * d + i)] = scale;
  std::vector<double> unit(dd, 0.0);
  for (int64_t i = 0; i < d; ++i) unit[static_cast<size_t>(i * d + i)] = 1.0;
  const double dof = static_cast<double>(d) + 1.0;
  check_finite_or_untouched("wishart", dd, [&](double *out) {
    return dpcov_sample_wishart(rng, dof, DPCOV_ROW_MAJOR, d, identity.data(), d, out, d);
  });
  check_finite_or_untouched("inverse_wishart", dd, [&](double *out) {
    return dpcov_sample_inverse_wishart(rng, dof, DPCOV_ROW_MAJOR, d, identity.data(), d, out, d);
  });
  if (scale > static_cast<double>(d) - 1.0) {
    check_finite_or_untouched("wishart dof", dd, [&](double *out) {
      return dpcov_sample_wishart(rng, scale, DPCOV_ROW_MAJOR, d, unit.data(), d, out, d);
    });
    check_finite_or_untouched("inverse_wishart dof", dd, [&](double *out) {
      return dpcov_sample_inverse_wishart(rng, scale, DPCOV_ROW_MAJOR, d, unit.data(), d, out, d);
    });
  }
  // Directional samplers with a concentration matrix scale * I (+ a spread on the diagonal).
  std::vector<double> spread = identity;
  for (int64_t i = 0; i < d; ++i) spread[static_cast<size_t>(i * d + i)] *= 1.0 / (1.0 + i);
  check_finite_or_untouched("acg", sz * static_cast<size_t>(d), [&](double *out) {
    return dpcov_sample_acg(rng, DPCOV_ROW_MAJOR, d, spread.data(), d, n, out, d);
  });
  check_finite_or_untouched("bingham", sz * static_cast<size_t>(d), [&](double *out) {
    return dpcov_sample_bingham(rng, DPCOV_ROW_MAJOR, d, spread.data(), d, n, out, d, nullptr);
  });
  // Log-densities: finite or -infinity (outside the support) with OK.
  std::vector<double> noise(dd, scale);
  for (const auto &density : std::vector<std::function<dpcov_status(double *)>>{
           [&](double *out) {
             return dpcov_log_density_symmetric_laplace(DPCOV_ROW_MAJOR, d, noise.data(), d, 1.0,
                                                        out);
           },
           [&](double *out) {
             return dpcov_log_density_symmetric_gaussian(DPCOV_ROW_MAJOR, d, noise.data(), d,
                                                         1.0 / scale, out);
           },
           [&](double *out) {
             return dpcov_log_density_wishart(DPCOV_ROW_MAJOR, d, identity.data(), d, dof,
                                              unit.data(), d, out);
           }}) {
    double value = kCanary;
    if (density(&value) == DPCOV_OK)
      RC_ASSERT(!std::isnan(value) && value != HUGE_VAL);
    else
      RC_ASSERT(value == kCanary);
  }
  dpcov_rng_destroy(&rng);
}

// A d x d Gram matrix of `rows` random rows, scaled by `scale`: positive definite, finite.
std::vector<double> scaled_gram(int64_t d, int64_t rows, double scale, uint32_t seed) {
  std::vector<double> x(static_cast<size_t>(rows * d));
  uint64_t state = seed;
  for (double &v : x) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    v = static_cast<double>(state >> 11) / 9007199254740992.0 - 0.5;
  }
  std::vector<double> g(static_cast<size_t>(d * d), 0.0);
  for (int64_t i = 0; i < d; ++i)
    for (int64_t j = 0; j < d; ++j) {
      double sum = 0.0;
      for (int64_t r = 0; r < rows; ++r)
        sum += x[static_cast<size_t>(r * d + i)] * x[static_cast<size_t>(r * d + j)];
      g[static_cast<size_t>(i * d + j)] = sum * scale;
    }
  for (int64_t i = 0; i < d; ++i)
    for (int64_t j = 0; j < i; ++j)
      g[static_cast<size_t>(i * d + j)] = g[static_cast<size_t>(j * d + i)];
  return g;
}

RC_GTEST_PROP(ExtremeScale, EstimatorsReturnFiniteValuesOrFailUntouched, ()) {
  const double scale = *extreme_scale();
  const int64_t d = *rc::gen::inRange<int64_t>(2, 5);
  const uint32_t seed = *rc::gen::arbitrary<uint32_t>();
  const std::vector<double> g = scaled_gram(d, 3 * d, scale, seed);
  const auto dd = static_cast<size_t>(d * d);
  const int64_t p = d - 1;
  std::vector<int64_t> features;
  for (int64_t j = 1; j < d; ++j) features.push_back(j);
  const auto ps = static_cast<size_t>(p);

  // Regression on the scaled Gram: every output finite or all untouched.
  {
    // t-values are +-infinity exactly where the standard error is 0 (documented: an exact fit, or
    // a residual sum of squares clamped at 0); every other output is finite.
    std::vector<double> out(6 * ps, kCanary);
    const dpcov_status status = dpcov_regression_fit(
        DPCOV_ROW_MAJOR, d, g.data(), d, 3 * d, 0, features.data(), p, nullptr, out.data(),
        out.data() + ps, out.data() + 2 * ps, out.data() + 3 * ps, out.data() + 4 * ps,
        out.data() + 5 * ps, nullptr);
    for (size_t i = 0; i < out.size(); ++i) {
      const bool t_of_exact_fit = i / ps == 2 && std::isinf(out[i]) && out[i % ps + ps] == 0.0;
      if (status == DPCOV_OK ? !std::isfinite(out[i]) && !t_of_exact_fit : out[i] != kCanary)
        RC_FAIL("regression_fit: non-finite value with OK, or output written on failure");
    }
  }
  // PCA: values, vectors and explained ratios.
  check_finite_or_untouched("pca_top_k", 2 * static_cast<size_t>(d) + dd, [&](double *out) {
    return dpcov_pca_top_k(DPCOV_ROW_MAJOR, d, g.data(), d, d, out, out + d, d, out + d + dd);
  });
  // Post-processing in place: the matrix is either finite or unchanged.
  for (int which = 0; which < 2; ++which) {
    std::vector<double> a = g;
    a[1] = a[static_cast<size_t>(d)] = -a[0];  // indefinite for d >= 2 when |a01| > a00 a11
    const std::vector<double> before = a;
    const dpcov_status status =
        which == 0
            ? dpcov_postprocess_psd_project(DPCOV_ROW_MAJOR, d, a.data(), d)
            : dpcov_postprocess_eigenvalues_clip(DPCOV_ROW_MAJOR, d, a.data(), d, 0.0, DBL_MAX);
    if (status == DPCOV_OK)
      for (double v : a) RC_ASSERT(std::isfinite(v));
    else
      RC_ASSERT(a == before);
  }
  // AdaSSP with bounds that hold for the scaled rows (|x| <= sqrt(scale * d) / 2).
  dpcov_rng *rng = nullptr;
  RC_ASSERT(dpcov_rng_create_seeded(&rng, seed, 0) == DPCOV_OK);
  const double bound = std::sqrt(scale * static_cast<double>(d));
  dpcov_adassp_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  check_finite_or_untouched("adassp_fit", ps + ps * ps + ps, [&](double *out) {
    return dpcov_adassp_fit(DPCOV_ROW_MAJOR, d, g.data(), d, 0, features.data(), p, bound, bound,
                            1.0, 1e-6, nullptr, rng, out, out + ps, p, out + ps + ps * ps,
                            &receipt);
  });
  dpcov_rng_destroy(&rng);
}

}  // namespace
