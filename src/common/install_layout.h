// Where torchabi's own files are at run time: the directory that holds lib/
// (the reference runtime, a shipped libclang and libzip, clang's headers) and
// share/torchabi/ (scan's front end), found from the executable's real
// location (/proc/self/exe, symbolic links resolved), never from a path
// recorded at build time, so that an installed tree or a wheel can move.
#pragma once

#include <filesystem>

namespace torchabi::install_layout {

// The executable, symbolic links resolved ("" when /proc is not mounted).
std::filesystem::path self_exe();

// The root holding lib/ and share/torchabi/, tried in this order:
//  1. <exe>/.. : an install prefix (<prefix>/bin/torchabi, <prefix>/lib/...);
//  2. the wheel's package: pip puts the executable in the environment's
//     scripts directory (<scheme>/bin) and the package in its platlib,
//     <scheme>/lib{,64}/pythonX.Y/{site,dist}-packages/torchabi: the same
//     scheme for a venv, `pip install --user` (~/.local), `--prefix`, conda,
//     and pipx's and uv's tool venvs (their bin/ entries are symbolic links
//     to the venv's executable); `pip install --target DIR` puts both in DIR
//     (<DIR>/bin/torchabi, <DIR>/torchabi).
//     A candidate counts when it has lib/torchabi-runtime/; with several
//     (one prefix, several Pythons), the one whose share/torchabi/version
//     names this executable's version.
//  3. else <exe>/.. (a build tree: callers have their own fallbacks).
// Computed once.
const std::filesystem::path& root();

// The same for an executable at `exe` (a real path): what root() uses, for tests.
std::filesystem::path root_for(const std::filesystem::path& exe);

}  // namespace torchabi::install_layout
