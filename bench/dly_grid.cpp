// Dong, Liang, Yi (NeurIPS 2022), Fig. 2(b) setting (the authors' test_d.py with functions.py:
// gen_synthetic_data_fix): Frobenius error ||X^T X / n - release||_F of Gauss, Separate and Adaptive
// at rho = 0.1 zCDP, r = 1, beta = 0.1, mean over runs, on d in {10, 20, 30, 50, 70, 100, 200, 400,
// 800} and n in {1000, 4000, 16000}. Data: X = Z U (Z standard normal n x d, U uniform [0, 1] d x d),
// centred, then each row rescaled to a Zipf bucket norm (s = 3, N = 4: the first 83.1% of rows to
// norm 1/8, then 10.4% to 1/4, 3.1% to 1/2, 1.3% to 1), as the code does. A fresh dataset per run.
// Adaptive is run twice: dpcov's branch rule (bounds at the clipping radius r~) and the authors'
// code's (at r~ / 2, DlyRequest::authors_code). `ratio` is Adaptive / min(Gauss, Separate), for
// dpcov's rule; issue 18 asks for <= 1.05. Adaptive spends rho / 4 before its final release, so
// where clipping cannot help it is about 1 / sqrt(3 / 4) = 1.155 times the better branch.
//
//   build/bench/dly_grid [runs (default 50)] [max d (default 800)] [seed (default 1)]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../core/linalg/blas.hpp"
#include "../core/mechanisms/dong_liang_yi.hpp"
#include "../core/random/normal.hpp"
#include "../core/random/uniform.hpp"
#include "dly_synthetic.hpp"

using namespace dpcov;

namespace {

double frobenius_distance(const Matrix &a, const Matrix &b) {
  double sum = 0.0;
  for (int64_t j = 0; j < a.cols(); ++j)
    for (int64_t i = 0; i < a.rows(); ++i) sum += (a(i, j) - b(i, j)) * (a(i, j) - b(i, j));
  return std::sqrt(sum);
}

}  // namespace

int main(int argc, char **argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 50;
  const int64_t max_d = argc > 2 ? std::atoll(argv[2]) : 800;
  const uint64_t seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1;
  std::printf("Dong-Liang-Yi, rho = 0.1, r = 1, beta = 0.1, mean Frobenius error over %d runs\n",
              runs);
  std::printf("%6s %5s %10s %10s %10s %10s %10s %10s %8s %7s\n", "n", "d", "Gauss", "Separate",
              "Adaptive", "AdaptSep%", "Ad.code", "codeSep%", "ratio", "<=1.05");
  for (int64_t n : {1000, 4000, 16000}) {
    for (int64_t d : {10, 20, 30, 50, 70, 100, 200, 400, 800}) {
      if (d > max_d) continue;
      double err[4] = {0, 0, 0, 0};
      int separate_branch[2] = {0, 0};
      random::Rng data_rng = random::Rng::from_seed(seed, static_cast<uint64_t>(n * 10000 + d));
      random::Rng noise_rng = random::Rng::from_seed(seed + 1, static_cast<uint64_t>(n * 10000 + d));
      for (int run = 0; run < runs; ++run) {
        const Matrix x = bench::zipf_rows(n, d, data_rng);
        Matrix cov(d, d);
        linalg::syrk_upper(x.view(), 0.0, cov.data(), d);
        linalg::symmetrize_from_upper(cov);
        for (int64_t j = 0; j < d; ++j)
          for (int64_t i = 0; i < d; ++i) cov(i, j) /= static_cast<double>(n);
        mechanisms::DlyRequest request;
        request.dim = d;
        request.n = n;
        request.rho = 0.1;
        const mechanisms::DlyVariant variants[3] = {mechanisms::DlyVariant::Gauss,
                                                    mechanisms::DlyVariant::Separate,
                                                    mechanisms::DlyVariant::Adaptive};
        for (int v = 0; v < 4; ++v) {
          request.variant = variants[std::min(v, 2)];
          request.authors_code = v == 3;
          const mechanisms::DlyRelease r = mechanisms::dly_release(x.view(), request, noise_rng);
          err[v] += frobenius_distance(cov, r.covariance) / runs;
          if (v >= 2 && r.receipt.branch == static_cast<int32_t>(mechanisms::DlyVariant::Separate))
            ++separate_branch[v - 2];
        }
      }
      const double best = std::min(err[0], err[1]);
      std::printf("%6lld %5lld %10.5f %10.5f %10.5f %10.0f %10.5f %10.0f %8.3f %7s\n",
                  static_cast<long long>(n), static_cast<long long>(d), err[0], err[1], err[2],
                  100.0 * separate_branch[0] / runs, err[3], 100.0 * separate_branch[1] / runs,
                  err[2] / best, err[2] <= 1.05 * best ? "yes" : "NO");
      std::fflush(stdout);
    }
  }
  return 0;
}
