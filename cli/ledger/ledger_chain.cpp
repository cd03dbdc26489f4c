#include "ledger_chain.hpp"

#include <sodium.h>

#include <array>
#include <cstdio>
#include <vector>

#include "../cli_error.hpp"

namespace dpcov::cli {

namespace {

constexpr int kFormat = 2;
// The fields a seal covers; "adopted_charges" only where the ledger has it.
const char *const kSealed[] = {"format", "accounting", "epsilon_cap", "delta_cap",
                               "adopted_charges"};

// Key order and spacing are not part of what is hashed: a file re-indented, or whose keys were
// reordered by another JSON tool, keeps its links.
std::string canonical(const nlohmann::ordered_json &value) { return nlohmann::json(value).dump(); }

// 128 bits: ample to detect edits (there is no key to protect, docs/ledger-file.md), and half the
// size in a file that holds about five per charge.
constexpr size_t kDigestBytes = crypto_generichash_BYTES_MIN;
static_assert(kDigestBytes == 16);

std::string digest(const std::string &domain, const std::vector<std::string> &parts) {
  // libsodium asks for its initialisation before any other call (it is idempotent).
  static const int initialised = sodium_init();
  if (initialised < 0) fail(kExitInternal, "libsodium could not be initialised");
  crypto_generichash_state state;
  crypto_generichash_init(&state, nullptr, 0, kDigestBytes);
  // Each part ends with its NUL, which JSON text and hex never hold: no two lists of parts hash
  // the same bytes.
  const auto add = [&state](const std::string &part) {
    crypto_generichash_update(&state, reinterpret_cast<const unsigned char *>(part.c_str()),
                              part.size() + 1);
  };
  add(domain);
  for (const std::string &part : parts) add(part);
  std::array<unsigned char, kDigestBytes> out{};
  crypto_generichash_final(&state, out.data(), out.size());
  std::string hex(2 * out.size() + 1, '\0');
  sodium_bin2hex(hex.data(), hex.size(), out.data(), out.size());
  hex.pop_back();
  return hex;
}

std::string field_seal(const std::string &name, const nlohmann::ordered_json &value) {
  return digest("dpcov ledger seal", {name, canonical(value)});
}

// The link the first charge follows: the seal, which covers every sealed field.
std::string genesis(const nlohmann::ordered_json &file) {
  return digest("dpcov ledger genesis", {canonical(file.at("seal"))});
}

std::string link_of(const std::string &after, const nlohmann::ordered_json &entry) {
  nlohmann::ordered_json content = entry;
  content.erase("after");
  content.erase("link");
  return digest("dpcov ledger link", {after, canonical(content)});
}

// The head after `count` charges ending at `last` (the genesis for none): a hash, so that a file
// cut short cannot be made to verify by copying a link into it.
std::string head_of(const std::string &last, size_t count) {
  return digest("dpcov ledger head", {last, std::to_string(count)});
}

// The same at the last charge that is not pending: the entries after it may be removed by hand
// when their run died before its draw (proofs/ledger.md, "Failures").
std::string settled_of(const std::string &last, size_t count) {
  return digest("dpcov ledger settled", {last, std::to_string(count)});
}

bool pending(const nlohmann::ordered_json &entry) {
  return entry.is_object() && entry.contains("state") && entry["state"] == "pending";
}

bool has_chain_field(const nlohmann::ordered_json &file) {
  for (const char *key : {"format", "seal", "head", "settled"})
    if (file.contains(key)) return true;
  for (const auto &entry : file.at("charges"))
    if (entry.is_object() && (entry.contains("after") || entry.contains("link"))) return true;
  return false;
}

std::string describe(const nlohmann::ordered_json &entry, size_t i) {
  std::string text = concat("charges[", i, "]");
  if (entry.is_object() && entry.contains("mechanism") && entry.contains("output"))
    text += concat(" (", entry["mechanism"].dump(), ", output ", entry["output"].dump(), ")");
  return text;
}

void check_seal(const nlohmann::ordered_json &file, const std::string &path) {
  const auto &seal = file.at("seal");
  if (!seal.is_object()) fail(kExitInputData, path, ": the ledger's seal is not an object");
  if (file.at("format") != kFormat)
    fail(kExitInputData, path, ": ledger format ", file.at("format").dump(),
         " is not one this dpcov reads (", kFormat, ")");
  std::vector<std::string> broken;
  size_t sealed = 0;
  for (const char *name : kSealed) {
    if (!file.contains(name) && !seal.contains(name)) continue;
    ++sealed;
    if (!file.contains(name) || !seal.contains(name) ||
        seal.at(name) != field_seal(name, file.at(name)))
      broken.push_back(name);
  }
  if (seal.size() != sealed)
    fail(kExitInputData, path, ": the ledger's seal holds fields it does not seal: it was edited");
  if (broken.empty()) return;
  if (broken.size() == sealed)
    fail(kExitInputData, path, ": none of the ledger's sealed fields matches its seal: the seal "
         "or the ledger was edited by hand");
  std::string names;
  for (const std::string &name : broken) names += (names.empty() ? "" : ", ") + name;
  const bool cap = names.find("cap") != std::string::npos;
  fail(kExitInputData, path, ": ", names, broken.size() == 1 ? " does" : " do",
       " not match its seal (made when the ledger was created): ",
       cap ? "the cap was changed by hand" : "the ledger was edited by hand",
       "; the ledger is refused (docs/ledger-file.md)");
}

// Where an entry's "after" points: the seal, another entry of the file, or nothing it holds.
std::string follows(const std::string &after, const std::string &first,
                    const std::vector<std::string> &links) {
  if (after == first) return "the seal, as the first charge";
  for (size_t j = 0; j < links.size(); ++j)
    if (links[j] == after) return concat("charges[", j, "]");
  return "";
}

// The head is not at the last linked charge: refused unless only pending charges were cut from
// the end (their runs died before the draw, and the curator removed them as documented).
void check_cut(const nlohmann::ordered_json &file, const std::string &path,
               const std::string &first, const std::vector<std::string> &links, size_t linked) {
  for (size_t kept = 0; kept <= linked; ++kept) {
    const std::string &last = kept == 0 ? first : links[kept - 1];
    // Every entry after the settled one was pending when the file was written; those still
    // here are those entries (their links hold), so only pending ones are gone.
    if (file["settled"] == settled_of(last, kept)) {
      std::fprintf(stderr, "dpcov: warning: %s: charges marked pending after its first %zu were "
                   "removed by hand since the ledger was last written: they are no longer "
                   "counted\n", path.c_str(), kept);
      return;
    }
  }
  fail(kExitInputData, path, ": the ledger's head does not match its last charge (",
       linked == 0 ? std::string("it has none") : concat("charges[", linked - 1, "]"),
       "): a charge after it was deleted (or the head was edited)");
}

}  // namespace

void seal_ledger(nlohmann::ordered_json &file, std::optional<size_t> adopted_charges) {
  file["format"] = kFormat;
  if (adopted_charges) file["adopted_charges"] = *adopted_charges;
  nlohmann::ordered_json seal = nlohmann::ordered_json::object();
  for (const char *name : kSealed)
    if (file.contains(name)) seal[name] = field_seal(name, file.at(name));
  file["seal"] = seal;
  link_charges(file);
}

void link_charges(nlohmann::ordered_json &file) {
  std::string after = genesis(file);
  size_t count = 0;
  file["settled"] = settled_of(after, 0);
  for (auto &entry : file["charges"]) {
    entry.erase("after");
    entry.erase("link");
    const std::string link = link_of(after, entry);
    entry["after"] = after;
    entry["link"] = link;
    after = link;
    if (!pending(entry)) file["settled"] = settled_of(after, count + 1);
    ++count;
  }
  file["head"] = head_of(after, count);
}

ChainState verify_chain(const nlohmann::ordered_json &file, const std::string &path) {
  const auto &charges = file.at("charges");
  if (!has_chain_field(file)) return {true, 0};
  for (const char *key : {"format", "seal", "head", "settled"})
    if (!file.contains(key))
      fail(kExitInputData, path, ": the ledger's \"", key, "\" was removed (the file has the rest "
           "of a hash chain): the ledger was edited by hand");
  check_seal(file, path);
  const std::string first = genesis(file);
  std::vector<std::string> links;
  for (const auto &entry : charges)
    links.push_back(entry.is_object() && entry.contains("link") && entry["link"].is_string()
                        ? entry["link"].get<std::string>()
                        : std::string());
  std::string after = first;
  size_t linked = 0;
  for (; linked < charges.size() && !links[linked].empty(); ++linked) {
    const auto &entry = charges[linked];
    const std::string stated = entry.contains("after") && entry["after"].is_string()
                                   ? entry["after"].get<std::string>()
                                   : std::string();
    if (stated != after) {
      const std::string where = follows(stated, first, links);
      if (where.empty())
        fail(kExitInputData, path, ": ", describe(entry, linked), " was written after an entry "
             "the ledger no longer holds: a charge before it was deleted");
      fail(kExitInputData, path, ": ", describe(entry, linked), " was written after ", where,
           ": the charges were reordered");
    }
    if (link_of(after, entry) != links[linked])
      fail(kExitInputData, path, ": ", describe(entry, linked), " does not match its link: the "
           "entry was edited by hand after it was written");
    after = links[linked];
  }
  for (size_t i = linked; i < charges.size(); ++i)
    if (!links[i].empty())
      fail(kExitInputData, path, ": ", describe(charges[i], i), " is linked but follows an entry "
           "without a link: the ledger was edited by hand");
  if (file.at("head") != head_of(after, linked)) check_cut(file, path, first, links, linked);
  return {false, charges.size() - linked};
}

}  // namespace dpcov::cli
