// Hostile inputs (issue 38): archive bombs are refused with one line naming
// the member and the limit, a memory limit never ends in an abort, and file
// names that are not UTF-8 or hold a newline survive every report format.
// The bombs are generated here (Python's zipfile/tarfile, the zstd tool).
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "audit_fixtures.h"

using namespace torchabi::e2e;
using namespace torchabi::e2e::audit;
namespace fs = std::filesystem;

namespace {

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs a shell command line; true when it exits 0.
bool sh(const std::string& cmd) { return std::system(cmd.c_str()) == 0; }

// torchabi ARGS under `ulimit -v KB` (0: no limit), stdout and stderr captured.
RunResult run_limited(const std::vector<std::string>& args, long kb) {
  const std::string dir = make_temp_dir();
  std::string cmd = "cd " + quote(dir) + " && ";
  if (kb) cmd += "ulimit -v " + std::to_string(kb) + " && ";
  cmd += "exec " + quote(torchabi_binary());
  for (const auto& a : args) cmd += " " + quote(a);
  cmd += " >" + quote(dir + "/out") + " 2>" + quote(dir + "/err");
  const int status = std::system(("sh -c " + quote(cmd)).c_str());
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_all(dir + "/out");
  r.err = read_all(dir + "/err");
  return r;
}

// A Python script run with its arguments.
bool python(const std::string& dir, const std::string& script, const std::vector<std::string>& args = {}) {
  const std::string path = write_file(dir, "gen.py", script);
  std::string cmd = "python3 " + quote(path);
  for (const auto& a : args) cmd += " " + quote(a);
  return sh(cmd);
}

// The zeros written in chunks, never held whole.
const char* kZeros = R"(
import sys, io
CHUNK = b"\0" * (1 << 20)
def zeros(out, mib):
    for _ in range(mib):
        out.write(CHUNK)
)";

void expect_bomb_refused(const RunResult& r, const std::string& member) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(member), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("limit"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("bad_alloc"), std::string::npos) << r.err;
}

std::string any_library() {
  for (const std::string& p : {stable_lib(), fixture("runtime/bad_throws.so")})
    if (fs::exists(p)) return p;
  return "";
}

}  // namespace

TEST(HostileInput, WheelZipBombOfOneGiB) {
  const std::string dir = make_temp_dir(), whl = dir + "/bomb-1.0-cp310-abi3-linux_x86_64.whl";
  ASSERT_TRUE(python(dir, std::string(kZeros) + R"(
import zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("bomb-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: bomb\nVersion: 1.0\n")
    z.writestr("bomb-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: false\nTag: cp310-abi3-linux_x86_64\n")
    with z.open("bomb/_C.so", "w", force_zip64=True) as f:
        zeros(f, 1024)
)", {whl}));
  auto r = run_limited({"audit", whl}, 400000);
  expect_bomb_refused(r, "bomb/_C.so");
  EXPECT_NE(r.err.find("compression ratio"), std::string::npos) << r.err;
}

TEST(HostileInput, WheelWhoseDeclaredSizeLies) {
  const std::string dir = make_temp_dir(), whl = dir + "/liar-1.0-cp310-abi3-linux_x86_64.whl";
  // 64 MiB of zeros whose directory entries claim 100 bytes.
  ASSERT_TRUE(python(dir, std::string(kZeros) + R"(
import zipfile, struct
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("liar-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: liar\nVersion: 1.0\n")
    with z.open("liar/_C.so", "w") as f:
        zeros(f, 64)
data = bytearray(buf.getvalue())
for sig, off in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
    i = 0
    while (i := data.find(sig, i)) >= 0:
        name_len = struct.unpack_from("<H", data, i + off + 4 if sig == b"PK\x03\x04" else i + 28)[0]
        start = i + (30 if sig == b"PK\x03\x04" else 46)
        if data[start:start + name_len] == b"liar/_C.so":
            struct.pack_into("<I", data, i + off, 100)
        i += 4
open(sys.argv[1], "wb").write(data)
)", {whl}));
  auto r = run_limited({"audit", whl}, 400000);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("liar/_C.so"), std::string::npos) << r.err;
}

TEST(HostileInput, CondaTarBz2Bomb) {
  const std::string dir = make_temp_dir(), pkg = dir + "/bomb-1.0-0.tar.bz2";
  ASSERT_TRUE(python(dir, std::string(kZeros) + R"(
import tarfile, json
class Zeros(io.RawIOBase):
    def __init__(self, n): self.left = n
    def readable(self): return True
    def readinto(self, b):
        n = min(len(b), self.left); b[:n] = b"\0" * n; self.left -= n; return n
with tarfile.open(sys.argv[1], "w:bz2") as t:
    idx = json.dumps({"name": "bomb", "version": "1.0", "depends": []}).encode()
    ti = tarfile.TarInfo("info/index.json"); ti.size = len(idx); t.addfile(ti, io.BytesIO(idx))
    ti = tarfile.TarInfo("lib/libbomb.so"); ti.size = 512 << 20; t.addfile(ti, Zeros(ti.size))
)", {pkg}));
  auto r = run_limited({"audit", pkg}, 400000);
  expect_bomb_refused(r, "lib/libbomb.so");
}

TEST(HostileInput, CondaWithBombInnerTar) {
  if (!sh("command -v zstd >/dev/null")) GTEST_SKIP() << "no zstd tool";
  const std::string dir = make_temp_dir(), pkg = dir + "/bomb-1.0-0.conda";
  ASSERT_TRUE(python(dir, std::string(kZeros) + R"(
import tarfile, json, subprocess, zipfile, os
d = os.path.dirname(sys.argv[1])
class Zeros(io.RawIOBase):
    def __init__(self, n): self.left = n
    def readable(self): return True
    def readinto(self, b):
        n = min(len(b), self.left); b[:n] = b"\0" * n; self.left -= n; return n
def zst_tar(path, entries):
    p = subprocess.Popen(["zstd", "-q", "-f", "-o", path], stdin=subprocess.PIPE)
    with tarfile.open(fileobj=p.stdin, mode="w|") as t:
        for name, size, src in entries:
            ti = tarfile.TarInfo(name); ti.size = size; t.addfile(ti, src)
    p.stdin.close(); assert p.wait() == 0
idx = json.dumps({"name": "bomb", "version": "1.0", "depends": []}).encode()
zst_tar(d + "/info.tzst", [("info/index.json", len(idx), io.BytesIO(idx))])
zst_tar(d + "/pkg.tzst", [("lib/libbomb.so", 1 << 30, Zeros(1 << 30))])
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_STORED) as z:
    z.writestr("metadata.json", json.dumps({"conda_pkg_format_version": 2}))
    z.write(d + "/info.tzst", "info-bomb-1.0-0.tar.zst")
    z.write(d + "/pkg.tzst", "pkg-bomb-1.0-0.tar.zst")
)", {pkg}));
  auto r = run_limited({"audit", pkg}, 400000);
  expect_bomb_refused(r, "lib/libbomb.so");
}

TEST(HostileInput, MemberSizeLimitFromEnvironment) {
  const std::string lib = any_library();
  if (lib.empty()) GTEST_SKIP() << "fixture libraries not built";
  const std::string dir = make_temp_dir(), whl = dir + "/small-1.0-cp310-abi3-linux_x86_64.whl";
  ASSERT_TRUE(python(dir, R"(
import zipfile, sys
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("small-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: small\nVersion: 1.0\n")
    z.write(sys.argv[2], "small/_C.so")
)", {whl, lib}));
  auto r = run_limited({"audit", whl}, 0);
  EXPECT_NE(r.exit_code, 2) << r.err;
  const std::string cmd = "TORCHABI_MAX_MEMBER_SIZE=1000 " + quote(torchabi_binary()) + " audit " + quote(whl) +
                          " 2>" + quote(dir + "/err") + " >/dev/null";
  const int status = std::system(cmd.c_str());
  EXPECT_EQ(WEXITSTATUS(status), 2);
  const std::string err = read_all(dir + "/err");
  EXPECT_EQ(lines(err), 1) << err;
  EXPECT_NE(err.find("small/_C.so"), std::string::npos) << err;
  EXPECT_NE(err.find("1000-byte limit"), std::string::npos) << err;
}

// Every reader under a memory limit: exit 0/1/2 with clear lines, never an
// abort or an uncaught std::bad_alloc.
TEST(HostileInput, ReadersUnderMemoryLimitNeverAbort) {
  const std::string dir = make_temp_dir();
  // A 300 MB schema file: reading it needs more than the limit allows.
  ASSERT_TRUE(sh("python3 -c \"import sys; sys.stdout.write('- func: f(Tensor x) -> Tensor\\n' * 10000000)\" > " +
                 quote(dir + "/native_functions.yaml")));
  std::vector<std::vector<std::string>> runs = {{"schema", "--file", dir + "/native_functions.yaml"},
                                                {"schema", "f(Tensor x) -> Tensor"}};
  if (const std::string lib = any_library(); !lib.empty()) {
    runs.push_back({"audit", lib});
    // A site-packages-like tree, and a library padded to 600 MB (mapped, not read).
    fs::create_directories(dir + "/site-packages/pkg");
    fs::copy_file(lib, dir + "/site-packages/pkg/_C.so");
    runs.push_back({"audit", dir + "/site-packages"});
    fs::copy_file(lib, dir + "/big.so");
    fs::resize_file(dir + "/big.so", uint64_t(600) << 20);
    runs.push_back({"audit", dir + "/big.so"});
  }
  if (fs::exists(fixture("wheels"))) runs.push_back({"audit", fixture("wheels")});
  if (fs::exists(fixture("conda"))) runs.push_back({"audit", fixture("conda")});
  // libclang works under this limit; a bomb does not.
  const std::string cpp = source_dir() + "/fixtures/lint/build-api-header-not-included/fires.cpp";
  runs.push_back({"lint", cpp});
  runs.push_back({"migrate", "--format", "json", cpp});
  runs.push_back({"check", "--no-run-build", source_dir() + "/fixtures/projects/jit_load"});
  for (const auto& args : runs) {
    auto r = run_limited(args, 400000);
    SCOPED_TRACE(args[0] + " " + args[1]);
    EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 2) << r.exit_code << " " << r.err;
    EXPECT_EQ(r.err.find("bad_alloc"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("terminate"), std::string::npos) << r.err;
  }
}

// File names with a 0xff byte and a newline: JSON and SARIF parse and carry
// the bytes percent-encoded; text keeps one line per record.
TEST(HostileInput, NonUtf8AndNewlineFileNames) {
  const std::string lib = any_library();
  if (lib.empty()) GTEST_SKIP() << "fixture libraries not built";
  const std::string dir = make_temp_dir();
  const std::string odd = dir + "/lib\xff" "odd\nname.so";
  fs::copy_file(lib, odd);
  auto j = run_torchabi({"audit", "--format", "json", odd});
  ASSERT_NE(j.exit_code, 2) << j.err;
  auto report = j.json();
  ASSERT_EQ(report["subjects"].size(), 1u);
  const std::string encoded = report["subjects"][0]["path_bytes"];
  EXPECT_NE(encoded.find("lib%FFodd%0Aname.so"), std::string::npos) << encoded;
  // Percent-decoding gives the bytes back.
  std::string decoded;
  for (size_t i = 0; i < encoded.size(); ++i) {
    if (encoded[i] == '%') decoded += char(std::stoi(encoded.substr(i + 1, 2), nullptr, 16)), i += 2;
    else decoded += encoded[i];
  }
  EXPECT_EQ(decoded, odd);

  auto s = run_torchabi({"audit", "--format", "sarif", odd});
  EXPECT_NE(s.exit_code, 2) << s.err;
  EXPECT_TRUE(nlohmann::json::accept(s.out)) << s.out;
  for (const auto& res : nlohmann::json::parse(s.out)["runs"][0]["results"])
    for (const auto& loc : res["locations"]) {
      const std::string uri = loc["physicalLocation"]["artifactLocation"]["uri"];
      EXPECT_EQ(uri.find('\n'), std::string::npos) << uri;
    }

  auto t = run_torchabi({"audit", odd});
  EXPECT_NE(t.exit_code, 2) << t.err;
  EXPECT_NE(t.out.find("lib\\377odd\\nname.so"), std::string::npos) << t.out;
  std::istringstream in(t.out);
  for (std::string line; std::getline(in, line);) {
    EXPECT_NE(line.rfind("name.so", 0), 0u) << "a record split on the newline in the name:\n" << t.out;
  }
}

TEST(HostileInput, LintOfNonUtf8FileName) {
  const std::string dir = make_temp_dir();
  const std::string cpp = dir + "/x\xff" "y\nz.cpp";
  std::ofstream(cpp) << "#include <ATen/ATen.h>\nint f() { return 0; }\n";
  auto j = run_torchabi({"lint", "--format", "json", cpp});
  EXPECT_TRUE(j.exit_code == 0 || j.exit_code == 1 || j.exit_code == 2) << j.err;
  EXPECT_TRUE(nlohmann::json::accept(j.out)) << j.out;
  EXPECT_EQ(j.err.find("type_error"), std::string::npos) << j.err;
  auto s = run_torchabi({"lint", "--format", "sarif", cpp});
  EXPECT_TRUE(nlohmann::json::accept(s.out)) << s.out;
  EXPECT_EQ(s.err.find("type_error"), std::string::npos) << s.err;
}
