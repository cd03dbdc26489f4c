// Models a binding that drops the rows it cannot pass on (here: rows over the norm bound B, as a
// binding might drop rows with a missing value or out of range) before calling the library, and
// publishes the count of rows it passed (n in the receipt). Replacing one row by one that is
// dropped changes that count by one, so the published n says which of the two datasets was used,
// whatever the noise on the matrix: every release has an infinite privacy loss.
//
// Broken: the receipt carries the count of rows kept. Corrected: it carries the count of rows
// given, public under replace-one (the matrix is the same release of the kept rows, whose Gram
// matrix moves by at most B^2 when a row is dropped, within the replace-one sensitivity). The
// matrix is Analyze Gauss (replace-one, B = 1); the published count is the release's test_value,
// a point mass in the claimed law. The pair: d = 2, 10 rows, row 0 is B e_1 / 2 -> 3 B e_1.
#pragma once

#include "zoo_case.hpp"

namespace dpcov::audit::zoo {

ZooCase binding_publishes_count(Variant variant, double epsilon, double delta);

}  // namespace dpcov::audit::zoo
