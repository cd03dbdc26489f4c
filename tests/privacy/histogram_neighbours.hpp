// Neighbours of a histogram of row norms over the private bound's grid: the datasets one row away
// enter the private bound only through histograms that differ by a row added to or removed from a
// cell (add/remove) or moved from one cell to another (replace-one).
#pragma once

#include <cstdint>
#include <vector>

namespace dpcov::audit_support {

using Histogram = std::vector<uint64_t>;

// Every histogram one row away from h under the relations asked for.
inline std::vector<Histogram> histogram_neighbours(const Histogram &h, bool add_remove,
                                                   bool replace) {
  std::vector<Histogram> out;
  for (size_t i = 0; i < h.size(); ++i) {
    if (add_remove) {
      Histogram added = h;
      ++added[i];
      out.push_back(added);
    }
    if (h[i] == 0) continue;
    Histogram removed = h;
    --removed[i];
    if (add_remove) out.push_back(removed);
    for (size_t j = 0; replace && j < h.size(); ++j) {
      if (j == i) continue;
      Histogram moved = removed;
      ++moved[j];
      out.push_back(moved);
    }
  }
  return out;
}

}  // namespace dpcov::audit_support
