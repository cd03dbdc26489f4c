#include "mechanism_registry.hpp"

#include "../library_status.hpp"

namespace dpcov::cli {

std::vector<dpcov_mechanism_entry> registry_entries() {
  std::vector<dpcov_mechanism_entry> entries;
  for (int32_t i = 0; i < dpcov_mechanism_count(); ++i) {
    dpcov_mechanism_entry entry{};
    entry.struct_size = sizeof entry;
    library_check(dpcov_mechanism_info(i, &entry), "mechanism registry");
    entries.push_back(entry);
  }
  return entries;
}

dpcov_mechanism_entry registry_entry(int32_t id) {
  dpcov_mechanism_entry entry{};
  entry.struct_size = sizeof entry;
  library_check(dpcov_mechanism_info_by_id(id, &entry), "mechanism registry");
  return entry;
}

std::vector<std::pair<std::string, int32_t>> gram_mechanisms() {
  std::vector<std::pair<std::string, int32_t>> found;
  for (const dpcov_mechanism_entry &entry : registry_entries())
    if (entry.family == DPCOV_MECHANISM_FAMILY_GRAM) found.emplace_back(entry.name, entry.id);
  return found;
}

std::optional<int32_t> gram_mechanism_id(const std::string &name) {
  for (const auto &[gram_name, id] : gram_mechanisms())
    if (gram_name == name) return id;
  return std::nullopt;
}

namespace {

// The names of the entries that satisfy `keep`: "a, b and c".
template <class Keep>
std::string names_where(Keep keep) {
  std::vector<std::string> names;
  for (const dpcov_mechanism_entry &entry : registry_entries())
    if (keep(entry)) names.emplace_back(entry.name);
  std::string out;
  for (size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return out;
}

}  // namespace

namespace {

bool robust_gram(const dpcov_mechanism_entry &entry) {
  return (entry.inference & DPCOV_MECHANISM_INFERENCE_ROBUST_GRAM) != 0;
}

}  // namespace

std::optional<int32_t> robust_gram_mechanism_id(const std::string &name) {
  for (const dpcov_mechanism_entry &entry : registry_entries())
    if (robust_gram(entry) && name == entry.name) return entry.id;
  return std::nullopt;
}

std::string robust_gram_mechanism_names() { return names_where(robust_gram); }

std::string exact_mechanism_names() {
  return names_where([](const dpcov_mechanism_entry &entry) {
    return (entry.numerics & DPCOV_MECHANISM_NUMERICS_EXACT) != 0;
  });
}

bool has_exact_numerics(const std::string &name) {
  for (const dpcov_mechanism_entry &entry : registry_entries())
    if (name == entry.name) return (entry.numerics & DPCOV_MECHANISM_NUMERICS_EXACT) != 0;
  return false;
}

bool not_private(int32_t id) {
  return registry_entry(id).privacy_model == DPCOV_MECHANISM_PRIVACY_NOT_PRIVATE;
}

bool reads_option(int32_t id, int32_t option) {
  return (registry_entry(id).options & option) != 0;
}

std::string names_reading(int32_t option) {
  return names_where([option](const dpcov_mechanism_entry &entry) {
    return (entry.options & option) != 0 && command_line_runs(entry);
  });
}

bool command_line_runs(const dpcov_mechanism_entry &entry) {
  return entry.family == DPCOV_MECHANISM_FAMILY_GRAM &&
         !(entry.options & DPCOV_MECHANISM_OPTION_GLASSO_RHO);
}

}  // namespace dpcov::cli
