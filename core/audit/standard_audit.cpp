#include "standard_audit.hpp"

#include <cstdio>

#include "../error.hpp"
#include "../mechanisms/registry.hpp"
#include "audit_table.hpp"
#include "mechanism_audit.hpp"

namespace dpcov::audit {

namespace {

// Projection sizes of the JL and inverse-Wishart mechanisms in the table (public choices).
constexpr int64_t kProjectionRows = 20;
// Graphical-lasso penalty of the output-perturbation audit target (a public choice).
constexpr double kGlassoRho = 0.1;

// The request of the table's settings, with the public choices each mechanism's options need: a
// pure or not-private claim spends no delta, an audit target is unlocked.
mechanisms::Request request_for(const mechanisms::RegistryEntry &entry, int64_t d, int64_t n,
                                double eps, double delta) {
  using mechanisms::PrivacyModel;
  mechanisms::Request r;
  r.dim = d;
  r.n = n;
  r.bound = 1.0;
  r.epsilon = eps;
  r.delta = entry.privacy == PrivacyModel::Approximate ? delta : 0.0;
  r.options.audit_only_not_private = entry.privacy == PrivacyModel::NotPrivate;
  if (entry.options & mechanisms::kOptionGlassoRho) r.options.glasso_rho = kGlassoRho;
  if (entry.options & mechanisms::kOptionProjectionRows)
    r.options.projection_rows = std::max(kProjectionRows, 2 * d);
  if (entry.options & mechanisms::kOptionPosteriorDof)
    r.options.posterior_dof = std::max(kProjectionRows, 2 * d);
  return r;
}

std::string fixed(double x, int digits = 3) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*g", digits, x);
  return buffer;
}

// One row: the case audited at (eps, d) with the given seed; a refusal of the settings is a row.
StandardAuditRow run_case(const MechanismAudit &audit, const StandardCase &c,
                          const StandardAuditSettings &settings, double eps, int64_t d,
                          uint64_t seed) {
  const mechanisms::MechanismId mechanism = mechanisms::mechanism_id(audit.id);
  StandardAuditRow row;
  row.mechanism = mechanisms::mechanism_name(mechanism);
  row.epsilon = eps;
  row.delta = settings.delta;
  row.dim = d;
  row.pair = concat(neighbour_kind_name(c.neighbour), "/", dataset_kind_name(c.data));
  row.method = c.black_box ? concat("black-box:", statistic_name(c.statistic)) : "exact";
  try {
    mechanisms::Request base =
        request_for(mechanisms::entry_of(audit.id), d, settings.n, eps, settings.delta);
    if (audit.standard_rows != nullptr) {
      base.n = audit.standard_rows(base);
      row.pair += concat(" n=", base.n);
    }
    const DatasetPair data = generate_pair(base, c.data, c.neighbour, seed);
    const PairStatistics pair =
        pair_statistics(data.rows, data.rows_prime, base.bound, base.options.neighbour);
    const mechanisms::Request request = request_for_pair(mechanism, base, pair);
    row.not_dp = mechanisms::plan(mechanism, request).not_dp;
    if (c.black_box) {
      BlackBoxSettings s;
      s.trials = settings.trials;
      s.pilot = std::max<int64_t>(200, settings.trials / 10);
      s.alpha = settings.alpha;
      s.seed = seed;
      s.statistic = c.statistic;
      row.black_box = run_black_box_audit(mechanism_target(mechanism, request), pair, s);
    } else {
      Settings s;
      s.trials = settings.trials;
      s.first_checkpoint = std::min<int64_t>(100, settings.trials);
      s.alpha = settings.alpha;
      s.seed = seed;
      row.exact = audit_mechanism(mechanism, request, pair, s);
    }
  } catch (const Error &error) {
    row.refused = concat("status ", static_cast<int32_t>(error.status()), ": ", error.what());
  }
  return row;
}

}  // namespace

std::vector<StandardAuditRow> run_standard_audit(const StandardAuditSettings &settings) {
  std::vector<StandardAuditRow> rows;
  uint64_t seed = settings.seed;
  for (const MechanismAudit &audit : audit_table())
    for (const StandardCase &c : audit.standard_cases())
      for (const double eps : settings.epsilons)
        for (const int64_t d : settings.dims)
          rows.push_back(run_case(audit, c, settings, eps, d, ++seed));
  return rows;
}

std::string format_standard_audit(const std::vector<StandardAuditRow> &rows) {
  std::string out =
      "mechanism                  eps  delta  d  pair                               method                              draws   "
      "delta(eps) est [lower, upper]      P(L>eps) [lower, upper]      max L     gauss-pair delta>=  KS/DKW   verdict\n";
  char line[1024];
  for (const StandardAuditRow &r : rows) {
    if (!r.refused.empty()) {
      std::snprintf(line, sizeof line, "%-26s %-4s %-6s %-2lld %-34s %-35s refused (%s)\n",
                    r.mechanism.c_str(), fixed(r.epsilon).c_str(), fixed(r.delta).c_str(),
                    static_cast<long long>(r.dim), r.pair.c_str(), r.method.c_str(),
                    r.refused.substr(0, 90).c_str());
      out += line;
      continue;
    }
    const std::string verdict = r.violation() ? "violation" : "no violation found";
    const double claimed_delta = r.method == "exact" ? r.exact.delta : r.black_box.delta;
    if (r.method == "exact") {
      const DirectionResult &w = r.exact.worst();
      const double max_loss = std::max(r.exact.forward.max_loss, r.exact.backward.max_loss);
      const double gauss = std::max(r.exact.forward.gaussian_delta_lower,
                                    r.exact.backward.gaussian_delta_lower);
      const DirectionResult &c = r.exact.forward;
      std::snprintf(line, sizeof line,
                    "%-26s %-4s %-6s %-2lld %-34s %-35s %7lld  %-9s [%-9s, %-9s]  %-8s [%-8s, %-8s]  %-8s  %-18s  %-7s  %s%s\n",
                    r.mechanism.c_str(), fixed(r.epsilon).c_str(), fixed(claimed_delta).c_str(),
                    static_cast<long long>(r.dim), r.pair.c_str(), r.method.c_str(),
                    static_cast<long long>(r.samples()), fixed(w.delta.estimate).c_str(),
                    fixed(w.delta.lower).c_str(), fixed(w.delta.upper).c_str(),
                    fixed(w.exceed.estimate).c_str(), fixed(w.exceed.lower).c_str(),
                    fixed(w.exceed.upper).c_str(), fixed(max_loss, 4).c_str(),
                    w.pair_distance > 0 ? fixed(gauss).c_str() : "-",
                    c.conformance_threshold > 0
                        ? fixed(c.conformance_distance / c.conformance_threshold, 2).c_str()
                        : "-",
                    verdict.c_str(), r.not_dp ? " (known not DP)" : "");
    } else {
      std::snprintf(line, sizeof line,
                    "%-26s %-4s %-6s %-2lld %-34s %-35s %7lld  event bound delta >= %-9s  %-60s %s%s\n",
                    r.mechanism.c_str(), fixed(r.epsilon).c_str(), fixed(claimed_delta).c_str(),
                    static_cast<long long>(r.dim), r.pair.c_str(), r.method.c_str(),
                    static_cast<long long>(r.samples()), fixed(r.black_box.delta_lower).c_str(),
                    r.black_box.event.substr(0, 60).c_str(), verdict.c_str(),
                    r.not_dp ? " (known not DP)" : "");
    }
    out += line;
  }
  return out;
}

}  // namespace dpcov::audit
