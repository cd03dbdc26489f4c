// Exit codes of the dpcov command and the exception that carries one to main().
#pragma once

#include <charconv>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace dpcov::cli {

// The documented exit codes (also listed in `dpcov --help`). Scripts rely on them: never renumber.
enum ExitCode : int {
  kExitOk = 0,
  kExitUsage = 1,         // bad or missing options, unknown columns, an argument out of range
  kExitInputData = 2,     // the input is malformed or violates a data precondition (file:line:col)
  kExitPrivacy = 3,       // a privacy precondition does not hold, or a mechanism refused to release
  kExitInternal = 4,      // a library failure that is not the caller's fault (a bug, out of memory)
  kExitIo = 5,            // a file cannot be opened, read or written
  kExitViolation = 6,     // `dpcov audit`: the auditor found a privacy violation
  kExitLedger = 7         // the --ledger file could not record a release's charge: nothing was
                          // released (before the draw nothing was drawn; after it, see the message)
};

// A failure that ends the command with `code` after printing `what()` (prefixed "dpcov: ").
class CliError : public std::runtime_error {
 public:
  CliError(int code, const std::string &message) : std::runtime_error(message), code_(code) {}
  int code() const noexcept { return code_; }

 private:
  int code_;
};

// Appends one part of a message: doubles in their shortest round-trip form ("0.1", not
// "0.10000000000000001"), anything else with operator<<.
template <class Part>
void append_part(std::ostringstream &out, const Part &part) {
  if constexpr (std::is_same_v<Part, double>) {
    char text[32];
    const char *end = std::to_chars(text, text + sizeof text, part).ptr;
    out << std::string_view(text, static_cast<size_t>(end - text));
  } else {
    out << part;
  }
}

// Concatenates its arguments into a message.
template <class... Parts>
std::string concat(const Parts &...parts) {
  std::ostringstream out;
  (append_part(out, parts), ...);
  return out.str();
}

// Input text quoted in a message: at most `max_bytes` of it (cut at a UTF-8 character boundary),
// followed by "... (N bytes)" when cut, so that a message never echoes a huge field or line.
inline std::string excerpt(std::string_view text, size_t max_bytes = 40) {
  if (text.size() <= max_bytes) return std::string(text);
  size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  std::ostringstream out;
  out << text.substr(0, cut) << "... (" << text.size() << " bytes)";
  return out.str();
}

// The longest message main() prints: a safety net behind excerpt() for any text a message quotes.
inline constexpr size_t kMaxMessageBytes = 4096;

template <class... Parts>
[[noreturn]] void fail(int code, const Parts &...parts) {
  throw CliError(code, concat(parts...));
}

}  // namespace dpcov::cli
