// `torchabi verify-port ORIGINAL PORT`: whether a port behaves like the
// extension it was ported from. Both trees are built against a real torch
// (--torch PYTHON), the port also with the stable headers alone, and every op
// the port registers runs next to the original's function or op of the same
// name on the same inputs. For hand ports and pull requests (ORIGINAL: a
// checkout of the main branch); `migrate --fix --verify` runs the same on the
// tree before and after its rewrites.
#include <filesystem>
#include <memory>

#include "analyzers/migration/port_verify/port_verify.h"
#include "cli/audit_target.h"
#include "cli/commands.h"
#include "cli/port_verification.h"
#include "cli/report_options.h"
#include "common/input_error.h"
#include "inputs/api_catalog.h"

namespace torchabi::cli {

namespace fs = std::filesystem;

namespace {

struct VerifyPortArgs {
  std::string original, port;
  std::string target_version;
  VerifyOptions verify;
};

int run(const VerifyPortArgs& a) {
  for (const auto& d : {a.original, a.port}) {
    std::error_code ec;
    if (!fs::is_directory(d, ec)) throw InputError(d, "is not a directory (verify-port takes two source trees)");
  }
  validate_verify_options(a.verify);
  migration::VerifyRequest req;
  req.original_root = fs::absolute(a.original).lexically_normal().string();
  req.port_root = fs::absolute(a.port).lexically_normal().string();
  if (!a.target_version.empty()) {
    const auto& catalog = inputs::ApiCatalog::current();
    if (const auto v = audit_target_version(a.target_version, "", {}, catalog)) req.target_hex = v->hex();
  }
  req.python = a.verify.python;
  req.inputs_file = a.verify.inputs.empty() ? "" : fs::absolute(a.verify.inputs).string();
  req.timeout_seconds = a.verify.timeout;
  req.extensions = migration::extensions_to_verify(req.original_root, req.port_root, {});
  return finish_verification(migration::verify_port(req), a.verify);
}

}  // namespace

void add_verify_port_command(CLI::App& app, Dispatch& d) {
  auto* cmd = app.add_subcommand("verify-port",
                                 "Build an extension and its stable port against a real torch and compare every op's "
                                 "outputs (the port also compiled with the stable headers alone)");
  auto args = std::make_shared<VerifyPortArgs>();
  cmd->add_option("ORIGINAL", args->original, "The extension's source tree before the port")->required();
  cmd->add_option("PORT", args->port, "The ported source tree")->required();
  cmd->add_option("--target-version", args->target_version,
                  "TORCH_TARGET_VERSION for the port (2.10, 0x020a000000000000; default: the headers' own release)");
  cmd->add_option("--format", args->verify.format, "text (default) or json");
  cmd->add_option("-o,--output", args->verify.output, "Write the report to FILE, atomically");
  add_verify_options(*cmd, args->verify, "Verify");
  cmd->callback([&d, args] { d.run = [args] { return run(*args); }; });
}

}  // namespace torchabi::cli
