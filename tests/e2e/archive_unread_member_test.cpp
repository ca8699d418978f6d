// A conda package's tar is one compressed stream: a member torchabi does not
// read (not a library) is still decompressed to reach the next one. A bomb
// there is refused under the compression-ratio cap like one in a library,
// quickly, with one line naming the member and the limit (issue 38).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "cli_harness.h"

using namespace torchabi::e2e;

namespace {

// info/index.json, then `share/data.bin`: MIB mebibytes of zeros, streamed.
const char* kMakeTarBz2 = R"(python3 - "$1" "$2" <<'PY'
import io, sys, tarfile
path, mib = sys.argv[1], int(sys.argv[2])
class Zeros(io.RawIOBase):
    def __init__(self, n): self.left = n
    def read(self, n=-1):
        n = self.left if n < 0 else min(n, self.left)
        self.left -= n
        return b"\0" * n
with tarfile.open(path, "w:bz2") as t:
    idx = b'{"name": "bomb", "version": "1.0", "depends": []}'
    info = tarfile.TarInfo("info/index.json"); info.size = len(idx); t.addfile(info, io.BytesIO(idx))
    info = tarfile.TarInfo("share/data.bin"); info.size = mib << 20; t.addfile(info, Zeros(info.size))
PY)";

}  // namespace

TEST(ArchiveUnreadMember, BombInADataMemberOfATarBz2IsRefused) {
  const std::string dir = make_temp_dir();
  const std::string pkg = dir + "/bomb-1.0-0.tar.bz2";
  // The script goes to sh on its standard input: no quoting of the Python text.
  FILE* p = popen(("sh -s " + pkg + " 96").c_str(), "w");
  ASSERT_NE(p, nullptr);
  fputs(kMakeTarBz2, p);
  ASSERT_EQ(pclose(p), 0);

  const auto start = std::chrono::steady_clock::now();
  auto r = run_torchabi({"audit", pkg});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("bomb-1.0-0.tar.bz2!share/data.bin: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("compression ratio limit of 200:1 (TORCHABI_MAX_COMPRESSION_RATIO)"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line:\n" << r.err;
  // Refused after the ratio's floor (16 MiB of zeros), not after all 96.
  EXPECT_LT(seconds, 30) << r.err;

  // With the cap off, the same package is read to the end: no error.
  const std::string off = "TORCHABI_MAX_COMPRESSION_RATIO=0 '" + torchabi_binary() + "' audit '" + pkg +
                          "' >/dev/null 2>&1";
  EXPECT_EQ(std::system(off.c_str()), 0);
}
