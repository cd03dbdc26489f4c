// Which blocks of AdaSSP's posterior chain mix slowly (proofs/adassp_posterior.md, "Mixing"):
// 4 chains from the library's starts on one generated release, every block of the state traced
// per sweep, and per block the worst rank-normalised split R-hat and the smallest and median bulk
// ESS over its scalars (chain_convergence: Geyer's initial monotone sequence over the chains'
// autocorrelations) of the second halves, with CPU seconds per sweep.
//   build/bench/posterior_mixing MODEL N D EPSILON SEED SWEEPS [MOVES]
//   build/bench/posterior_mixing heavy 500 10 1 1 1000
// MODEL is gaussian or heavy (tests/unit/adassp_release.hpp); MOVES the sweep's moves as the
// bit mask of posterior::Move (default: the library's sweep).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <string>
#include <vector>

#include "core/estimators/adassp_posterior_chain.hpp"
#include "core/estimators/chain_convergence.hpp"
#include "tests/unit/adassp_release.hpp"

namespace {

using namespace dpcov;
using namespace dpcov::estimators;
using Trace = std::map<std::string, std::vector<std::vector<double>>>;  // name -> chain -> sweep

// The blocks: the slopes' log scales, the correlations, sigma, u and beta.
std::vector<std::pair<std::string, double>> blocks(const posterior::State &s, int64_t intercept) {
  std::vector<std::pair<std::string, double>> out;
  const int64_t p = s.gram.rows();
  const std::vector<double> beta = posterior::coefficients(s);
  for (int64_t i = 0; i < p; ++i) {
    const std::string k = std::to_string(i);
    if (i != intercept) out.emplace_back("log G_ii:" + k, std::log(s.gram(i, i)));
    for (int64_t j = i + 1; j < p; ++j)
      out.emplace_back("correlation:" + k + "," + std::to_string(j),
                       s.gram(i, j) / std::sqrt(s.gram(i, i) * s.gram(j, j)));
    out.emplace_back("u:" + k, s.u[static_cast<size_t>(i)]);
    out.emplace_back("beta:" + k, beta[static_cast<size_t>(i)]);
  }
  out.emplace_back("sigma:", s.sigma);
  return out;
}

void report(const Trace &trace, double seconds_per_sweep) {
  std::map<std::string, std::vector<ChainConvergence>> per_block;
  for (const auto &[name, chains] : trace) {
    std::vector<std::vector<double>> kept;
    for (const auto &c : chains)
      kept.emplace_back(c.begin() + static_cast<std::ptrdiff_t>(c.size() / 2), c.end());
    per_block[name.substr(0, name.find(':'))].push_back(chain_convergence(kept));
  }
  std::printf("| block | scalars | max R-hat | min bulk ESS | median bulk ESS |\n");
  std::printf("| --- | --- | --- | --- | --- |\n");
  for (auto &[block, d] : per_block) {
    std::vector<double> ess;
    double rhat = 0.0;
    for (const auto &c : d) {
      ess.push_back(c.ess_bulk);
      rhat = std::max(rhat, c.rhat);
    }
    std::sort(ess.begin(), ess.end());
    std::printf("| %s | %zu | %.3f | %.0f | %.0f |\n", block.c_str(), d.size(), rhat, ess.front(),
                ess[ess.size() / 2]);
  }
  std::printf("CPU seconds per sweep: %.2e\n", seconds_per_sweep);
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 7) {
    std::fprintf(stderr, "usage: posterior_mixing MODEL N D EPSILON SEED SWEEPS [MOVES]\n");
    return 2;
  }
  const bool heavy = std::string(argv[1]) == "heavy";
  const int64_t n = std::atoll(argv[2]), d = std::atoll(argv[3]);
  const uint64_t seed = std::strtoull(argv[5], nullptr, 10);
  const int64_t sweeps = std::atoll(argv[6]);
  const unsigned moves = argc > 7 ? static_cast<unsigned>(std::atoi(argv[7])) : posterior::kMoveSweep;
  const Released rel = release(n, d, heavy, std::atof(argv[4]), seed);
  const posterior::Release r = posterior::make_release(rel.fit.xtx, rel.fit.xty, rel.fit.yty,
                                                       rel.n, rel.fit.receipt, 0);
  const posterior::GramCoordinates coords = posterior::gram_coordinates(r);
  random::Rng rng = random::Rng::from_seed(seed, 3);
  constexpr int kChains = 4;
  Trace trace;
  const std::clock_t start = std::clock();
  for (int k = 0; k < kChains; ++k) {
    const double at_k = (k + 0.5) / kChains;  // the library's starts
    posterior::State s = posterior::initial_state(r, 2.0 * at_k - 1.0, at_k);
    for (int64_t t = 0; t < sweeps; ++t) {
      posterior::sweep(r, coords, s, rng, moves);
      for (const auto &[name, v] : blocks(s, 0)) {
        auto &chains = trace[name];
        chains.resize(kChains);
        chains[static_cast<size_t>(k)].push_back(v);
      }
    }
  }
  const double seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  report(trace, seconds / static_cast<double>(kChains * sweeps));
  return 0;
}
