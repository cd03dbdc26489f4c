#include "pair_partials.hpp"

namespace dpcov::audit {

mechanisms::RowPartial PairPartials::sums(ConstMatrixView rows, const mechanisms::RowPass &pass) {
  int which = -1;
  for (int k = 0; k < 2; ++k) {
    const ConstMatrixView v = rows_[k]->view();
    if (rows.data == v.data && rows.rows == v.rows && rows.cols == v.cols && rows.ld == v.ld &&
        rows.layout == v.layout)
      which = k;
  }
  if (which >= 0)
    for (const auto &[k, partial] : formed_)
      if (k == which && partial.pass == pass) return partial;
  mechanisms::RowPartial partial = mechanisms::row_partial(pass);
  mechanisms::add_rows(partial, rows);
  if (which >= 0) formed_.emplace_back(which, partial);
  return partial;
}

}  // namespace dpcov::audit
