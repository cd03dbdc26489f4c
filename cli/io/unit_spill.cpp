#include "unit_spill.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <numeric>

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

// Rows delivered per batch: whole units, cut after the unit that reaches this many rows.
constexpr size_t kBatchRows = 65536;

}  // namespace

int64_t spill_partitions(std::optional<uint64_t> input_bytes) {
  if (!input_bytes) return 256;
  constexpr uint64_t kPerFile = uint64_t{64} << 20;
  return static_cast<int64_t>(std::clamp<uint64_t>(*input_bytes / kPerFile + 1, 16, 1024));
}

UnitSpill::UnitSpill(int64_t cols, int64_t partitions)
    : cols_(cols), record_(static_cast<size_t>(cols + 1) * sizeof(double)) {
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
    std::memcpy(record_.data(), &ids[i], sizeof(int64_t));
    std::memcpy(record_.data() + sizeof(int64_t), rows + i * cols_, row_bytes);
    const size_t p = mix(static_cast<uint64_t>(ids[i])) % files_.size();
    if (std::fwrite(record_.data(), record_.size(), 1, files_[p]) != 1)
      fail(kExitIo, "cannot write spill file ", paths_[p], ": ", std::strerror(errno));
  }
  rows_ += count;
}

void UnitSpill::replay(const Emit &emit) {
  int64_t next_id = 0;
  std::vector<char> bytes;
  std::vector<int64_t> ids, order, out_ids;
  std::vector<double> out_rows;
  for (size_t p = 0; p < files_.size(); ++p) {
    std::FILE *f = files_[p];
    const long size = std::ftell(f);
    if (size < 0 || std::fseek(f, 0, SEEK_SET) != 0)
      fail(kExitIo, "cannot rewind spill file ", paths_[p], ": ", std::strerror(errno));
    bytes.resize(static_cast<size_t>(size));
    if (size > 0 && std::fread(bytes.data(), bytes.size(), 1, f) != 1)
      fail(kExitIo, "cannot read spill file ", paths_[p], ": ", std::strerror(errno));
    std::fclose(f);
    files_[p] = nullptr;
    std::remove(paths_[p].c_str());
    const size_t count = bytes.size() / record_.size();
    ids.resize(count);
    for (size_t i = 0; i < count; ++i)
      std::memcpy(&ids[i], bytes.data() + i * record_.size(), sizeof(int64_t));
    order.resize(count);
    std::iota(order.begin(), order.end(), int64_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return ids[a] < ids[b]; });
    out_ids.clear();
    out_rows.clear();
    for (size_t i = 0; i < count; ++i) {
      const int64_t r = order[i];
      const bool new_unit = i == 0 || ids[r] != ids[order[i - 1]];
      if (new_unit && out_ids.size() >= kBatchRows) {
        emit(out_ids, out_rows);
        out_ids.clear();
        out_rows.clear();
      }
      if (new_unit) ++next_id;
      out_ids.push_back(next_id - 1);
      out_rows.resize(out_rows.size() + static_cast<size_t>(cols_));
      std::memcpy(out_rows.data() + out_rows.size() - static_cast<size_t>(cols_),
                  bytes.data() + static_cast<size_t>(r) * record_.size() + sizeof(int64_t),
                  static_cast<size_t>(cols_) * sizeof(double));
    }
    if (!out_ids.empty()) emit(out_ids, out_rows);
  }
  remove_all();
}

}  // namespace dpcov::cli
