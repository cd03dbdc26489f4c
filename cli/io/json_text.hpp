// JSON as the command writes it: indented, one trailing newline. Text that is not UTF-8 (a file
// name in another encoding) is written with U+FFFD in place of each bad byte instead of failing.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace dpcov::cli {

inline std::string json_text(const nlohmann::ordered_json &value) {
  return value.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

// Why a file did not read as the JSON expected, for an error message: a parse error by its byte
// offset only, since the parser's own message quotes the bytes it last read (a data file passed
// as a ledger or receipt would have its first values printed); other errors name the key or type.
inline std::string json_failure(const nlohmann::json::exception &e) {
  if (const auto *parse = dynamic_cast<const nlohmann::json::parse_error *>(&e))
    return "not JSON: parse error at byte " + std::to_string(parse->byte);
  return e.what();
}

}  // namespace dpcov::cli
