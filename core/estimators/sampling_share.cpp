#include "sampling_share.hpp"

#include <algorithm>
#include <limits>

#include "../error.hpp"

namespace dpcov::estimators {

std::vector<double> sampling_shares(const std::vector<std::vector<double>> &pooled,
                                    const std::vector<posterior::ReleaseScore> &scores,
                                    const posterior::GramCoordinates &coords, int64_t chains) {
  const size_t m = pooled.front().size();
  if (chains < 2 || m == 0 || m % static_cast<size_t>(chains) != 0 || scores.size() != m)
    fail(Status::InvalidArgument, "the sampling share needs draws in >= 2 chains of equal length");
  const size_t c_count = static_cast<size_t>(chains), length = m / c_count;
  const size_t b = coords.entries.size(), k = pooled.size() + 1, q = b + k;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const posterior::ReleaseScore &sc : scores)
    if (sc.score.size() != q) return std::vector<double>(pooled.size(), nan);
  // Cov(x): the released noise's law on the free entries of X'X~ and, on (X'y~, y'y~), the law of
  // posterior::statistics_law averaged over the draws.
  std::vector<double> score_mean(q, 0.0);
  Matrix statistics_cov(static_cast<int64_t>(k), static_cast<int64_t>(k));
  for (const posterior::ReleaseScore &sc : scores) {
    for (size_t i = 0; i < q; ++i) score_mean[i] += sc.score[i] / static_cast<double>(m);
    for (int64_t j = 0; j < statistics_cov.cols(); ++j)
      for (int64_t i = 0; i < statistics_cov.rows(); ++i)
        statistics_cov(i, j) += sc.statistics_cov(i, j) / static_cast<double>(m);
  }
  const auto spread = [&](const std::vector<double> &u, const std::vector<double> &v) {
    double s = 0.0;
    for (size_t i = 0; i < b; ++i) s += u[i] * v[i] * coords.scales[i] * coords.scales[i];
    for (size_t j = 0; j < k; ++j)
      for (size_t i = 0; i < k; ++i)
        s += u[b + i] * statistics_cov(static_cast<int64_t>(i), static_cast<int64_t>(j)) *
             v[b + j];
    return s;
  };
  std::vector<double> out;
  std::vector<std::vector<double>> per_chain(c_count, std::vector<double>(q));
  std::vector<double> total(q);
  for (const std::vector<double> &draws : pooled) {
    double mean = 0.0, var = 0.0;
    for (double v : draws) mean += v / static_cast<double>(m);
    for (double v : draws) var += (v - mean) * (v - mean) / static_cast<double>(m);
    // Each chain's J centred on the pooled means: chain means would shrink every chain's
    // estimate by about 1 / (its effective draws), a bias the pairs would then square.
    std::fill(total.begin(), total.end(), 0.0);
    for (size_t c = 0; c < c_count; ++c) {
      std::fill(per_chain[c].begin(), per_chain[c].end(), 0.0);
      for (size_t t = c * length; t < (c + 1) * length; ++t) {
        const double d = (draws[t] - mean) / static_cast<double>(length);
        for (size_t i = 0; i < q; ++i) per_chain[c][i] += d * (scores[t].score[i] - score_mean[i]);
      }
      for (size_t i = 0; i < q; ++i) total[i] += per_chain[c][i];
    }
    // sum over c != c' of J_c' C J_c' = (sum_c J_c)' C (sum_c J_c) - sum_c J_c' C J_c.
    double cross = spread(total, total);
    for (size_t c = 0; c < c_count; ++c) cross -= spread(per_chain[c], per_chain[c]);
    cross /= static_cast<double>(c_count * (c_count - 1));
    // Unbiased, so negative where the true share is near 0 and the draws are few: reported as 0.
    out.push_back(var > 0.0 ? std::max(cross, 0.0) / var : nan);
  }
  return out;
}

}  // namespace dpcov::estimators
