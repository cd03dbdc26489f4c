// OpenBLAS on a given number of threads for a scope: the Gram accumulator runs its panel kernel on
// as many threads as OpenBLAS is set to (docs/threading.md), so tests of its bits across thread
// counts set that number and put the previous one back.
#pragma once

#include <cblas.h>

namespace dpcov::test {

class BlasThreads {
 public:
  explicit BlasThreads(int threads) : before_(openblas_get_num_threads()) {
    openblas_set_num_threads(threads);
  }
  ~BlasThreads() { openblas_set_num_threads(before_); }
  BlasThreads(const BlasThreads &) = delete;
  BlasThreads &operator=(const BlasThreads &) = delete;

 private:
  int before_;
};

}  // namespace dpcov::test
