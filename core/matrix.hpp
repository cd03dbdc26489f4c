// Dense matrices: an owning column-major Matrix and non-owning views in either layout.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dpcov {

// The values equal LAPACKE's (and the C ABI's DPCOV_ROW_MAJOR / DPCOV_COL_MAJOR, pinned in capi/).
enum class Layout : int32_t { RowMajor = 101, ColMajor = 102 };

// Read-only view of a rows x cols matrix stored with leading dimension ld.
struct ConstMatrixView {
  const double *data = nullptr;
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t ld = 0;
  Layout layout = Layout::ColMajor;

  double operator()(int64_t i, int64_t j) const {
    return layout == Layout::ColMajor ? data[i + j * ld] : data[i * ld + j];
  }
  // Distance between consecutive elements of one row, and between consecutive rows.
  int64_t row_stride() const { return layout == Layout::ColMajor ? 1 : ld; }
  int64_t col_stride() const { return layout == Layout::ColMajor ? ld : 1; }
  const double *row(int64_t i) const { return data + i * row_stride(); }
  // The view of rows [first, first + count).
  ConstMatrixView row_block(int64_t first, int64_t count) const {
    return {data + first * row_stride(), count, cols, ld, layout};
  }
};

// Writable view, same conventions as ConstMatrixView.
struct MatrixView {
  double *data = nullptr;
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t ld = 0;
  Layout layout = Layout::ColMajor;

  double &operator()(int64_t i, int64_t j) const {
    return layout == Layout::ColMajor ? data[i + j * ld] : data[i * ld + j];
  }
  operator ConstMatrixView() const { return {data, rows, cols, ld, layout}; }
};

// Owning column-major matrix with leading dimension equal to its row count.
class Matrix {
 public:
  Matrix() = default;
  Matrix(int64_t rows, int64_t cols, double fill = 0.0)
      : rows_(rows), cols_(cols), data_(static_cast<size_t>(rows * cols), fill) {}

  static Matrix identity(int64_t n) {
    Matrix m(n, n);
    for (int64_t i = 0; i < n; ++i) m(i, i) = 1.0;
    return m;
  }
  // Copies any view into a new column-major matrix.
  static Matrix from(ConstMatrixView v) {
    Matrix m(v.rows, v.cols);
    for (int64_t j = 0; j < v.cols; ++j)
      for (int64_t i = 0; i < v.rows; ++i) m(i, j) = v(i, j);
    return m;
  }

  int64_t rows() const { return rows_; }
  int64_t cols() const { return cols_; }
  double *data() { return data_.data(); }
  const double *data() const { return data_.data(); }
  double &operator()(int64_t i, int64_t j) { return data_[static_cast<size_t>(i + j * rows_)]; }
  double operator()(int64_t i, int64_t j) const {
    return data_[static_cast<size_t>(i + j * rows_)];
  }

  MatrixView view() { return {data_.data(), rows_, cols_, rows_, Layout::ColMajor}; }
  ConstMatrixView view() const { return {data_.data(), rows_, cols_, rows_, Layout::ColMajor}; }

 private:
  int64_t rows_ = 0;
  int64_t cols_ = 0;
  std::vector<double> data_;
};

// Writes a symmetric matrix, given by its upper triangle in `upper`, in full into `out`, so that
// out(i, j) and out(j, i) are the same double.
inline void write_symmetric_from_upper(const Matrix &upper, MatrixView out) {
  for (int64_t j = 0; j < upper.cols(); ++j)
    for (int64_t i = 0; i <= j; ++i) {
      out(i, j) = upper(i, j);
      out(j, i) = upper(i, j);
    }
}

}  // namespace dpcov
