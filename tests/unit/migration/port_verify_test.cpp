// verify-port's pieces that need no torch: which files make the extensions to
// build, the driver's JSON read back, and the report.
#include "analyzers/migration/port_verify/port_verify.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "reporters/port_verify_reporter.h"
#include "test_files.h"

namespace torchabi::migration {
namespace {

using testing::put_file;
using testing::scratch_dir;

TEST(PortVerify, EachRegistrationFileIsAnExtensionWithTheSourcesThatRegisterNothing) {
  const std::string original = scratch_dir(), port = scratch_dir();
  put_file(original, "ext/a.cpp", "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def(\"f\", &f); }\n");
  put_file(port, "ext/a.cpp", "STABLE_TORCH_LIBRARY(a, m) { m.def(\"f(Tensor x) -> Tensor\"); }\n");
  put_file(original, "ext/b.cpp", "TORCH_LIBRARY(b, m) { m.def(\"g(Tensor x) -> Tensor\"); }\n");
  put_file(port, "ext/b.cpp", "STABLE_TORCH_LIBRARY(b, m) { m.def(\"g(Tensor x) -> Tensor\"); }\n");
  put_file(port, "ext/helper.cpp", "int helper() { return 1; }  // TORCH_LIBRARY in a comment is no block\n");
  put_file(port, "ext/kernels.cu", "__global__ void k() {}\n");
  put_file(port, "build/stale.cpp", "STABLE_TORCH_LIBRARY(stale, m) {}\n");
  const auto exts = extensions_to_verify(original, port, {});
  ASSERT_EQ(exts.size(), 2u);
  EXPECT_EQ(exts[0].name, "a");
  EXPECT_EQ(exts[0].port_sources, (std::vector<std::string>{"ext/a.cpp", "ext/helper.cpp"}));
  EXPECT_EQ(exts[0].original_sources, (std::vector<std::string>{"ext/a.cpp"}));  // helper.cpp is new in the port
  EXPECT_EQ(exts[0].cuda_sources, (std::vector<std::string>{"ext/kernels.cu"}));
  EXPECT_EQ(exts[1].name, "b");
  // Given sources (migrate's translation units) are all that is looked at.
  const auto given = extensions_to_verify(original, port, {"ext/b.cpp"});
  ASSERT_EQ(given.size(), 1u);
  EXPECT_EQ(given[0].port_sources, (std::vector<std::string>{"ext/b.cpp"}));
}

TEST(PortVerify, ATreeWithoutRegistrationsHasNothingToVerify) {
  const std::string original = scratch_dir(), port = scratch_dir();
  put_file(port, "lib.cpp", "int f() { return 0; }\n");
  EXPECT_TRUE(extensions_to_verify(original, port, {}).empty());
  VerifyRequest req;
  req.original_root = original;
  req.port_root = port;
  const VerifyRun run = verify_port(req);
  EXPECT_FALSE(run.ran);
  EXPECT_NE(run.why_not.find("registers an op"), std::string::npos) << run.why_not;
}

constexpr const char* kResult = R"J({"torch": "2.14.1", "extensions": [
  {"name": "lltm", "sources": ["lltm.cpp"], "stable_only": "", "port_build": "", "original_build": "",
   "ops": [{"op": "lltm::forward", "status": "verified", "why": "", "inputs": "(float64[3, 5])"},
           {"op": "lltm::backward", "status": "differs", "why": "output[0]: Tensor-likes are not close!"}],
   "missing": ["extra"]},
  {"name": "lltm_cuda", "sources": ["lltm_cuda.cpp"], "stable_only": "", "port_build":
   "the port does not load: OSError: undefined symbol: launch", "original_build": "", "ops": []}]})J";

TEST(PortVerify, ReadsTheDriversVerdicts) {
  const VerifyRun run = verify_from_json(kResult);
  ASSERT_TRUE(run.ran);
  EXPECT_EQ(run.torch_version, "2.14.1");
  ASSERT_EQ(run.extensions.size(), 2u);
  const auto& lltm = run.extensions[0];
  ASSERT_EQ(lltm.ops.size(), 2u);
  EXPECT_EQ(lltm.ops[0].status, OpVerdict::Status::Verified);
  EXPECT_EQ(lltm.ops[0].inputs, "(float64[3, 5])");
  EXPECT_EQ(lltm.ops[1].status, OpVerdict::Status::Differs);
  EXPECT_EQ(lltm.missing, std::vector<std::string>{"extra"});
  EXPECT_FALSE(lltm.verified());
  EXPECT_FALSE(run.verified());
  EXPECT_FALSE(run.extensions[1].verified());  // no op ran: never a pass
}

TEST(PortVerify, OnlyEveryOpVerifiedWithNothingMissingIsAPass) {
  VerifyRun run = verify_from_json(kResult);
  run.extensions.pop_back();
  auto& lltm = run.extensions[0];
  lltm.missing.clear();
  lltm.ops[1].status = OpVerdict::Status::Verified;
  EXPECT_TRUE(run.verified());
  run.left_out = {"ext/kernels.cu"};  // CUDA code that never ran: not a pass
  EXPECT_FALSE(run.verified());
  EXPECT_NE(reporters::render_verify_text(run).find("not built (no GPU is assumed), so not verified: ext/kernels.cu"),
            std::string::npos);
  run.left_out.clear();
  lltm.stable_only = "lltm.cpp reads a header outside the stable API: /usr/include/c10/util/Optional.h";
  EXPECT_FALSE(run.verified());
  lltm.stable_only.clear();
  lltm.ops[0].status = OpVerdict::Status::NotVerified;
  EXPECT_FALSE(run.verified());
}

TEST(PortVerify, AnErrorOrNoJsonIsARunThatDidNotHappen) {
  const VerifyRun error = verify_from_json(R"J({"error": "torch cannot be imported: ModuleNotFoundError"})J");
  EXPECT_FALSE(error.ran);
  EXPECT_EQ(error.why_not, "torch cannot be imported: ModuleNotFoundError");
  EXPECT_FALSE(error.verified());
  EXPECT_FALSE(verify_from_json("Traceback (most recent call last):").ran);
}

TEST(PortVerify, TheReportSaysPerOpWhatHappened) {
  VerifyRun run = verify_from_json(kResult);
  run.python = "/usr/bin/python3";
  const std::string text = reporters::render_verify_text(run);
  EXPECT_NE(text.find("verify: torch 2.14.1 (/usr/bin/python3)"), std::string::npos) << text;
  EXPECT_NE(text.find("  ported and verified: lltm::forward on (float64[3, 5])"), std::string::npos) << text;
  EXPECT_NE(text.find("  ported, DIFFERS: lltm::backward: output[0]"), std::string::npos) << text;
  EXPECT_NE(text.find("  not ported: extra: the port registers no op of this name"), std::string::npos) << text;
  EXPECT_NE(text.find("1 verified, 1 differ, 0 not verified, 1 not ported; not built or loaded: lltm_cuda"),
            std::string::npos)
      << text;
  const auto j = nlohmann::json::parse(reporters::render_verify_json(run));
  EXPECT_EQ(j["verified"], false);
  EXPECT_EQ(j["extensions"][0]["ops"][1]["status"], "differs");
  EXPECT_EQ(j["extensions"][0]["stable_only"], true);
  EXPECT_EQ(j["extensions"][1]["port_build"], "the port does not load: OSError: undefined symbol: launch");
  EXPECT_EQ(reporters::render_verify_text(verify_from_json("{\"error\": \"no torch\"}")),
            "verify: nothing verified: no torch\n");
}

}  // namespace
}  // namespace torchabi::migration
