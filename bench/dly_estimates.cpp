// Adaptive's branch estimates (core/mechanisms/dong_liang_yi.cpp, dly_branch_errors) against the
// errors they estimate, on the d and n of the authors' Fig. 1 at rho = 0.1, r = 1 and the radius r
// (proofs/dong_liang_yi.md, "Branch"). Per run: S = X^T X / n, the first half A_1 = S + E_1 at
// rho_c / 2 (rho_c = dly_adaptive_release_rho), then both branches' outputs from it: Gauss
// (A_1 averaged with a second half, eigenvalues clamped to [0, 1]) and Separate (A_1's
// eigenvectors, the eigenvalues of S plus N(0, sigma_1^2) clamped). Columns: the mean errors of
// the two (at rho_c), each estimate over the mean error it estimates (mean of the estimates over
// the mean error), lnS/G and sd the mean and standard deviation over runs of the log of the
// ratio of the two estimates, Sep% the share of runs whose estimates choose Separate, and `choice`:
// the mean error of the branch chosen run by run over the better branch's mean error.
//
//   build/bench/dly_estimates [runs (default 10)] [max d (default 200)] [zipf|unit (default unit)]
//   [n]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../core/linalg/blas.hpp"
#include "../core/mechanisms/dong_liang_yi.hpp"
#include "../core/postprocess/eigenvalue_clip.hpp"
#include "../core/privacy/dong_liang_yi.hpp"
#include "../core/random/normal.hpp"
#include "../core/random/symmetric_noise.hpp"
#include "dly_synthetic.hpp"

using namespace dpcov;

namespace {

Matrix plus_noise(const Matrix &s, double sigma, random::Rng &rng) {
  Matrix noise(s.rows(), s.cols());
  random::symmetric_gaussian_noise(rng, sigma, noise);
  for (int64_t j = 0; j < s.cols(); ++j)
    for (int64_t i = 0; i < s.rows(); ++i) noise(i, j) += s(i, j);
  return noise;
}

// Separate's output: the eigenvectors of `first` with the eigenvalues of s plus N(0, sigma^2),
// clamped to [0, 1], paired in ascending order.
Matrix separate_output(const Matrix &s, const Matrix &first, double sigma, random::Rng &rng) {
  const linalg::SymmetricEigen e = linalg::eigh(first);
  std::vector<double> values = linalg::eigvalsh(s);
  for (double &v : values) v = std::clamp(v + sigma * random::standard_normal(rng), 0.0, 1.0);
  const int64_t d = s.rows();
  Matrix scaled = e.vectors;
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i < d; ++i) scaled(i, j) *= values[static_cast<size_t>(j)];
  return linalg::multiply(scaled, e.vectors, linalg::Trans::No, linalg::Trans::Yes);
}

}  // namespace

int main(int argc, char **argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 10;
  const int64_t max_d = argc > 2 ? std::atoll(argv[2]) : 200;
  const bool unit = !(argc > 3 && std::string(argv[3]) == "zipf");
  const int64_t only_n = argc > 4 ? std::atoll(argv[4]) : 0;
  const double rho = 0.1;
  const double rho_c = privacy::dly_adaptive_release_rho(rho, privacy::dly_adaptive_split(false));
  std::printf("Adaptive's branch estimates, rho = 0.1, r = 1, radius r, %d runs, %s\n", runs,
              unit ? "rows of norm 1 (Fig. 1)" : "Zipf row norms (Fig. 2)");
  std::printf("%6s %5s %9s %9s %7s %7s %7s %7s %5s %7s\n", "n", "d", "Gauss", "Separate", "G/err",
              "S/err", "lnS/G", "sd", "Sep%", "choice");
  const std::vector<int64_t> ns =
      only_n > 0 ? std::vector<int64_t>{only_n} : std::vector<int64_t>{1000, 4000, 16000};
  for (int64_t n : ns)
    for (int64_t d : {10, 20, 30, 50, 70, 100, 200, 400, 800}) {
      if (d > max_d) continue;
      random::Rng data_rng = random::Rng::from_seed(11, static_cast<uint64_t>(n * 10000 + d));
      random::Rng noise_rng = random::Rng::from_seed(12, static_cast<uint64_t>(n * 10000 + d));
      const double sigma = privacy::dly_gauss_sigma(0.5 * rho_c, 1.0, n);
      double gauss = 0, separate = 0, gauss_estimate = 0, separate_estimate = 0, chosen = 0;
      double log_ratio = 0, log_ratio2 = 0;  // of the two estimates, run by run
      int separate_chosen = 0;
      for (int run = 0; run < runs; ++run) {
        const Matrix x = unit ? bench::unit_rows(n, d, data_rng) : bench::zipf_rows(n, d, data_rng);
        const Matrix s = bench::second_moment(x);
        double trace = 0.0;
        for (int64_t i = 0; i < d; ++i) trace += s(i, i);
        mechanisms::DlyRequest request;
        request.dim = d;
        request.n = n;
        request.rho = rho;
        const Matrix first = plus_noise(s, sigma, noise_rng);
        const mechanisms::DlyBranchErrors e = mechanisms::dly_branch_errors(
            first, sigma, 1.0, mechanisms::dly_separate_bound(request, rho_c, trace, 1.0));
        Matrix average = plus_noise(s, sigma, noise_rng);
        for (int64_t j = 0; j < d; ++j)
          for (int64_t i = 0; i < d; ++i) average(i, j) = 0.5 * (average(i, j) + first(i, j));
        const double g =
            bench::frobenius_distance(s, postprocess::clip_eigenvalues(average, 0.0, 1.0));
        const double p = bench::frobenius_distance(s, separate_output(s, first, sigma, noise_rng));
        gauss += g / runs;
        separate += p / runs;
        gauss_estimate += e.gauss * e.unit / runs;
        separate_estimate += e.separate * e.unit / runs;
        const double l = std::log(e.separate / e.gauss);
        log_ratio += l / runs;
        log_ratio2 += l * l / runs;
        const bool take_separate = e.separate < e.gauss;
        separate_chosen += take_separate;
        chosen += (take_separate ? p : g) / runs;
      }
      std::printf("%6lld %5lld %9.5f %9.5f %7.3f %7.3f %7.3f %7.3f %5.0f %7.3f\n",
                  static_cast<long long>(n), static_cast<long long>(d), gauss, separate,
                  gauss_estimate / gauss, separate_estimate / separate, log_ratio,
                  std::sqrt(std::max(log_ratio2 - log_ratio * log_ratio, 0.0)),
                  100.0 * separate_chosen / runs, chosen / std::min(gauss, separate));
      std::fflush(stdout);
    }
  return 0;
}
