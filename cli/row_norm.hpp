// The Euclidean norm of one input row for the CLI's own use (clipping the constant column's rows,
// messages naming a row over --bound), computed without over- or underflow: a finite row whose
// norm is above the largest double still has a finite, correct magnitude to print.
#pragma once

#include <cstdint>
#include <string>

namespace dpcov::cli {

// ||x|| as largest * rest: the plain sum of squares (largest 1), or, when that over- or
// underflows, the sum of squares of x / max|x_j| with largest = max|x_j|, so that a finite row
// whose norm is above the largest double still has one (non-finite entries give NaN or infinity:
// the library then refuses the row, naming it).
struct RowNorm {
  double largest = 1.0;
  double rest = 0.0;
  double value() const { return largest * rest; }  // +infinity above the largest double
};

RowNorm row_norm(const double *x, int64_t dim);

// The norm as text for a message: the shortest decimal of value() when it is finite; above the
// largest double, "about " and its decimal value to 6 significant digits, saying so (e.g. "about
// 2.12132e+308 (above the largest double)"), from largest and rest, which are finite.
std::string norm_text(const RowNorm &norm);

}  // namespace dpcov::cli
