#include "zcdp_rho_cache.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <mutex>

#include "zcdp.hpp"

namespace dpcov::privacy {

namespace {

struct Entry {
  uint64_t epsilon_bits = 0;
  uint64_t delta_bits = 0;
  double rho = 0.0;
  bool used = false;
};

// A handful of budgets, replaced round robin: the memo never grows, whatever the callers ask.
constexpr size_t kEntries = 16;

struct Memo {
  std::mutex mutex;
  std::array<Entry, kEntries> entries{};
  size_t next = 0;
};

Memo &memo() {
  static Memo m;
  return m;
}

}  // namespace

double zcdp_rho_for_epsilon_cached(double epsilon, double delta) {
  const uint64_t e = std::bit_cast<uint64_t>(epsilon), d = std::bit_cast<uint64_t>(delta);
  Memo &m = memo();
  {
    const std::lock_guard<std::mutex> lock(m.mutex);
    for (const Entry &entry : m.entries)
      if (entry.used && entry.epsilon_bits == e && entry.delta_bits == d) return entry.rho;
  }
  const double rho = zcdp_rho_for_epsilon(epsilon, delta);  // throws on invalid input
  const std::lock_guard<std::mutex> lock(m.mutex);
  m.entries[m.next] = Entry{e, d, rho, true};
  m.next = (m.next + 1) % kEntries;
  return rho;
}

}  // namespace dpcov::privacy
