// How Separate's eigenvector error grows with the spread of the spectrum (proofs/dong_liang_yi.md,
// "Branch"): for Gaussian rows N(0, s^2 D / d) clipped to norm 1, D = I ("iso") or
// D = diag(1 + 0.3 j / d) ("tilt"), s in {0.5, 1}, Separate at rho = 0.1 (sigma its Gaussian
// noise), mean over runs of W^2 / (sigma d)^2 with W^2 = ||S - (tr S / d) I||_F^2, of
// (err^2 - d sigma^2) / W^2 (the eigenvector error over W^2) and of err^2 / (sigma d)^2.
//
//   build/bench/dly_separate_spread [runs (default 10)]
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "../core/mechanisms/dong_liang_yi.hpp"
#include "../core/random/normal.hpp"
#include "dly_synthetic.hpp"

using namespace dpcov;

int main(int argc, char **argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 10;
  std::printf("%5s %6s %5s %5s %14s %16s %14s\n", "shape", "n", "d", "s", "W2/(sigma d)^2",
              "(err2-d s2)/W2", "err2/(sigma d)^2");
  for (int64_t d : {10, 30, 100, 200})
    for (int64_t n : {1000, 4000, 16000})
      for (double scale : {0.5, 1.0})
        for (int tilt = 0; tilt < 2; ++tilt) {
          random::Rng rng = random::Rng::from_seed(7, static_cast<uint64_t>(n * 1000 + d));
          double spread = 0.0, vector_share = 0.0, total = 0.0;
          for (int run = 0; run < runs; ++run) {
            Matrix x(n, d);
            for (int64_t j = 0; j < d; ++j)
              for (int64_t i = 0; i < n; ++i)
                x(i, j) = random::standard_normal(rng) * scale / std::sqrt(static_cast<double>(d)) *
                          (tilt ? 1.0 + 0.3 * static_cast<double>(j) / static_cast<double>(d) : 1.0);
            for (int64_t i = 0; i < n; ++i) {
              double sum = 0.0;
              for (int64_t j = 0; j < d; ++j) sum += x(i, j) * x(i, j);
              if (sum > 1.0)
                for (int64_t j = 0; j < d; ++j) x(i, j) /= std::sqrt(sum);
            }
            const Matrix s = bench::second_moment(x);
            double trace = 0.0, squares = 0.0;
            for (int64_t j = 0; j < d; ++j) {
              trace += s(j, j);
              for (int64_t i = 0; i < d; ++i) squares += s(i, j) * s(i, j);
            }
            const double w2 = squares - trace * trace / static_cast<double>(d);
            mechanisms::DlyRequest request;
            request.variant = mechanisms::DlyVariant::Separate;
            request.dim = d;
            request.n = n;
            request.rho = 0.1;
            const mechanisms::DlyRelease r = mechanisms::dly_release(x.view(), request, rng);
            const double err = bench::frobenius_distance(s, r.covariance);
            const double sigma = r.receipt.sigma_matrix;
            const double noise = sigma * sigma * static_cast<double>(d * d);
            spread += w2 / noise / runs;
            vector_share += (err * err - static_cast<double>(d) * sigma * sigma) / w2 / runs;
            total += err * err / noise / runs;
          }
          std::printf("%5s %6lld %5lld %5.1f %14.3f %16.3f %14.3f\n", tilt ? "tilt" : "iso",
                      static_cast<long long>(n), static_cast<long long>(d), scale, spread,
                      vector_share, total);
          std::fflush(stdout);
        }
  return 0;
}
