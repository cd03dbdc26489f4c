// Normalised Frobenius error ||C_hat - C||_F / ||C||_F against epsilon on the UCI Wine data, the
// comparison of Amin et al. (NeurIPS 2019, Sec. 4, Fig. 1): IEV with the uniform and the adaptive
// split, the Kapralov-Talwar rank-one baseline, symmetric Laplace and Analyze Gauss (delta = 1e-3).
// Every release has its spectrum clipped to [0, n B^2], as in the paper.
//
// Usage: wine_utility <path to data/wine.csv> [repeats (default 20)]
// Prints one Markdown table row per (mechanism, epsilon): mean and sample standard deviation.
//
// Scaling: each column is mapped to [-1, 1] by the public ranges of data/README.md (never by the
// data), then each row is divided by sqrt(13), so every row has norm <= 1 = B.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

constexpr int kColumns = 13;
// The published column ranges (data/README.md), used as public bounds.
constexpr double kMin[kColumns] = {11.0, 0.74, 1.36, 10.6, 70.0, 0.98, 0.34,
                                   0.13, 0.41, 1.3,  0.48, 1.27, 278.0};
constexpr double kMax[kColumns] = {14.8, 5.80, 3.23, 30.0, 162.0, 3.88, 5.08,
                                   0.66, 3.58, 13.0, 1.71, 4.00, 1680.0};

void check(dpcov_status status, const char *what) {
  if (status != DPCOV_OK) {
    std::fprintf(stderr, "%s: %s (%s)\n", what, dpcov_status_string(status),
                 dpcov_last_error_message());
    std::exit(1);
  }
}

std::vector<double> read_rows(const char *path, int64_t &rows) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", path);
    std::exit(1);
  }
  std::string line;
  std::getline(in, line);  // header
  std::vector<double> data;
  rows = 0;
  const double row_scale = 1.0 / std::sqrt(static_cast<double>(kColumns));
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::stringstream fields(line);
    std::string field;
    for (int j = 0; j < kColumns; ++j) {
      std::getline(fields, field, ',');
      const double x = std::stod(field);
      data.push_back((2.0 * (x - kMin[j]) / (kMax[j] - kMin[j]) - 1.0) * row_scale);
    }
    ++rows;
  }
  return data;
}

struct Method {
  const char *name;
  int32_t mechanism;
  int32_t split;
  double delta;
};

double frobenius(const std::vector<double> &a, const std::vector<double> &b) {
  double s = 0.0;
  for (size_t i = 0; i < a.size(); ++i) s += (a[i] - b[i]) * (a[i] - b[i]);
  return std::sqrt(s);
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <wine.csv> [repeats]\n", argv[0]);
    return 2;
  }
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 20;
  int64_t n = 0;
  const std::vector<double> rows = read_rows(argv[1], n);
  const int64_t d = kColumns;
  const double bound = 1.0;

  dpcov_gram *gram = nullptr;
  check(dpcov_gram_create(&gram, d), "gram_create");
  check(dpcov_gram_add_rows(gram, DPCOV_ROW_MAJOR, n, d, rows.data(), d, bound, DPCOV_BOUND_REJECT),
        "gram_add_rows");
  std::vector<double> c(static_cast<size_t>(d * d));
  check(dpcov_gram_get_matrix(gram, DPCOV_COL_MAJOR, c.data(), d), "gram_get_matrix");
  const std::vector<double> zero(c.size(), 0.0);
  const double norm_c = frobenius(c, zero);

  const Method methods[] = {
      {"IEV uniform", DPCOV_MECHANISM_IEV, DPCOV_BUDGET_SPLIT_UNIFORM, 0.0},
      {"IEV adaptive", DPCOV_MECHANISM_IEV, DPCOV_BUDGET_SPLIT_ADAPTIVE, 0.0},
      {"KT rank-one", DPCOV_MECHANISM_KT_RANK1, DPCOV_BUDGET_SPLIT_UNIFORM, 0.0},
      {"Laplace (sym.)", DPCOV_MECHANISM_LAPLACE_SYM, DPCOV_BUDGET_SPLIT_DEFAULT, 0.0},
      {"Analyze Gauss d=1e-3", DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_BUDGET_SPLIT_DEFAULT, 1e-3},
  };
  const double epsilons[] = {0.1, 0.5, 1.0, 2.0};
  std::printf("Wine: n = %lld, d = %lld, B = 1, %d repeats, spectrum clipped to [0, n]\n\n",
              static_cast<long long>(n), static_cast<long long>(d), repeats);
  std::printf("| mechanism | eps = 0.1 | eps = 0.5 | eps = 1 | eps = 2 |\n|---|---|---|---|---|\n");
  for (const Method &m : methods) {
    std::printf("| %s |", m.name);
    for (double eps : epsilons) {
      double sum = 0.0, sum2 = 0.0;
      for (int r = 0; r < repeats; ++r) {
        dpcov_rng *rng = nullptr;
        check(dpcov_rng_create_seeded(&rng, 20261122, static_cast<uint64_t>(r)), "rng");
        dpcov_mechanism_params params;
        check(dpcov_mechanism_params_default(&params), "params");
        params.budget_split = m.split;
        dpcov_receipt receipt;
        receipt.struct_size = sizeof receipt;
        std::vector<double> out(c.size());
        check(dpcov_mechanism_release(m.mechanism, DPCOV_COL_MAJOR, d, c.data(), d, n, bound, eps,
                                      m.delta, &params, rng, out.data(), d, &receipt),
              m.name);
        check(dpcov_postprocess_eigenvalues_clip(DPCOV_COL_MAJOR, d, out.data(), d, 0.0,
                                                 static_cast<double>(n) * bound * bound),
              "clip");
        dpcov_rng_destroy(&rng);
        const double e = frobenius(out, c) / norm_c;
        sum += e;
        sum2 += e * e;
      }
      const double mean = sum / repeats;
      const double sd = std::sqrt(std::max(0.0, (sum2 - repeats * mean * mean) / (repeats - 1)));
      std::printf(" %.3f ± %.3f |", mean, sd);
    }
    std::printf("\n");
  }
  dpcov_gram_destroy(&gram);
  return 0;
}
