// The four real data sets every accuracy benchmark uses: the embedded Wine and diabetes data
// (data/, public bounds) and scikit-learn's breast_cancer and digits (the CSV files of Debian's
// python3-sklearn), every column mapped to [-1, 1] and each row divided by sqrt(d), so that every
// row has norm <= B = 1. breast_cancer's ranges come from the data: NOT a private choice, used
// for utility comparisons only.
#pragma once

#include <string>
#include <vector>

#include "../core/matrix.hpp"

namespace dpcov::bench {

struct Dataset {
  std::string name;
  Matrix rows;  // n x d, norms <= 1
  std::string note;
};

// The numeric fields of a CSV (or gzip-compressed CSV) file after `skip` lines, the first `cols`
// of each line.
std::vector<std::vector<double>> read_csv(const std::string &path, int skip, int cols);

// Maps column j to [-1, 1] by [lo_j, hi_j] (clamped) and divides each row by sqrt(d).
Matrix scale_rows(const std::vector<std::vector<double>> &raw, const std::vector<double> &lo,
                  const std::vector<double> &hi);

// The numbers of a comma-separated list ("0.5,1,4").
std::vector<double> parse_doubles(const std::string &list);

// The Gram matrix X^T X of the rows, in full.
Matrix gram_of(const Matrix &x);

// wine, diabetes, breast_cancer, digits, read from the repository at `root` and from Debian's
// scikit-learn; a data set whose file is missing comes back with no rows.
std::vector<Dataset> embedded_datasets(const std::string &root);

}  // namespace dpcov::bench
