#include "choice_names.hpp"

#include <utility>

#include "../cli_error.hpp"
#include "did_you_mean.hpp"

namespace dpcov::cli {

std::optional<std::string> known_spelling(const std::string &typed,
                                          const std::vector<std::string> &names) {
  std::string other = typed;
  for (char &c : other) c = c == '-' ? '_' : c == '_' ? '-' : c;
  for (const std::string &name : names)
    if (name == typed || name == other) return name;
  return std::nullopt;
}

CLI::Validator either_separator(std::vector<std::string> names) {
  return CLI::Validator(
      [names = std::move(names)](std::string &value) {
        if (const std::optional<std::string> name = known_spelling(value, names)) value = *name;
        return std::string();
      },
      "", "either separator");
}

void fail_unknown_name(const char *option, const std::string &typed,
                       const std::vector<std::string> &names) {
  std::string known;
  for (const std::string &name : names) known += (known.empty() ? "" : ", ") + name;
  const std::optional<std::string> closest = closest_name(typed, names);
  fail(kExitUsage, option, ": unknown value '", excerpt(typed), "'",
       closest ? concat(": did you mean '", *closest, "'?") : std::string(), " (one of: ", known,
       ")");
}

}  // namespace dpcov::cli
