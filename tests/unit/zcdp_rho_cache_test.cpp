// The memo of zcdp_rho_for_epsilon (core/privacy/zcdp_rho_cache.hpp): the same doubles as the
// search, hit or miss, evicted or not, from any thread; failures are not remembered.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "core/privacy/zcdp.hpp"
#include "core/privacy/zcdp_rho_cache.hpp"

namespace dpcov::privacy {
namespace {

struct Budget {
  double epsilon, delta;
};

std::vector<Budget> budgets(int count) {
  std::vector<Budget> out;
  for (int i = 0; i < count; ++i)
    out.push_back({0.1 * (i + 1), std::ldexp(1.0, -10 - i)});
  return out;
}

TEST(ZcdpRhoCache, ReturnsTheSearchsDoubleOnMissHitAndAfterEviction) {
  // 40 budgets, more than the memo holds, visited three times: every answer is the search's.
  const std::vector<Budget> all = budgets(40);
  for (int round = 0; round < 3; ++round)
    for (const Budget &b : all)
      EXPECT_EQ(std::bit_cast<uint64_t>(zcdp_rho_for_epsilon_cached(b.epsilon, b.delta)),
                std::bit_cast<uint64_t>(zcdp_rho_for_epsilon(b.epsilon, b.delta)))
          << b.epsilon << " " << b.delta;
}

TEST(ZcdpRhoCache, RefusesWhatTheSearchRefusesEveryTime) {
  for (int round = 0; round < 2; ++round) {
    EXPECT_THROW(zcdp_rho_for_epsilon_cached(-1.0, 1e-6), Error);
    EXPECT_THROW(zcdp_rho_for_epsilon_cached(1.0, 0.0), Error);
    EXPECT_THROW(zcdp_rho_for_epsilon_cached(NAN, 1e-6), Error);
  }
}

TEST(ZcdpRhoCache, ConcurrentCallersGetTheSearchsAnswers) {
  const std::vector<Budget> all = budgets(24);
  std::vector<uint64_t> expected;
  for (const Budget &b : all)
    expected.push_back(std::bit_cast<uint64_t>(zcdp_rho_for_epsilon(b.epsilon, b.delta)));
  std::vector<int> wrong(4, 0);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < wrong.size(); ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 3; ++round)
        for (size_t i = 0; i < all.size(); ++i) {
          const size_t k = (i + 5 * t) % all.size();  // threads start at different budgets
          const double rho = zcdp_rho_for_epsilon_cached(all[k].epsilon, all[k].delta);
          wrong[t] += std::bit_cast<uint64_t>(rho) != expected[k] ? 1 : 0;
        }
    });
  for (std::thread &th : threads) th.join();
  for (size_t t = 0; t < wrong.size(); ++t) EXPECT_EQ(wrong[t], 0) << "thread " << t;
}

}  // namespace
}  // namespace dpcov::privacy
