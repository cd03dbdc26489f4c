// Post-processing and estimators on fuzzed symmetric matrices (finite but extreme values
// included): regression, PCA, subspace distance, eigenvalue clipping, PSD projection, shifts, the
// Gram estimate from a fuzzed receipt. On error the canary outputs are unchanged; on success every
// output is finite and symmetric outputs are exactly symmetric.
#include <vector>

#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::Input in(data, size);
  const int64_t d = in.range(1, 5);
  const size_t dd = static_cast<size_t>(d * d);
  std::vector<double> a(dd);
  for (int64_t i = 0; i < d; ++i)
    for (int64_t j = i; j < d; ++j)
      a[static_cast<size_t>(i * d + j)] = a[static_cast<size_t>(j * d + i)] = in.number();
  const int32_t op = static_cast<int32_t>(in.range(0, 6));

  if (op == 0 && d >= 2) {  // regression
    const int64_t n = in.range(-1, 1 << 20);
    dpcov_regression_params p;
    fuzz::require(dpcov_regression_params_default(&p) == DPCOV_OK, "params");
    p.ridge = in.range(0, 1) ? in.positive() : 0.0;
    p.level = in.range(0, 3) ? 0.95 : in.number();
    p.intercept_column = in.range(-1, d - 1);
    std::vector<int64_t> features;
    for (int64_t j = 1; j < d; ++j) features.push_back(j);
    std::vector<double> coef = fuzz::canaries(features.size() + 1), se = coef, t = coef, pv = coef,
                        lo = coef, hi = coef;
    const dpcov_status s = dpcov_regression_fit(
        DPCOV_ROW_MAJOR, d, a.data(), d, n, 0, features.data(),
        static_cast<int64_t>(features.size()), &p, coef.data(), se.data(), t.data(), pv.data(),
        lo.data(), hi.data(), nullptr);
    fuzz::known_status(s);
    if (s == DPCOV_OK) {
      // Only the first p entries are outputs (p = features + intercept); the rest stay canaries.
      for (auto *v : {&coef, &se, &pv, &lo, &hi})
        for (double x : *v)
          if (std::memcmp(&x, &fuzz::kCanary, sizeof x) != 0) fuzz::finite(&x, 1, "regression");
      for (size_t i = 0; i < t.size(); ++i)
        if (std::memcmp(&t[i], &fuzz::kCanary, sizeof t[i]) != 0 && !std::isfinite(t[i]))
          fuzz::require(se[i] == 0.0, "infinite t-value with a nonzero standard error");
    } else {
      for (auto *v : {&coef, &se, &t, &pv, &lo, &hi}) fuzz::unchanged(*v, "regression");
    }
  } else if (op == 1) {  // PCA
    const int64_t k = in.range(0, d + 1);
    std::vector<double> values = fuzz::canaries(static_cast<size_t>(d)), vectors = fuzz::canaries(dd),
                        ratio = fuzz::canaries(static_cast<size_t>(d));
    const dpcov_status s = dpcov_pca_top_k(DPCOV_ROW_MAJOR, d, a.data(), d, k, values.data(),
                                           vectors.data(), d, ratio.data());
    fuzz::known_status(s);
    if (s == DPCOV_OK) {
      fuzz::finite(values.data(), static_cast<size_t>(k), "pca values");
      fuzz::finite(ratio.data(), static_cast<size_t>(k), "pca explained ratio");
    } else {
      fuzz::unchanged(values, "pca");
      fuzz::unchanged(vectors, "pca");
      fuzz::unchanged(ratio, "pca");
    }
  } else if (op == 2) {  // subspace distance against the identity
    std::vector<double> b(dd, 0.0);
    for (int64_t i = 0; i < d; ++i) b[static_cast<size_t>(i * d + i)] = static_cast<double>(d - i);
    double s1 = fuzz::kCanary, s2 = fuzz::kCanary;
    std::vector<double> angles = fuzz::canaries(static_cast<size_t>(d));
    const int64_t k = in.range(1, d);
    const dpcov_status s = dpcov_pca_subspace_distance(DPCOV_ROW_MAJOR, d, a.data(), d, b.data(), d,
                                                       k, &s1, &s2, angles.data());
    fuzz::known_status(s);
    if (s == DPCOV_OK) {
      fuzz::finite(&s1, 1, "sin theta");
      fuzz::finite(&s2, 1, "sin theta");
      fuzz::finite(angles.data(), static_cast<size_t>(k), "angles");
    } else {
      fuzz::require(s1 == fuzz::kCanary && s2 == fuzz::kCanary, "distance written on error");
    }
  } else {  // post-processing, in place
    std::vector<double> m = a;
    double shift = fuzz::kCanary;
    dpcov_status s;
    switch (op) {
      case 3: s = dpcov_postprocess_psd_project(DPCOV_COL_MAJOR, d, m.data(), d); break;
      case 4: {
        const double lo = in.number(), hi = in.number();
        s = dpcov_postprocess_eigenvalues_clip(DPCOV_ROW_MAJOR, d, m.data(), d, lo, hi);
        break;
      }
      case 5:
        s = dpcov_postprocess_analyze_gauss_shift(DPCOV_ROW_MAJOR, d, m.data(), d, in.number(),
                                                  in.number(), &shift);
        break;
      default:
        switch (in.range(0, 3)) {
          case 3: {  // the Gram estimate read from a fuzzed receipt
            dpcov_receipt r{};
            r.struct_size = in.range(0, 1) ? sizeof r : static_cast<size_t>(in.range(0, 64));
            r.mechanism = static_cast<int32_t>(in.range(-1, 30));
            r.dim = in.range(0, 2) ? d : in.range(-1, 6);
            r.dof = in.number();
            r.scale = in.number();
            r.appended_w = in.number();
            int32_t unbiased = -7;
            s = dpcov_postprocess_gram_estimate(DPCOV_ROW_MAJOR, d, m.data(), d,
                                                in.range(0, 7) ? &r : nullptr, &unbiased);
            fuzz::require(s == DPCOV_OK ? (unbiased == 0 || unbiased == 1) : unbiased == -7,
                          "unbiased written on error or out of {0, 1}");
            break;
          }
          case 0:
            s = dpcov_postprocess_wishart_mean_subtract(DPCOV_ROW_MAJOR, d, m.data(), d,
                                                        in.number(), in.number());
            break;
          case 1:
            s = dpcov_postprocess_wishart_shift(DPCOV_ROW_MAJOR, d, m.data(), d, in.number(),
                                                in.number(), in.number(), &shift);
            break;
          default: {
            const int64_t column = in.range(-1, d);
            const double held = in.number(), value = in.number();
            s = dpcov_postprocess_constant_rescale(DPCOV_ROW_MAJOR, d, m.data(), d, column, held,
                                                   value);
          }
        }
    }
    fuzz::known_status(s);
    if (s == DPCOV_OK) {
      fuzz::symmetric(m.data(), d, d, "post-processed");
      if (shift != fuzz::kCanary) fuzz::finite(&shift, 1, "shift");
    } else {
      fuzz::require(std::memcmp(m.data(), a.data(), dd * sizeof(double)) == 0,
                    "matrix changed on error");
      fuzz::require(shift == fuzz::kCanary, "shift written on error");
    }
  }
  return 0;
}
