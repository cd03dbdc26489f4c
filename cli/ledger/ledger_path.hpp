// The one file a --ledger path names. A ledger is replaced by rename on every charge, and its runs
// are serialised by a lock beside it (ledger_lock.hpp): both must act on the file the path
// resolves to, not on the name given, or a symbolic link and its target become two ledgers (the
// rename replaces the link by a copy, and the two names lock two lock files) and each spends the
// whole cap. A hard link cannot be kept through a rename at all: the other name keeps the old
// contents. So a ledger is reached by its real path, and a file with more than one hard link is
// refused.
#pragma once

#include <string>

namespace dpcov::cli {

// The absolute path, free of symbolic links, of the ledger file `path` names: the link's target
// for a symbolic link (to any depth), or, for a file that does not exist yet, its real directory
// and its name. Throws CliError(kExitUsage) for a symbolic link whose target does not exist (a
// ledger is created by its own name, never through a link) and for a file with more than one hard
// link; CliError(kExitIo) when the path cannot be resolved.
std::string resolve_ledger_path(const std::string &path);

// Throws CliError(kExitUsage) if the file at `real_path` (resolved) has more than one hard link,
// naming `path`. Nothing is thrown for a file that does not exist.
void refuse_hard_links(const std::string &real_path, const std::string &path);

}  // namespace dpcov::cli
