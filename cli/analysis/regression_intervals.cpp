#include "regression_intervals.hpp"

#include "../cli_error.hpp"
#include "../library_status.hpp"
#include "../options/mechanism_registry.hpp"
#include "../options/rng_option.hpp"
#include "posterior_intervals.hpp"

namespace dpcov::cli {

namespace {

void resize(NoiseAware &out, size_t size) {
  for (auto *v : {&out.coef, &out.se, &out.p, &out.lower, &out.upper}) v->resize(size);
}

}  // namespace

dpcov_rng *bootstrap_generator(const BootstrapSettings &b, RngHandle &own) {
  if (!b.seed && b.release_rng) return b.release_rng;
  own = make_rng(b.seed);
  return own.get();
}

NoiseAware noise_aware_intervals(const LoadedMatrix &m, const std::vector<double> &g,
                                 int64_t label, const std::vector<int64_t> &features,
                                 dpcov_regression_params params, size_t size,
                                 const BootstrapSettings &bootstrap) {
  NoiseAware out;
  const std::optional<dpcov_receipt> receipt = noise_receipt(m);
  if (!receipt) {
    out.unavailable = true;
    out.refusal =
        m.mechanism().empty()
            ? std::string("the matrix has no release receipt that names its mechanism")
            : concat("no noise-aware intervals for ", m.mechanism(), " releases: they estimate "
                     "the rows' covariance with zCDP noise whose law the intervals do not model "
                     "(supported: ", robust_gram_mechanism_names(), ")");
    return out;
  }
  params.ridge = 0.0;
  RngHandle own;
  dpcov_rng *const rng = bootstrap_generator(bootstrap, own);
  resize(out, size);
  out.conclusive.assign(size, 0);
  const dpcov_status status = dpcov_ols_intervals(
      DPCOV_ROW_MAJOR, m.dim, g.data(), m.dim, &*receipt, label, features.data(),
      static_cast<int64_t>(features.size()), &params, nullptr, 0, nullptr, bootstrap.draws,
      rng, out.coef.data(), out.se.data(), out.p.data(), out.lower.data(),
      out.upper.data(), out.conclusive.data(), &out.noise_norm, &out.kappa);
  const bool no_law =
      status == DPCOV_E_INVALID_ARGUMENT &&
      std::string(dpcov_last_error_message()).find("no noise-aware") != std::string::npos;
  if (status == DPCOV_E_PRECONDITION || no_law) {
    out.unavailable = no_law;
    out.refusal = dpcov_last_error_message();
    out.conclusive.clear();  // no interval was formed: none is inconclusive either
    return out;
  }
  library_check(status, concat(m.path, ": noise-aware intervals"));
  out.computed = true;
  return out;
}

NoiseAware adassp_intervals(const std::vector<double> &xtx, const std::vector<double> &xty,
                            int64_t n, const dpcov_adassp_receipt &receipt, double level,
                            const BootstrapSettings &bootstrap, int64_t intercept_column,
                            bool posterior) {
  NoiseAware out;
  const int64_t p = receipt.num_regressors;
  if (n <= p) {
    out.refusal = concat("the intervals need more rows than regressors (", p, ")");
    return out;
  }
  RngHandle own;
  dpcov_rng *const rng = bootstrap_generator(bootstrap, own);
  resize(out, static_cast<size_t>(p));
  if (posterior) {
    adassp_intervals_at_every_n(xtx, xty, n, receipt, level, bootstrap.draws, intercept_column,
                                rng, out);
    return out;
  }
  const dpcov_status status = dpcov_adassp_bootstrap_intervals(
      DPCOV_ROW_MAJOR, p, xtx.data(), p, xty.data(), n, &receipt, level, bootstrap.draws,
      rng, out.coef.data(), out.se.data(), out.p.data(), out.lower.data(),
      out.upper.data());
  if (status == DPCOV_E_PRECONDITION) {
    out.refusal = dpcov_last_error_message();
    return out;
  }
  library_check(status, "noise-aware intervals");
  out.computed = true;
  return out;
}

Guaranteed guaranteed_intervals(const LoadedMatrix &m, const std::vector<double> &g,
                                int64_t label, const std::vector<int64_t> &features,
                                dpcov_regression_params params, size_t size) {
  Guaranteed out;
  // The registry says whose release is G + symmetric Gaussian of the receipt's sigma.
  if (!(m.inference() & DPCOV_MECHANISM_INFERENCE_GUARANTEED_GAUSS) ||
      !m.receipt.contains("sigma"))
    return out;
  params.ridge = 0.0;
  out.lower.resize(size);
  out.upper.resize(size);
  out.reject.resize(size);
  std::vector<double> coef(size);
  const dpcov_status status = dpcov_ols_analyze_gauss_intervals(
      DPCOV_ROW_MAJOR, m.dim, g.data(), m.dim, m.receipt["sigma"].get<double>(), *m.rows, label,
      features.data(), static_cast<int64_t>(features.size()), &params, coef.data(),
      out.lower.data(), out.upper.data(), nullptr, nullptr, out.reject.data(), &out.eta,
      &out.kappa);
  if (status == DPCOV_E_PRECONDITION) {
    out.refusal = dpcov_last_error_message();
    return out;
  }
  library_check(status, concat(m.path, ": guaranteed intervals"));
  out.computed = true;
  return out;
}

const char *interval_sign(double lower, double upper) {
  return lower > 0.0 ? "+" : upper < 0.0 ? "-" : "unclear";
}

}  // namespace dpcov::cli
