// `torchabi audit` on libraries that import the per-backend generated shims
// (aoti_torch_cpu_*, aoti_torch_aten_*, aoti_torch_cuda_*). Each library is
// compiled here, against Debian's real PyTorch headers, from the functions the
// shipped catalog lists; the expected floor is worked out from the catalog, so
// nothing here names a function or a release.
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "audit_fixtures.h"
#include "real_torch.h"

using namespace torchabi::e2e;
using namespace torchabi::e2e::audit;

namespace {

struct Entry {
  std::string name, since, header, backend, library, build_condition;
  bool baseline() const { return since.starts_with("<="); }
  // "2.13.0" -> {2, 13}; "<=2.9" -> {2, 9}
  std::pair<int, int> release() const {
    std::string v = baseline() ? since.substr(2) : since;
    return {std::stoi(v), std::stoi(v.substr(v.find('.') + 1))};
  }
};

std::vector<Entry> catalog_functions() {
  std::vector<Entry> out;
  std::ifstream in(source_dir() + "/rules/api/stable_c_functions.tsv");
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> c;
    std::stringstream ls(line);
    for (std::string col; std::getline(ls, col, '\t');) c.push_back(col);
    if (c.size() == 9 && c[2] == "function") out.push_back({c[0], c[1], c[4], c[6], c[7], c[8]});
  }
  return out;
}

std::string label(std::pair<int, int> v) { return std::to_string(v.first) + "." + std::to_string(v.second); }

std::string target_hex(std::pair<int, int> v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%02x%02x000000000000", v.first, v.second);
  return buf;
}

// A shared library that takes the address of each function, declared by the
// real headers `includes` with TORCH_TARGET_VERSION `target`: built, it
// imports exactly these symbols (and compiling proves the headers declare
// them at that target).
std::string build_library(const std::string& name, const std::vector<std::string>& includes,
                          const std::vector<Entry>& fns, std::pair<int, int> target) {
  const std::string dir = make_temp_dir();
  std::string src;
  for (const auto& h : includes) src += "#include <" + h + ">\n";
  src += "extern \"C\" {\n__attribute__((visibility(\"default\"))) const void* torchabi_test_refs[] = {\n";
  for (const auto& f : fns) src += "  reinterpret_cast<const void*>(&" + f.name + "),\n";
  src += "};\n}\n";
  const std::string cpp = write_file(dir, name + ".cpp", src);
  const std::string so = dir + "/lib" + name + ".so";
  const std::string cmd = "c++ -std=c++17 -shared -fPIC -fvisibility=hidden -o '" + so + "' '" + cpp + "' -I '" +
                          torchabi::test::real_torch_include() + "' -DTORCH_TARGET_VERSION=" + target_hex(target) +
                          " >'" + dir + "/log' 2>&1";
  if (std::system(cmd.c_str()) != 0) {
    ADD_FAILURE() << cmd << "\n" << read_all(dir + "/log");
    return {};
  }
  return so;
}

// The catalog's functions from one generated header. (The hand-written
// c/shim_cpu.h and c/shim_xpu.h include ATen/Config.h, which refuses to be
// included under TORCH_TARGET_VERSION: only AOTInductor's output uses them.)
std::vector<Entry> declared_in(const std::vector<Entry>& all, const std::string& header) {
  std::vector<Entry> out;
  for (const auto& f : all)
    if (f.header == header) out.push_back(f);
  return out;
}

std::pair<int, int> newest(const std::vector<Entry>& fns) {
  std::pair<int, int> v{0, 0};
  for (const auto& f : fns) v = std::max(v, f.release());
  return v;
}

// Checks the audit of `so`: STABLE, no unknown shim, the floor the catalog dates `fns` to.
void expect_stable_with_floor(const std::string& so, const std::vector<Entry>& fns) {
  std::pair<int, int> floor{0, 0};
  bool baseline = true;
  for (const auto& f : fns) {
    if (f.baseline()) continue;
    if (baseline || f.release() > floor) floor = f.release();
    baseline = false;
  }
  std::set<std::string> set_by;
  for (const auto& f : fns)
    if (!baseline && !f.baseline() && f.release() == floor) set_by.insert(f.name);
  if (baseline)
    for (const auto& f : fns) floor = std::max(floor, f.release());

  auto r = run_torchabi({"audit", "--format", "json", so});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto j = r.json();
  EXPECT_TRUE(findings_of(j, "binary-unknown-shim").empty()) << r.out;
  EXPECT_TRUE(j["findings"].empty()) << r.out;
  auto s = subject(j, so);
  EXPECT_EQ(s["verdict"], "STABLE");
  EXPECT_EQ(s["floor"], label(floor));
  EXPECT_EQ(s["floor_is_baseline"], baseline);
  std::set<std::string> got;
  for (const auto& x : s["floor_set_by"]) got.insert(x.get<std::string>());
  EXPECT_EQ(got, set_by);
}

const std::string kGenerated = "torch/csrc/inductor/aoti_torch/generated/";

TEST(AuditBackendShims, EveryCpuShimIsStableAtTheNewestReleaseAmongThem) {
  TORCHABI_REQUIRE_REAL_TORCH();
  auto cpu = declared_in(catalog_functions(), kGenerated + "c_shim_cpu.h");
  ASSERT_FALSE(cpu.empty()) << "the catalog lists no aoti_torch_cpu_* function";
  for (const auto& f : cpu) EXPECT_EQ(f.library, "libtorch_cpu") << f.name;
  const std::string so = build_library("cpu_shims", {kGenerated + "c_shim_cpu.h"}, cpu, newest(cpu));
  ASSERT_FALSE(so.empty());
  expect_stable_with_floor(so, cpu);
}

TEST(AuditBackendShims, BaselineCpuAndAtenShimsBuildAtTheBaselineAndSayItsFloor) {
  TORCHABI_REQUIRE_REAL_TORCH();
  std::vector<Entry> fns;
  for (const auto& f : declared_in(catalog_functions(), kGenerated + "c_shim_cpu.h"))
    if (f.baseline()) fns.push_back(f);
  for (const auto& f : declared_in(catalog_functions(), kGenerated + "c_shim_aten.h"))
    if (f.baseline()) fns.push_back(f);
  ASSERT_FALSE(fns.empty());
  const std::string so = build_library("baseline_shims", {kGenerated + "c_shim_cpu.h", kGenerated + "c_shim_aten.h"},
                                       fns, fns.front().release());
  ASSERT_FALSE(so.empty());
  expect_stable_with_floor(so, fns);
}

TEST(AuditBackendShims, CudaShimsAreKnownToo) {
  TORCHABI_REQUIRE_REAL_TORCH();
  // c_shim_cuda.h needs no CUDA toolkit: its declarations use only shim handles.
  auto cuda = declared_in(catalog_functions(), kGenerated + "c_shim_cuda.h");
  ASSERT_FALSE(cuda.empty());
  for (const auto& f : cuda) {
    EXPECT_EQ(f.library, "libtorch_cuda") << f.name;
    EXPECT_EQ(f.build_condition, "USE_CUDA") << f.name;
  }
  const std::string so = build_library("cuda_shims", {kGenerated + "c_shim_cuda.h"}, cuda, newest(cuda));
  ASSERT_FALSE(so.empty());
  expect_stable_with_floor(so, cuda);
  // A CPU-only PyTorch lacks them, whatever its release: the report says so.
  auto s = subject(run_torchabi({"audit", "--format", "json", so}).json(), so);
  EXPECT_NE(s["loads_on"].get<std::string>().find(", built with USE_CUDA"), std::string::npos) << s.dump(2);
  EXPECT_TRUE(s["facts"]["needs a build with"].get<std::string>().starts_with("USE_CUDA (libtorch_cuda): ")) << s.dump(2);

  // On Debian's CPU-only PyTorch the symbols are missing, and the rules do
  // not claim otherwise: the release alone cannot say whether a build has CUDA.
  const std::string sid = torchabi::test::real_torch_libdir();
  auto j = run_torchabi({"audit", "--format", "json", "--torch", sid, so}).json();
  auto on_sid = subject(j, so)["torch"][sid];
  EXPECT_EQ(on_sid["loads"], false) << on_sid.dump(2);
  EXPECT_FALSE(on_sid["missing_symbols"].empty()) << on_sid.dump(2);
  for (const auto& f : j["findings"]) EXPECT_NE(f["rule"], "binary-rules-disagree-with-torch") << f.dump(2);
}

// The reference runtime is CPU-only: it exports every catalog function of its
// release, the backend shims as stubs, so an extension that calls one loads
// and the call is reported as unimplemented; on a release older than a shim
// the extension does not load (runtime-missing-symbol).
TEST(RunBackendShims, ACudaShimCallIsUnimplemented) {
  TORCHABI_REQUIRE_REAL_TORCH();
  // A CUDA shim of the simplest form, picked from the catalog.
  std::string fn;
  std::pair<int, int> since{0, 0};
  std::ifstream in(source_dir() + "/rules/api/stable_c_functions.tsv");
  for (std::string line; fn.empty() && std::getline(in, line);) {
    std::vector<std::string> c;
    std::stringstream ls(line);
    for (std::string col; std::getline(ls, col, '\t');) c.push_back(col);
    if (c.size() == 9 && c[6] == "cuda" && c[5] == "AOTITorchError " + c[0] + "(AtenTensorHandle self, AtenTensorHandle * ret0)")
      fn = c[0], since = Entry{c[0], c[1], c[4], c[6], c[7], c[8]}.release();  // built for the oldest target that declares it
  }
  ASSERT_FALSE(fn.empty()) << "no aoti_torch_cuda_<op>(self, ret0) in the catalog";
  const std::string dir = make_temp_dir();
  const std::string cpp = write_file(dir, "ext.cpp",
      "#include <torch/csrc/stable/library.h>\n"
      "#include <torch/csrc/stable/tensor.h>\n"
      "#include <" + kGenerated + "c_shim_cuda.h>\n"
      "using torch::stable::Tensor;\n"
      "Tensor on_device(Tensor x) {\n"
      "  AtenTensorHandle out = nullptr;\n"
      "  TORCH_ERROR_CODE_CHECK(" + fn + "(x.get(), &out));\n"
      "  return Tensor(out);\n"
      "}\n"
      "STABLE_TORCH_LIBRARY(backend_shims, m) { m.def(\"on_device(Tensor x) -> Tensor\"); }\n"
      "STABLE_TORCH_LIBRARY_IMPL(backend_shims, CPU, m) { m.impl(\"on_device\", TORCH_BOX(&on_device)); }\n");
  const std::string so = dir + "/libext.so";
  const std::string cmd = "c++ -std=c++17 -shared -fPIC -fvisibility=hidden -o '" + so + "' '" + cpp + "' -I '" +
                          torchabi::test::real_torch_include() + "' -DTORCH_TARGET_VERSION=" + target_hex(since) +
                          " >'" + dir + "/log' 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd << "\n" << read_all(dir + "/log");

  auto r = run_torchabi({"run", "--format", "json", so});
  auto j = r.json();
  auto unimplemented = findings_of(j, "runtime-unimplemented-shim");
  ASSERT_EQ(unimplemented.size(), 1u) << r.out;
  EXPECT_NE(unimplemented[0]["message"].get<std::string>().find("called " + fn + ","), std::string::npos) << r.out;
  EXPECT_TRUE(findings_of(j, "runtime-missing-symbol").empty()) << r.out;
}

TEST(RunBackendShims, OnAnOlderReleaseTheNewerCpuShimsAreMissingSymbols) {
  TORCHABI_REQUIRE_REAL_TORCH();
  auto cpu = declared_in(catalog_functions(), kGenerated + "c_shim_cpu.h");
  ASSERT_FALSE(cpu.empty());
  std::pair<int, int> baseline{0, 0};
  std::set<std::string> want;
  for (const auto& f : cpu) {
    if (f.baseline()) baseline = f.release();
    else want.insert(f.name + " (" + label(f.release()) + ")");
  }
  ASSERT_FALSE(want.empty()) << "no dated aoti_torch_cpu_* function to test with";
  const std::string so = build_library("cpu_shims_run", {kGenerated + "c_shim_cpu.h"}, cpu, newest(cpu));
  ASSERT_FALSE(so.empty());
  auto r = run_torchabi({"run", "--format", "json", "--torch-version", label(baseline), so});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  auto j = r.json();
  auto missing = findings_of(j, "runtime-missing-symbol");
  ASSERT_EQ(missing.size(), 1u) << r.out;
  std::set<std::string> got;
  for (const auto& n : missing[0]["notes"])
    if (!n.get<std::string>().starts_with("the dynamic loader says")) got.insert(n.get<std::string>());
  EXPECT_EQ(got, want);
  EXPECT_EQ(j["subjects"][0]["verdict"], "NOT LOADED");
  // On the newest release among them it loads.
  auto ok = run_torchabi({"run", "--format", "json", "--torch-version", label(newest(cpu)), so});
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
}

}  // namespace
