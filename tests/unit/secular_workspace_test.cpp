// A workspace shared by a sequence of secular decompositions: the same bits as a fresh one for
// each call, whatever sizes came before, and once it has grown no allocation beyond the result's
// own vectors (what iterative eigenvector sampling gains at every step).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <functional>
#include <memory_resource>
#include <new>
#include <random>
#include <vector>

#include "core/linalg/secular.hpp"

namespace {

// Counts operator new while counting is on; the test is single-threaded.
bool counting = false;
int64_t allocations = 0;

}  // namespace

void *operator new(std::size_t size) {
  if (counting) ++allocations;
  if (void *p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void *p) noexcept { std::free(p); }
void operator delete(void *p, std::size_t) noexcept { std::free(p); }

namespace {

using dpcov::linalg::SecularFactors;
using dpcov::linalg::SecularWorkspace;

struct Problem {
  std::vector<double> lambda, y;
};

// Decreasing eigenvalues with some exact ties (so that pairs deflate) and a unit vector with some
// zero components (so that coordinates deflate).
Problem make_problem(std::mt19937_64 &gen, int q) {
  std::normal_distribution<double> normal;
  Problem p{std::vector<double>(static_cast<size_t>(q)), std::vector<double>(static_cast<size_t>(q))};
  double norm2 = 0.0;
  for (int i = 0; i < q; ++i) {
    p.lambda[static_cast<size_t>(i)] = i % 5 == 0 ? 1.0 : normal(gen);
    p.y[static_cast<size_t>(i)] = i % 7 == 3 ? 0.0 : normal(gen);
    norm2 += p.y[static_cast<size_t>(i)] * p.y[static_cast<size_t>(i)];
  }
  std::sort(p.lambda.begin(), p.lambda.end(), std::greater<double>());
  for (double &v : p.y) v /= std::sqrt(norm2);
  return p;
}

void expect_same_bits(const SecularFactors &a, const SecularFactors &b) {
  EXPECT_EQ(a.dim, b.dim);
  EXPECT_EQ(a.values, b.values);
  EXPECT_EQ(a.y_used, b.y_used);
  EXPECT_EQ(a.poles, b.poles);
  EXPECT_EQ(a.loewner, b.loewner);
  EXPECT_EQ(a.shifts, b.shifts);
  EXPECT_EQ(a.kept, b.kept);
  EXPECT_EQ(a.origins, b.origins);
  EXPECT_EQ(a.sources, b.sources);
  ASSERT_EQ(a.rotations.size(), b.rotations.size());
  for (size_t r = 0; r < a.rotations.size(); ++r) {
    EXPECT_EQ(a.rotations[r].p, b.rotations[r].p);
    EXPECT_EQ(a.rotations[r].j, b.rotations[r].j);
    EXPECT_EQ(a.rotations[r].c, b.rotations[r].c);
    EXPECT_EQ(a.rotations[r].s, b.rotations[r].s);
  }
}

// Grows the workspace to a problem of p's size by one update.
void grow(SecularWorkspace &workspace, const Problem &p) {
  (void)dpcov::linalg::rank_one_update_factors(p.lambda, p.y.data(), -1.0, workspace);
}

TEST(SecularWorkspace, GivesTheBitsOfAFreshWorkspaceWhateverCameBefore) {
  std::mt19937_64 gen(36);
  SecularWorkspace shared;
  for (int q : {60, 7, 59, 1, 33, 80, 2}) {
    const Problem p = make_problem(gen, q);
    for (double rho : {-0.7, 2.5}) {
      expect_same_bits(dpcov::linalg::rank_one_update_factors(p.lambda, p.y.data(), rho, shared),
                       dpcov::linalg::rank_one_update_factors(p.lambda, p.y.data(), rho));
    }
  }
}

// The result holds at most nine vectors (values, y_used, poles, loewner, shifts, kept, origins,
// sources, rotations), each allocated once; everything else comes from the grown workspace.
// Without the workspace a call makes several times as many allocations, growing with q.
TEST(SecularWorkspace, OnceGrownAllocatesOnlyTheResult) {
  std::mt19937_64 gen(37);
  SecularWorkspace workspace;
  grow(workspace, make_problem(gen, 120));
  for (int q : {119, 64, 3}) {
    const Problem p = make_problem(gen, q);
    allocations = 0;
    counting = true;
    const SecularFactors r =
        dpcov::linalg::rank_one_update_factors(p.lambda, p.y.data(), -1.0, workspace);
    counting = false;
    EXPECT_LE(allocations, 9) << "q = " << q;
    EXPECT_EQ(r.values.size(), static_cast<size_t>(q));
  }
}

// Results taken from an arena (as KT takes every step's) touch the heap
// not at all once the workspace has grown, and are the same bits as results on the heap. The
// arena's upstream is the null resource, so a vector that escaped it would throw.
TEST(SecularWorkspace, ResultsFromAnArenaAllocateNothingOnTheHeap) {
  std::mt19937_64 gen(38);
  SecularWorkspace workspace;
  grow(workspace, make_problem(gen, 90));
  alignas(std::max_align_t) static std::byte block[1 << 20];
  for (int q : {89, 40, 2}) {
    const Problem p = make_problem(gen, q);
    std::pmr::monotonic_buffer_resource arena(block, sizeof block,
                                              std::pmr::null_memory_resource());
    allocations = 0;
    counting = true;
    const SecularFactors r =
        dpcov::linalg::rank_one_update_factors(p.lambda, p.y.data(), -1.0, workspace, &arena);
    counting = false;
    EXPECT_EQ(allocations, 0) << "q = " << q;
    expect_same_bits(r, dpcov::linalg::rank_one_update_factors(p.lambda, p.y.data(), -1.0));
  }
}

}  // namespace
