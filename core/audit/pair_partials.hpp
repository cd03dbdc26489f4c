// The sums of a row mechanism's passes (mechanisms/row_pass.hpp) over the two fixed row sets of an
// audit's pair, each formed once. A pass's sums are a function of the rows and of the pass alone
// (no generator), so a release that takes them from here draws exactly what dly_release() or
// coinpress_release() draw on the same rows with the same generator, byte for byte, at O(d^3) per
// draw instead of the O(n d^2) of summing the n rows again: what lets an audit afford tens of
// thousands of draws on pairs of 10^4 rows (rows_exact_audit.hpp).
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "../matrix.hpp"
#include "../mechanisms/row_pass.hpp"

namespace dpcov::audit {

class PairPartials {
 public:
  // `x` and `x_prime` must outlive the object; the releases pass views of them to sums().
  PairPartials(const Matrix &x, const Matrix &x_prime) : rows_{&x, &x_prime} {}

  // The partial of `pass` over `rows` (add_rows() of one row_partial()): formed once for a view
  // of either row set of the pair (identified by its data), formed each time for any other rows.
  mechanisms::RowPartial sums(ConstMatrixView rows, const mechanisms::RowPass &pass);

 private:
  const Matrix *rows_[2];
  std::vector<std::pair<int, mechanisms::RowPartial>> formed_;
};

using SharedPairPartials = std::shared_ptr<PairPartials>;

}  // namespace dpcov::audit
