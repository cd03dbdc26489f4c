#include "embedded_datasets.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>

#include "../core/linalg/blas.hpp"

namespace dpcov::bench {

namespace {

const char *const kSklearnData = "/usr/lib/python3/dist-packages/sklearn/datasets/data";

Dataset with_bounds_file(const std::string &name, const std::string &data,
                         const std::string &bounds, const std::string &note) {
  std::ifstream in(bounds);
  std::string line;
  std::getline(in, line);
  std::vector<double> lo, hi;
  while (std::getline(in, line)) {
    std::stringstream f(line);
    std::string name_field, a, c;
    std::getline(f, name_field, ',');
    std::getline(f, a, ',');
    std::getline(f, c, ',');
    lo.push_back(std::stod(a));
    hi.push_back(std::stod(c));
  }
  return {name, scale_rows(read_csv(data, 1, static_cast<int>(lo.size())), lo, hi), note};
}

Dataset with_data_range(const std::string &name, const std::string &path, int skip, int cols,
                        const std::string &note) {
  const auto raw = read_csv(path, skip, cols);
  std::vector<double> lo(cols, std::numeric_limits<double>::infinity());
  std::vector<double> hi(cols, -std::numeric_limits<double>::infinity());
  for (const auto &r : raw)
    for (int j = 0; j < cols; ++j) {
      lo[j] = std::min(lo[j], r[j]);
      hi[j] = std::max(hi[j], r[j]);
    }
  return {name, scale_rows(raw, lo, hi), note};
}

}  // namespace

std::vector<std::vector<double>> read_csv(const std::string &path, int skip, int cols) {
  std::string text;
  if (path.size() > 3 && path.substr(path.size() - 3) == ".gz") {
    std::unique_ptr<FILE, int (*)(FILE *)> pipe(popen(("gzip -dc '" + path + "'").c_str(), "r"),
                                                pclose);
    if (!pipe) return {};
    char buffer[65536];
    size_t got;
    while ((got = std::fread(buffer, 1, sizeof buffer, pipe.get())) > 0) text.append(buffer, got);
  } else {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    text = s.str();
  }
  std::vector<std::vector<double>> out;
  std::stringstream lines(text);
  std::string line;
  for (int i = 0; i < skip; ++i) std::getline(lines, line);
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    std::stringstream fields(line);
    std::string field;
    std::vector<double> row;
    for (int j = 0; j < cols && std::getline(fields, field, ','); ++j) row.push_back(std::stod(field));
    if (static_cast<int>(row.size()) == cols) out.push_back(row);
  }
  return out;
}

Matrix scale_rows(const std::vector<std::vector<double>> &raw, const std::vector<double> &lo,
                  const std::vector<double> &hi) {
  const int64_t n = static_cast<int64_t>(raw.size());
  const int64_t d = static_cast<int64_t>(lo.size());
  Matrix x(n, d);
  const double row_scale = 1.0 / std::sqrt(static_cast<double>(d));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < d; ++j) {
      const double width = hi[j] - lo[j];
      const double u = width > 0 ? 2.0 * (raw[i][j] - lo[j]) / width - 1.0 : 0.0;
      x(i, j) = std::clamp(u, -1.0, 1.0) * row_scale;
    }
  return x;
}

std::vector<double> parse_doubles(const std::string &list) {
  std::vector<double> out;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(std::stod(item));
  return out;
}

Matrix gram_of(const Matrix &x) {
  const int64_t d = x.cols();
  Matrix g(d, d);
  linalg::syrk_upper(x.view(), 0.0, g.data(), d);
  linalg::symmetrize_from_upper(g);
  return g;
}

std::vector<Dataset> embedded_datasets(const std::string &root) {
  const std::string sk = kSklearnData;
  std::vector<Dataset> datasets;
  datasets.push_back(with_bounds_file("wine", root + "/data/wine.csv", root + "/data/wine_bounds.csv",
                                      "UCI Wine, 13 columns, published ranges"));
  datasets.push_back(with_bounds_file("diabetes", root + "/data/diabetes.csv",
                                      root + "/data/diabetes_bounds.csv",
                                      "Efron et al. diabetes, 11 columns (progression included), "
                                      "data/diabetes_bounds.csv"));
  datasets.push_back(with_data_range("breast_cancer", sk + "/breast_cancer.csv", 1, 30,
                                     "sklearn breast_cancer, 30 columns, ranges from the data "
                                     "(utility comparison only: not a private choice)"));
  {
    const auto raw = read_csv(sk + "/digits.csv.gz", 0, 64);
    datasets.push_back({"digits", scale_rows(raw, std::vector<double>(64, 0.0),
                                             std::vector<double>(64, 16.0)),
                        "sklearn digits, 64 pixels in 0..16"});
  }
  return datasets;
}

}  // namespace dpcov::bench
