#include "standard_audit.hpp"

#include <cstdio>

#include "../error.hpp"
#include "mechanism_audit.hpp"

namespace dpcov::audit {

namespace {

using mechanisms::MechanismId;

struct Entry {
  MechanismId mechanism;
  NeighbourKind neighbour;
  DatasetKind data;
  Statistic statistic;  // black box only
  bool black_box;
};

// Projection sizes of the JL and inverse-Wishart mechanisms in the table (public choices).
constexpr int64_t kProjectionRows = 20;
// Graphical-lasso penalty of the output-perturbation audit target (a public choice).
constexpr double kGlassoRho = 0.1;

mechanisms::Request request_for(const Entry &e, int64_t d, int64_t n, double eps, double delta) {
  mechanisms::Request r;
  r.dim = d;
  r.n = n;
  r.bound = 1.0;
  r.epsilon = eps;
  r.delta = delta;
  switch (e.mechanism) {
    case MechanismId::LaplaceSym:
    case MechanismId::WishartJiang:
    case MechanismId::GlassoOutputWishart:
    case MechanismId::Iev:
    case MechanismId::KtRank1: r.delta = 0.0; break;
    default: break;
  }
  r.options.audit_only_not_private = e.mechanism == MechanismId::WishartJiang ||
                                     e.mechanism == MechanismId::GlassoOutputWishart;
  if (e.mechanism == MechanismId::GlassoOutputWishart) r.options.glasso_rho = kGlassoRho;
  if (e.mechanism == MechanismId::JlRidge || e.mechanism == MechanismId::JlRidgeSigmaMin ||
      e.mechanism == MechanismId::OlsJl)
    r.options.projection_rows = std::max(kProjectionRows, 2 * d);
  if (e.mechanism == MechanismId::InverseWishart ||
      e.mechanism == MechanismId::InverseWishartSigmaMin)
    r.options.posterior_dof = std::max(kProjectionRows, 2 * d);
  return r;
}

std::string fixed(double x, int digits = 3) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*g", digits, x);
  return buffer;
}

}  // namespace

std::vector<StandardAuditRow> run_standard_audit(const StandardAuditSettings &settings) {
  const Entry entries[] = {
      {MechanismId::AnalyzeGauss, NeighbourKind::MaxL2Change, DatasetKind::RandomRows, {}, false},
      {MechanismId::LaplaceSym, NeighbourKind::MaxL1Change, DatasetKind::RandomRows, {}, false},
      {MechanismId::WishartAdditive, NeighbourKind::LeastEigenvector, DatasetKind::RandomRows, {}, false},
      {MechanismId::InverseGauss, NeighbourKind::LeastEigenvector, DatasetKind::SphereRows, {}, false},
      {MechanismId::JlRidge, NeighbourKind::LeastEigenvector, DatasetKind::RandomRows, {}, false},
      {MechanismId::JlRidgeSigmaMin, NeighbourKind::LeastEigenvector, DatasetKind::SphereRows, {}, false},
      {MechanismId::InverseWishart, NeighbourKind::LeastEigenvector, DatasetKind::RandomRows, {}, false},
      {MechanismId::InverseWishartSigmaMin, NeighbourKind::LeastEigenvector, DatasetKind::SphereRows, {}, false},
      {MechanismId::WishartJiang, NeighbourKind::LeastEigenvector, DatasetKind::RandomRows, {}, false},
      {MechanismId::GlassoOutputWishart, NeighbourKind::LeastEigenvector, DatasetKind::RandomRows, {}, false},
      {MechanismId::OlsJl, NeighbourKind::LeastEigenvector, DatasetKind::SphereRows, {}, false},
      {MechanismId::Iev, NeighbourKind::MaxL2Change, DatasetKind::SphereRows, Statistic::TopEigenvalue, true},
      {MechanismId::Iev, NeighbourKind::MaxL2Change, DatasetKind::SphereRows, Statistic::TopEigenvectorAlignment, true},
      {MechanismId::KtRank1, NeighbourKind::MaxL2Change, DatasetKind::SphereRows, Statistic::TopEigenvalue, true},
  };
  std::vector<StandardAuditRow> rows;
  uint64_t seed = settings.seed;
  for (const Entry &e : entries)
    for (const double eps : settings.epsilons)
      for (const int64_t d : settings.dims) {
        StandardAuditRow row;
        row.mechanism = mechanisms::mechanism_name(e.mechanism);
        row.epsilon = eps;
        row.delta = settings.delta;
        row.dim = d;
        row.pair = concat(neighbour_kind_name(e.neighbour), "/", dataset_kind_name(e.data));
        row.method = e.black_box ? concat("black-box:", statistic_name(e.statistic)) : "exact";
        ++seed;
        try {
          mechanisms::Request base = request_for(e, d, settings.n, eps, settings.delta);
          // ols_jl at the rows where its private test is undecided (refusals and releases both).
          if (e.mechanism == MechanismId::OlsJl) {
            base.n = ols_jl_threshold_rows(base);
            row.pair += concat(" n=", base.n);
          }
          const DatasetPair data = generate_pair(base, e.data, e.neighbour, seed);
          const PairStatistics pair =
              pair_statistics(data.rows, data.rows_prime, base.bound, base.options.neighbour);
          const mechanisms::Request request = request_for_pair(e.mechanism, base, pair);
          row.not_dp = mechanisms::plan(e.mechanism, request).not_dp;
          if (e.black_box) {
            BlackBoxSettings s;
            s.trials = settings.trials;
            s.pilot = std::max<int64_t>(200, settings.trials / 10);
            s.alpha = settings.alpha;
            s.seed = seed;
            s.statistic = e.statistic;
            row.black_box = run_black_box_audit(mechanism_target(e.mechanism, request), pair, s);
          } else {
            Settings s;
            s.trials = settings.trials;
            s.first_checkpoint = std::min<int64_t>(100, settings.trials);
            s.alpha = settings.alpha;
            s.seed = seed;
            row.exact = audit_mechanism(e.mechanism, request, pair, s);
          }
        } catch (const Error &error) {
          row.refused = concat("status ", static_cast<int32_t>(error.status()), ": ",
                               error.what());
        }
        rows.push_back(std::move(row));
      }
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
