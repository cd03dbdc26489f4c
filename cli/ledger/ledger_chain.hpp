// Tamper evidence for the --ledger file: the fields that fix the budget (format, accounting,
// caps) are sealed when the ledger is created, and every charge is chained to the one before
// it by a BLAKE2b hash (libsodium's crypto_generichash), the first to the seal; the file's "head"
// is the last link. A hand edit of a sealed field or of an entry, a charge deleted (the last one
// included) or moved is found when the file is read, and the message says what was found.
// There is no secret key: this detects edits, it cannot stop someone who rewrites the whole chain
// with this code (docs/ledger-file.md). "spent" is a summary recomputed from the charges on every
// read and write, never read back, so it is not covered.
//
// A file without any chain (written by a dpcov before it) is accepted as written, with a warning,
// and sealed at its next write with "adopted_charges": the number of charges it held then, which
// no seal vouches for. Charges appended by hand after the last linked one (the instructions of a
// charge that could not be recorded say to add them) are accepted too, with a warning, and chained
// at the next write: they can only add to what is counted.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace dpcov::cli {

// What reading a ledger file's chain found, when it did not refuse it.
struct ChainState {
  bool unchained = false;  // no chain at all: a file of an earlier dpcov
  size_t unlinked = 0;     // trailing charges without a link (added by hand)
};

// Seals a ledger object (accounting, epsilon_cap, delta_cap set) with "format": 2, and links its
// charges. `adopted_charges`, for a file of an earlier dpcov sealed now: the number of charges it
// held when read, which no seal vouches for. Nothing random and no time: a seeded run writes the
// same ledger twice, and neighbouring datasets leave the same ledger.
void seal_ledger(nlohmann::ordered_json &file, std::optional<size_t> adopted_charges);

// Links every charge to the one before it (the first to the seal) and sets "head". The entries are
// the verified ones read, and those this run added.
void link_charges(nlohmann::ordered_json &file);

// Checks the seal, every link and the head of a ledger file read from `path`. Throws
// CliError(kExitInputData) naming the first thing found: a sealed field changed, an entry edited,
// deleted or moved, the head not at the last entry.
ChainState verify_chain(const nlohmann::ordered_json &file, const std::string &path);

}  // namespace dpcov::cli
