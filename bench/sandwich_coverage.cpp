// Coverage and median width of the robust (sandwich) intervals against today's homoscedastic
// AdaSSP bootstrap, over bench/sandwich_models.hpp: models {homoscedastic, heteroscedastic,
// omitted quadratic} x n {1e4, 5e4} x d {3, 10} x epsilon {1, 4}, delta = 1e-6, 95% intervals,
// 199 worlds, `fits` fits per cell (argument 1, default 100), seed 33 + cell index. Per cell and
// estimator: the share of fits with an interval, the coverage of all coefficients pooled, the
// worst coefficient's coverage and the median width of the slope of x_1; the robust rows also
// print the meat's share of epsilon. Results: bench/results/sandwich_coverage.md.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "sandwich_models.hpp"

namespace {

using namespace dpcov;
using namespace dpcov::sandwich_models;

struct Cell {
  int64_t fits = 0, printed = 0;
  std::vector<int64_t> covered;  // per coefficient
  std::vector<double> widths;    // of the slope of x_1
};

template <class Fit>
void tally(Cell &c, int64_t d, Fit &&fit) {
  ++c.fits;
  try {
    const estimators::BootstrapIntervals ci = fit();
    ++c.printed;
    for (int64_t j = 0; j < d; ++j) c.covered[static_cast<size_t>(j)] += covers(ci, d, j) ? 1 : 0;
    c.widths.push_back(ci.ci_upper[0] - ci.ci_lower[0]);
  } catch (const Error &e) {
    if (e.status() != Status::Precondition) throw;
  }
}

void print(const char *name, const Cell &c, int64_t d, const char *share) {
  double all = 0.0, worst = 1.0, median = 0.0;
  const auto printed = static_cast<double>(std::max<int64_t>(c.printed, 1));
  for (int64_t v : c.covered) {
    all += static_cast<double>(v) / printed / static_cast<double>(d);
    worst = std::min(worst, static_cast<double>(v) / printed);
  }
  std::vector<double> w = c.widths;
  if (!w.empty()) {
    std::nth_element(w.begin(), w.begin() + static_cast<long>(w.size() / 2), w.end());
    median = w[w.size() / 2];
  }
  std::printf(" | %s | %.2f | %.3f | %.3f | %.4f | %s", name,
              static_cast<double>(c.printed) / static_cast<double>(c.fits), all, worst, median,
              share);
}

}  // namespace

int main(int argc, char **argv) {
  const int64_t fits = argc > 1 ? std::atoll(argv[1]) : 100;
  std::printf("| model | n | d | eps | estimator | share printed | coverage (all) | worst "
              "coefficient | median width x_1 | meat's share of eps |\n"
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  uint64_t cell = 0;
  for (Model m : {Model::Homoscedastic, Model::Heteroscedastic, Model::Misspecified})
    for (int64_t n : {10000, 50000})
      for (int64_t d : {3, 10})
        for (double eps : {1.0, 4.0}) {
          random::Rng rng = random::Rng::from_seed(33 + cell++);
          Cell homo{0, 0, std::vector<int64_t>(static_cast<size_t>(d)), {}};
          Cell rob = homo;
          for (int64_t f = 0; f < fits; ++f) {
            const Rows rows = draw_rows(m, n, d, rng);
            tally(homo, d, [&] { return homoscedastic(rows, eps, 1e-6, 0.95, 199, rng); });
            tally(rob, d, [&] { return robust(rows, eps, 1e-6, 0.95, 199, rng); });
          }
          char meat_share[32];
          std::snprintf(meat_share, sizeof meat_share, "%.2f", privacy::kSandwichMeatShare);
          std::printf("| %s | %lld | %lld | %g", model_name(m), static_cast<long long>(n),
                      static_cast<long long>(d), eps);
          print("homoscedastic (today)", homo, d, "0 |\n");
          std::printf("| %s | %lld | %lld | %g", model_name(m), static_cast<long long>(n),
                      static_cast<long long>(d), eps);
          print("robust", rob, d, meat_share);
          std::printf(" |\n");
          std::fflush(stdout);
        }
  return 0;
}
