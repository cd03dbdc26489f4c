#include "did_you_mean.hpp"

#include <algorithm>
#include <string_view>

namespace dpcov::cli {

std::size_t edit_distance(const std::string &a, const std::string &b) {
  // Three rows of the dynamic programme: the swap case looks two rows back.
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        current[j] = std::min(current[j], before[j - 2] + 1);
    }
    before.swap(previous);
    previous.swap(current);
  }
  return previous[b.size()];
}

std::optional<std::string> closest_name(const std::string &typed,
                                        const std::vector<std::string> &names) {
  std::vector<std::string> prefixed;
  for (const std::string &name : names)
    if (!typed.empty() && name.size() > typed.size() && name.compare(0, typed.size(), typed) == 0)
      prefixed.push_back(name);
  if (prefixed.size() == 1) return prefixed.front();

  std::optional<std::string> best;
  std::size_t best_distance = 0;
  bool tie = false;
  for (const std::string &name : names) {
    const std::size_t d = edit_distance(typed, name);
    const std::size_t allowed = name.size() <= 4 ? 1 : 2;
    if (d == 0 || d > allowed) continue;
    if (!best || d < best_distance) {
      best = name;
      best_distance = d;
      tie = false;
    } else if (d == best_distance) {
      tie = true;
    }
  }
  if (tie) return std::nullopt;
  return best;
}

std::string did_you_mean(const CLI::App &app, int argc, const char *const *argv) {
  if (argc < 2) return {};
  const std::string first = argv[1];
  std::vector<std::string> commands;
  for (const CLI::App *command : app.get_subcommands([](const CLI::App *) { return true; }))
    commands.push_back(command->get_name());
  if (first.empty() || first[0] == '-') return {};
  const auto known = std::find(commands.begin(), commands.end(), first);
  if (known == commands.end()) {
    const auto suggestion = closest_name(first, commands);
    return "unknown command '" + first + "'" +
           (suggestion ? "; did you mean '" + *suggestion + "'?" : "") +
           " (dpcov --help lists the commands)";
  }
  // A known command: look for an unknown long option after it.
  const CLI::App *command = app.get_subcommand(first);
  std::vector<std::string> options;
  for (const CLI::Option *option : command->get_options())
    for (const std::string &name : option->get_lnames()) options.push_back("--" + name);
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") break;
    if (arg.rfind("--", 0) != 0) continue;
    arg = arg.substr(0, arg.find('='));
    if (std::find(options.begin(), options.end(), arg) != options.end()) continue;
    const auto suggestion = closest_name(arg, options);
    if (suggestion) return "unknown option '" + arg + "'; did you mean '" + *suggestion + "'?";
  }
  return {};
}

}  // namespace dpcov::cli
