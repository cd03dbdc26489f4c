#include "unit_spill.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <numeric>
#include <queue>
#include <utility>

#include "../cli_error.hpp"

namespace dpcov::cli {

namespace {

// splitmix64's finaliser: ids that are consecutive or share low bits spread over the files.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15u;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
  return x ^ (x >> 31);
}

// Rows delivered per batch: whole units, cut before the unit that follows this many rows.
constexpr size_t kBatchRows = 65536;

}  // namespace

int64_t spill_partitions(std::optional<uint64_t> input_bytes) {
  if (!input_bytes) return 256;
  constexpr uint64_t kPerFile = uint64_t{64} << 20;
  return static_cast<int64_t>(std::clamp<uint64_t>(*input_bytes / kPerFile + 1, 16, 1024));
}

UnitSpill::UnitSpill(int64_t cols, int64_t partitions)
    : cols_(cols), record_(static_cast<size_t>(cols + 2) * sizeof(double)) {
  const char *tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") +
                        "/dpcov-units-XXXXXX";
  // mkdtemp makes the directory with mode 0700: the raw rows spilled there stay the curator's.
  if (mkdtemp(pattern.data()) == nullptr)
    fail(kExitIo, "cannot make a private temporary directory for grouping privacy units (",
         pattern, "): ", std::strerror(errno));
  dir_ = pattern;
  try {
    for (int64_t p = 0; p < partitions; ++p) {
      paths_.push_back(concat(dir_, "/", p));
      std::FILE *f = std::fopen(paths_.back().c_str(), "w+b");
      if (f == nullptr)
        fail(kExitIo, "cannot make spill file ", paths_.back(), ": ", std::strerror(errno));
      files_.push_back(f);
    }
  } catch (...) {
    remove_all();
    throw;
  }
}

UnitSpill::~UnitSpill() { remove_all(); }

void UnitSpill::remove_all() noexcept {
  for (std::FILE *f : files_)
    if (f != nullptr) std::fclose(f);
  files_.clear();
  for (const std::string &path : paths_) std::remove(path.c_str());
  paths_.clear();
  if (!dir_.empty()) rmdir(dir_.c_str());
  dir_.clear();
}

void UnitSpill::add(const int64_t *ids, const double *rows, int64_t count) {
  const size_t row_bytes = static_cast<size_t>(cols_) * sizeof(double);
  for (int64_t i = 0; i < count; ++i) {
    const int64_t position = rows_ + i;
    std::memcpy(record_.data(), &ids[i], sizeof(int64_t));
    std::memcpy(record_.data() + sizeof(int64_t), &position, sizeof(int64_t));
    std::memcpy(record_.data() + 2 * sizeof(int64_t), rows + i * cols_, row_bytes);
    const size_t p = mix(static_cast<uint64_t>(ids[i])) % files_.size();
    if (std::fwrite(record_.data(), record_.size(), 1, files_[p]) != 1)
      fail(kExitIo, "cannot write spill file ", paths_[p], ": ", std::strerror(errno));
  }
  rows_ += count;
}

// Reads spill file p back whole and writes it again as a run: records (key, row), where the key
// is the input position of the first row of the row's unit, units in increasing order of key and
// each unit's rows in input order. The rows of a file were written in input order, so a stable
// sort by id puts each unit's first row first.
void UnitSpill::sort_run(size_t p) {
  std::FILE *f = files_[p];
  const long size = std::ftell(f);
  if (size < 0 || std::fseek(f, 0, SEEK_SET) != 0)
    fail(kExitIo, "cannot rewind spill file ", paths_[p], ": ", std::strerror(errno));
  std::vector<char> bytes(static_cast<size_t>(size));
  if (size > 0 && std::fread(bytes.data(), bytes.size(), 1, f) != 1)
    fail(kExitIo, "cannot read spill file ", paths_[p], ": ", std::strerror(errno));
  std::fclose(f);
  files_[p] = nullptr;
  const size_t count = bytes.size() / record_.size();
  std::vector<int64_t> ids(count), order(count);
  for (size_t i = 0; i < count; ++i)
    std::memcpy(&ids[i], bytes.data() + i * record_.size(), sizeof(int64_t));
  std::iota(order.begin(), order.end(), int64_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return ids[a] < ids[b]; });
  // Each unit as (key, its first and end index in `order`), then the units by key.
  struct Unit {
    int64_t key;
    size_t first, end;
  };
  std::vector<Unit> units;
  for (size_t i = 0; i < count; ++i) {
    const auto r = static_cast<size_t>(order[i]);
    if (i == 0 || ids[r] != ids[static_cast<size_t>(order[i - 1])]) {
      if (!units.empty()) units.back().end = i;
      int64_t key = 0;
      std::memcpy(&key, bytes.data() + r * record_.size() + sizeof(int64_t), sizeof(int64_t));
      units.push_back({key, i, count});
    }
  }
  std::sort(units.begin(), units.end(), [](const Unit &a, const Unit &b) { return a.key < b.key; });
  f = std::fopen(paths_[p].c_str(), "w+b");
  if (f == nullptr)
    fail(kExitIo, "cannot rewrite spill file ", paths_[p], ": ", std::strerror(errno));
  files_[p] = f;
  const size_t row_bytes = static_cast<size_t>(cols_) * sizeof(double);
  for (const Unit &unit : units)
    for (size_t i = unit.first; i < unit.end; ++i) {
      const char *row =
          bytes.data() + static_cast<size_t>(order[i]) * record_.size() + 2 * sizeof(int64_t);
      if (std::fwrite(&unit.key, sizeof(int64_t), 1, f) != 1 ||
          (row_bytes > 0 && std::fwrite(row, row_bytes, 1, f) != 1))
        fail(kExitIo, "cannot write spill file ", paths_[p], ": ", std::strerror(errno));
    }
  if (std::fflush(f) != 0 || std::fseek(f, 0, SEEK_SET) != 0)
    fail(kExitIo, "cannot rewind spill file ", paths_[p], ": ", std::strerror(errno));
}

// Merges the sorted runs unit by unit, smallest key first: a unit lies in one run, so taking the
// run whose next unit has the smallest key delivers the units in order of their first row.
void UnitSpill::merge_runs(const Emit &emit) {
  const size_t run_record = static_cast<size_t>(cols_ + 1) * sizeof(double);
  std::vector<std::vector<char>> heads(files_.size(), std::vector<char>(run_record));
  const auto read_head = [&](size_t p) {
    if (std::fread(heads[p].data(), run_record, 1, files_[p]) == 1) return true;
    if (std::ferror(files_[p]))
      fail(kExitIo, "cannot read spill file ", paths_[p], ": ", std::strerror(errno));
    return false;
  };
  const auto key_of = [&](size_t p) {
    int64_t key = 0;
    std::memcpy(&key, heads[p].data(), sizeof(int64_t));
    return key;
  };
  using Next = std::pair<int64_t, size_t>;  // (key of the run's next unit, run)
  std::priority_queue<Next, std::vector<Next>, std::greater<>> next;
  for (size_t p = 0; p < files_.size(); ++p)
    if (read_head(p)) next.emplace(key_of(p), p);
  int64_t next_id = 0;
  std::vector<int64_t> out_ids;
  std::vector<double> out_rows;
  while (!next.empty()) {
    const auto [key, p] = next.top();
    next.pop();
    if (out_ids.size() >= kBatchRows) {
      emit(out_ids, out_rows);
      out_ids.clear();
      out_rows.clear();
    }
    bool more = true;
    while (more && key_of(p) == key) {
      out_ids.push_back(next_id);
      out_rows.resize(out_rows.size() + static_cast<size_t>(cols_));
      std::memcpy(out_rows.data() + out_rows.size() - static_cast<size_t>(cols_),
                  heads[p].data() + sizeof(int64_t), static_cast<size_t>(cols_) * sizeof(double));
      more = read_head(p);
    }
    ++next_id;
    if (more) next.emplace(key_of(p), p);
  }
  if (!out_ids.empty()) emit(out_ids, out_rows);
}

void UnitSpill::replay(const Emit &emit) {
  for (size_t p = 0; p < files_.size(); ++p) sort_run(p);
  merge_runs(emit);
  remove_all();
}

}  // namespace dpcov::cli
