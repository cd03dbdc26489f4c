// JSON as the command writes it: indented, one trailing newline. Text that is not UTF-8 (a file
// name in another encoding) is written with U+FFFD in place of each bad byte instead of failing.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace dpcov::cli {

inline std::string json_text(const nlohmann::ordered_json &value) {
  return value.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace dpcov::cli
