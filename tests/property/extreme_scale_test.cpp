// Finite or failed at extreme finite scales: every sampler of the C ABI, at a scale, shape or
// degrees of freedom anywhere in [1e-300, DBL_MAX] (log-uniform, and the ends), and the
// estimators, post-processing and analyses (metrics, subspace bounds, centring, column-bound maps,
// graphical lasso, log-densities) on a Gram matrix scaled as far, either return DPCOV_OK with
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
    const dpcov_status status =
        dpcov_regression_fit(DPCOV_ROW_MAJOR, d, g.data(), d, 3 * d, 0, features.data(), p, nullptr,
                             out.data(), out.data() + ps, out.data() + 2 * ps, out.data() + 3 * ps,
                             out.data() + 4 * ps, out.data() + 5 * ps, nullptr);
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

// A symmetric matrix post-processed in place: finite on DPCOV_OK, else unchanged; `extra` (a
// shift written beside it) finite on DPCOV_OK, else the canary.
void check_in_place(const char *name, const std::vector<double> &g,
                    const std::function<dpcov_status(double *, double *)> &call) {
  std::vector<double> a = g;
  double extra = kCanary;
  const dpcov_status status = call(a.data(), &extra);
  if (status == DPCOV_OK ? !std::isfinite(extra) : (a != g || extra != kCanary))
    RC_FAIL(std::string(name) + ": a non-finite shift with OK, or output written on failure");
  if (status == DPCOV_OK)
    for (double v : a)
      if (!std::isfinite(v)) RC_FAIL(std::string(name) + ": OK with a non-finite value");
}

// The analyses of a release at extreme scales: metrics, subspace distance and error bounds,
// centring, the column-bound maps, the receipts' post-processing shifts, the graphical lasso,
// and the log-densities of the inverse Wishart and ACG laws.
RC_GTEST_PROP(ExtremeScale, AnalysesOfAReleaseReturnFiniteValuesOrFailUntouched, ()) {
  const double scale = *extreme_scale();
  const double other = *extreme_scale();
  const int64_t d = *rc::gen::inRange<int64_t>(2, 5);
  const uint32_t seed = *rc::gen::arbitrary<uint32_t>();
  const std::vector<double> g = scaled_gram(d, 3 * d, scale, seed);
  const std::vector<double> h = scaled_gram(d, 3 * d, other, seed + 1);
  const auto dd = static_cast<size_t>(d * d);
  const auto ds = static_cast<size_t>(d);
  const int32_t relative = *rc::gen::inRange(0, 2);
  const int64_t k = *rc::gen::inRange<int64_t>(1, d + 1);

  check_finite_or_untouched("metric_frobenius_error", 1, [&](double *out) {
    return dpcov_metric_frobenius_error(DPCOV_ROW_MAJOR, d, d, g.data(), d, h.data(), d, relative,
                                        out);
  });
  check_finite_or_untouched("metric_spectral_error", 1, [&](double *out) {
    return dpcov_metric_spectral_error(DPCOV_ROW_MAJOR, d, d, g.data(), d, h.data(), d, relative,
                                       out);
  });
  check_finite_or_untouched("metric_vector_error", 1, [&](double *out) {
    return dpcov_metric_vector_error(d * d, g.data(), h.data(), relative, out);
  });
  dpcov_support_recovery support{};
  support.struct_size = sizeof support;
  support.precision = support.recall = kCanary;
  const dpcov_status support_status = dpcov_metric_support_recovery(
      DPCOV_ROW_MAJOR, d, g.data(), d, h.data(), d, *extreme_scale(), &support);
  if (support_status == DPCOV_OK)
    RC_ASSERT(std::isfinite(support.precision) && std::isfinite(support.recall));
  else
    RC_ASSERT(support.precision == kCanary && support.recall == kCanary);
  check_finite_or_untouched("pca_subspace_distance", 2 + static_cast<size_t>(k), [&](double *out) {
    return dpcov_pca_subspace_distance(DPCOV_ROW_MAJOR, d, g.data(), d, h.data(), d, k, out,
                                       out + 1, out + 2);
  });

  // Error bounds of the subspace of g released by Analyze Gauss at the rows' bound.
  dpcov_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  const double bound = std::sqrt(scale * static_cast<double>(d));
  if (dpcov_mechanism_plan(DPCOV_MECHANISM_ANALYZE_GAUSS, d, 3 * d, bound, 1.0, 1e-6, nullptr,
                           &receipt) == DPCOV_OK) {
    dpcov_rng *rng = nullptr;
    RC_ASSERT(dpcov_rng_create_seeded(&rng, seed, 0) == DPCOV_OK);
    check_finite_or_untouched("pca_subspace_error_bound", 3, [&](double *out) {
      return dpcov_pca_subspace_error_bound(DPCOV_ROW_MAJOR, d, g.data(), d, &receipt, k, 0.9, 20,
                                            rng, out, out + 1, out + 2, nullptr);
    });
    check_finite_or_untouched("pca_centred_subspace_error_bound", 3, [&](double *out) {
      return dpcov_pca_centred_subspace_error_bound(DPCOV_ROW_MAJOR, d, g.data(), d, &receipt, 0,
                                                    std::sqrt(scale), 3 * d, k - (k == d), 0.9, 20,
                                                    rng, out, out + 1, out + 2, nullptr);
    });
    dpcov_rng_destroy(&rng);
  }

  // Centring with column 0 as the constant column, at a constant anywhere in the doubles.
  const double constant = *extreme_scale();
  const auto ms = static_cast<size_t>(d - 1);
  check_finite_or_untouched("centre_second_moment", ms + ms * ms + 1, [&](double *out) {
    return dpcov_centre_second_moment(DPCOV_ROW_MAJOR, d, g.data(), d, 0, constant,
                                      *rc::gen::element<int64_t>(0, 3 * d), out, out + ms, d - 1,
                                      out + ms + ms * ms);
  });

  // The column-bound maps, with ranges [-scale, scale] (half-width scale) per column.
  std::vector<double> lower(ds, -scale), upper(ds, scale);
  check_finite_or_untouched("column_bounds_norm_bound", 1,
                            [&](double *out) { return dpcov_column_bounds_norm_bound(d, out); });
  std::vector<double> raw(3 * ds);
  for (size_t i = 0; i < raw.size(); ++i) raw[i] = (i % 3 == 0 ? -1.0 : 0.5) * other;
  check_finite_or_untouched("column_bounds_scale_rows", 3 * (ds + 1), [&](double *out) {
    return dpcov_column_bounds_scale_rows(DPCOV_ROW_MAJOR, 3, d, raw.data(), d, lower.data(),
                                          upper.data(), out, d + 1, nullptr);
  });
  check_finite_or_untouched("column_bounds_transform", dd, [&](double *out) {
    return dpcov_column_bounds_transform(d - 1, lower.data(), upper.data(),
                                         *rc::gen::element(DPCOV_UNITS_USER, DPCOV_UNITS_SCALED),
                                         DPCOV_ROW_MAJOR, h.data(), d, out, d);
  });

  // The receipts' post-processing in place, at a sigma, dof and scale anywhere in the doubles.
  const double sigma = *extreme_scale();
  check_in_place("postprocess_analyze_gauss_shift", g, [&](double *a, double *shift) {
    return dpcov_postprocess_analyze_gauss_shift(DPCOV_ROW_MAJOR, d, a, d, sigma, 0.05, shift);
  });
  check_in_place("postprocess_wishart_mean_subtract", g, [&](double *a, double *shift) {
    *shift = 0.0;
    const dpcov_status status =
        dpcov_postprocess_wishart_mean_subtract(DPCOV_ROW_MAJOR, d, a, d, sigma, other);
    if (status != DPCOV_OK) *shift = kCanary;
    return status;
  });
  check_in_place("postprocess_constant_rescale", g, [&](double *a, double *shift) {
    *shift = 0.0;
    const dpcov_status status =
        dpcov_postprocess_constant_rescale(DPCOV_ROW_MAJOR, d, a, d, 0, sigma, other);
    if (status != DPCOV_OK) *shift = kCanary;
    return status;
  });
  // The Gram estimate of a release, its receipt's dof, scale and w anywhere in the doubles (the
  // inverse Wishart multiplies the release by m - d - 1).
  dpcov_receipt noise{};
  noise.struct_size = sizeof noise;
  noise.mechanism = *rc::gen::element<int32_t>(DPCOV_MECHANISM_WISHART_ADDITIVE,
                                               DPCOV_MECHANISM_JL_RIDGE,
                                               DPCOV_MECHANISM_INVERSE_WISHART);
  noise.dim = d;
  noise.dof = sigma;
  noise.scale = other;
  noise.appended_w = *extreme_scale();
  check_in_place("postprocess_gram_estimate", g, [&](double *a, double *shift) {
    int32_t unbiased = -1;
    const dpcov_status status =
        dpcov_postprocess_gram_estimate(DPCOV_ROW_MAJOR, d, a, d, &noise, &unbiased);
    *shift = status == DPCOV_OK ? static_cast<double>(unbiased) : kCanary;
    return status;
  });
  check_in_place("postprocess_wishart_shift", g, [&](double *a, double *shift) {
    return dpcov_postprocess_wishart_shift(DPCOV_ROW_MAJOR, d, a, d, sigma + static_cast<double>(d),
                                           other, 0.05, shift);
  });

  // The graphical lasso of the scaled covariance at a penalty anywhere in the doubles.
  dpcov_glasso_info info{};
  info.struct_size = sizeof info;
  info.kkt_residual = info.duality_gap = kCanary;
  check_finite_or_untouched("glasso_solve", 2 * dd + 2, [&](double *out) {
    const dpcov_status status =
        dpcov_glasso_solve(DPCOV_ROW_MAJOR, d, g.data(), d, *extreme_scale(), nullptr, nullptr, 0,
                           out, d, out + dd, d, &info);
    out[2 * dd] = info.kkt_residual;  // the info's doubles, checked with the outputs
    out[2 * dd + 1] = info.duality_gap;
    return status;
  });

  // Log-densities: finite or -infinity with OK.
  std::vector<double> psi(dd, 0.0), u(ds, 0.0);
  for (int64_t i = 0; i < d; ++i) psi[static_cast<size_t>(i * d + i)] = other;
  u[0] = 1.0;
  for (const auto &density : std::vector<std::function<dpcov_status(double *)>>{
           [&](double *out) {
             return dpcov_log_density_inverse_wishart(
                 DPCOV_ROW_MAJOR, d, g.data(), d, static_cast<double>(d) + 1.0, psi.data(), d, out);
           },
           [&](double *out) {
             return dpcov_log_density_acg(DPCOV_ROW_MAJOR, d, g.data(), d, u.data(), out);
           }}) {
    double value = kCanary;
    if (density(&value) == DPCOV_OK)
      RC_ASSERT(!std::isnan(value) && value != HUGE_VAL);
    else
      RC_ASSERT(value == kCanary);
  }
}

}  // namespace
