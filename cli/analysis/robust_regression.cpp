#include "robust_regression.hpp"

#include <memory>

#include "../cli_error.hpp"
#include "../library_status.hpp"
#include "../options/mechanism_options.hpp"
#include "../options/rng_option.hpp"
#include "text_table.hpp"

namespace dpcov::cli {

namespace {

dpcov_mechanism_params meat_params(int32_t neighbour) {
  dpcov_mechanism_params params;
  library_check(dpcov_mechanism_params_default(&params), "mechanism defaults");
  params.neighbour = neighbour;
  return params;
}

}  // namespace

dpcov_sandwich_budget sandwich_budget(double bound_x, double bound_y, double epsilon,
                                      double delta) {
  dpcov_sandwich_budget budget{};
  budget.struct_size = sizeof budget;
  library_check(dpcov_adassp_sandwich_plan(bound_x, bound_y, epsilon, delta, &budget),
                "--errors robust: the budget of the meat");
  return budget;
}

dpcov_receipt meat_plan(int64_t p, const dpcov_sandwich_budget &budget, int32_t neighbour) {
  const dpcov_mechanism_params params = meat_params(neighbour);
  dpcov_receipt plan{};
  plan.struct_size = sizeof plan;
  library_check(dpcov_mechanism_plan(DPCOV_MECHANISM_ANALYZE_GAUSS, p, 1, budget.meat_row_bound,
                                     budget.meat_epsilon, budget.meat_delta, &params, &plan),
                "--errors robust: the plan of the meat");
  return plan;
}

RobustMeat release_meat(RowReader &reader, const RegressionColumns &columns,
                        const dpcov_row_bounding &spec, const std::vector<double> &beta0,
                        double bound_x, const dpcov_sandwich_budget &budget, int32_t neighbour,
                        int64_t fit_rows, dpcov_rng *rng, dpcov_status &status) {
  const auto p = static_cast<int64_t>(beta0.size());
  dpcov_row_bounding meat_spec;
  library_check(dpcov_row_bounding_default(&meat_spec), "row bounding defaults");
  meat_spec.bound = budget.meat_row_bound;
  meat_spec.neighbour = neighbour;
  meat_spec.mechanism = DPCOV_MECHANISM_ANALYZE_GAUSS;
  meat_spec.epsilon = budget.meat_epsilon;
  meat_spec.delta = budget.meat_delta;
  dpcov_gram *raw = nullptr;
  library_check(dpcov_gram_create_bounded(&raw, p, &meat_spec), "--errors robust: the meat");
  const std::unique_ptr<dpcov_gram, void (*)(dpcov_gram *)> gram(
      raw, [](dpcov_gram *g) { dpcov_gram_destroy(&g); });
  std::vector<double> u;
  int64_t seen = 0;
  stream_bounded_rows(reader, columns, spec, [&](const double *rows, int64_t n, int64_t cols) {
    seen += n;
    if (n == 0) return;
    u.resize(static_cast<size_t>(n * p));
    library_check(dpcov_adassp_sandwich_rows(DPCOV_ROW_MAJOR, n, p, rows, cols, beta0.data(),
                                             bound_x, budget.residual_bound, u.data(), p),
                  "--errors robust: the meat's rows");
    library_check(dpcov_gram_add_raw_rows(gram.get(), DPCOV_ROW_MAJOR, n, p, u.data(), p, nullptr),
                  "--errors robust: the meat's rows");
  });
  // A pipe read again, or a file changed between the passes, would give the meat other rows than
  // the fit's: refused before the meat's noise is drawn (the fit's draw is charged).
  if (seen != fit_rows)
    fail(kExitInputData, reader.name(), ": the second pass read other rows than the fit (the "
         "counts are not printed: n may be private): the input must be a file that does not "
         "change; --errors homoscedastic reads it once");
  RobustMeat out;
  out.meat.resize(static_cast<size_t>(p * p));
  out.receipt.struct_size = sizeof out.receipt;
  const dpcov_mechanism_params params = meat_params(neighbour);
  status = dpcov_mechanism_release_gram(DPCOV_MECHANISM_ANALYZE_GAUSS, gram.get(),
                                        budget.meat_epsilon, budget.meat_delta, &params, rng,
                                        DPCOV_ROW_MAJOR, out.meat.data(), p, &out.receipt);
  return out;
}

nlohmann::ordered_json sandwich_json(const dpcov_sandwich_budget &b, const RobustMeat &meat) {
  return {{"meat_share", b.meat_share},         {"fit_epsilon", b.fit_epsilon},
          {"fit_delta", b.fit_delta},           {"meat_epsilon", b.meat_epsilon},
          {"meat_delta", b.meat_delta},         {"residual_bound", b.residual_bound},
          {"meat_row_bound", b.meat_row_bound},
          {"meat_receipt", public_receipt_json(meat.receipt)}};
}

std::string meat_text(const dpcov_sandwich_budget &b, const char *fit) {
  return concat("  meat (errors robust): Analyze Gauss, epsilon ", format_number(b.meat_epsilon),
                ", delta ", format_number(b.meat_delta), " (a ", format_number(b.meat_share),
                " share; the ", fit, " above spent the rest), rows r x of norm <= ",
                format_number(b.meat_row_bound), ", residuals clipped at ",
                format_number(b.residual_bound), "\n");
}

NoiseAware robust_intervals(const std::vector<double> &xtx, const std::vector<double> &xty,
                            const dpcov_adassp_receipt &receipt, const RobustMeat &meat,
                            double level, const BootstrapSettings &bootstrap) {
  NoiseAware out;
  const int64_t p = receipt.num_regressors;
  RngHandle own;
  dpcov_rng *const rng = bootstrap_generator(bootstrap, own);
  for (auto *v : {&out.coef, &out.se, &out.p, &out.lower, &out.upper})
    v->resize(static_cast<size_t>(p));
  const dpcov_status status = dpcov_adassp_robust_intervals(
      DPCOV_ROW_MAJOR, p, xtx.data(), p, xty.data(), &receipt, meat.meat.data(), p, &meat.receipt,
      level, bootstrap.draws, rng, out.coef.data(), out.se.data(), out.p.data(),
      out.lower.data(), out.upper.data());
  if (status == DPCOV_E_PRECONDITION) {
    out.refusal = dpcov_last_error_message();
    return out;
  }
  library_check(status, "robust intervals");
  out.computed = true;
  return out;
}

}  // namespace dpcov::cli
