#include "analyzers/migration/port_verify/port_verify.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "analyzers/migration/port_verify/opcheck_run_py.h"  // generated: the input search opcheck uses
#include "analyzers/migration/port_verify/verify_port_py.h"  // generated from verify_port.py
#include "analyzers/migration/fix_applier.h"  // read_source_file
#include "analyzers/migration/registration_scan.h"
#include "common/input_error.h"
#include "common/json_io.h"
#include "common/text.h"
#include "inputs/project/environment/build_environment.h"
#include "inputs/project/project_copy.h"
#include "inputs/project/timed_child.h"

namespace torchabi::migration {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

bool is_source(const fs::path& p) {
  static const std::set<std::string> kExt = {".cpp", ".cc", ".cxx", ".C", ".cu"};
  return kExt.count(p.extension().string()) > 0;
}

bool registers(const fs::path& file) {
  try {
    return !scan_code_blocks(read_source_file(file.string())).empty();
  } catch (const InputError&) {
    return false;
  }
}

// Build output and version control: never sources of the extension.
bool skipped_dir(const fs::path& p) {
  const std::string n = p.filename().string();
  return n == ".git" || n == "build" || n == "dist" || n.starts_with(".") || n.ends_with(".egg-info");
}

std::vector<std::string> cxx_sources_under(const fs::path& root) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (it->is_directory(ec) && skipped_dir(it->path())) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec) && is_source(it->path()))
      out.push_back(it->path().lexically_relative(root).generic_string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::vector<VerifyExtension> extensions_to_verify(const std::string& original_root, const std::string& port_root,
                                                  const std::vector<std::string>& sources) {
  const std::vector<std::string> all = sources.empty() ? cxx_sources_under(port_root) : sources;
  std::vector<std::string> registering, helpers, cuda;
  for (const auto& s : all) {
    if (fs::path(s).extension() == ".cu") cuda.push_back(s);
    if (!is_source(s) || fs::path(s).extension() == ".cu") continue;  // no GPU is assumed
    (registers(fs::path(port_root) / s) ? registering : helpers).push_back(s);
  }
  std::vector<VerifyExtension> out;
  for (const auto& r : registering) {
    VerifyExtension e;
    e.name = fs::path(r).stem().string();
    e.port_sources = {r};
    e.port_sources.insert(e.port_sources.end(), helpers.begin(), helpers.end());
    e.cuda_sources = cuda;
    for (const auto& s : e.port_sources)
      if (fs::exists(fs::path(original_root) / s)) e.original_sources.push_back(s);
    out.push_back(std::move(e));
  }
  return out;
}

const char* status_name(OpVerdict::Status s) {
  switch (s) {
    case OpVerdict::Status::Verified: return "verified";
    case OpVerdict::Status::Differs: return "differs";
    case OpVerdict::Status::NotVerified: break;
  }
  return "not_verified";
}

bool ExtensionVerdict::verified() const {
  if (!stable_only.empty() || !port_build.empty() || !missing.empty() || ops.empty()) return false;
  return std::all_of(ops.begin(), ops.end(), [](const OpVerdict& o) { return o.status == OpVerdict::Status::Verified; });
}

bool VerifyRun::verified() const {
  return ran && !extensions.empty() && left_out.empty() &&
         std::all_of(extensions.begin(), extensions.end(), [](const ExtensionVerdict& e) { return e.verified(); });
}

VerifyRun verify_from_json(const std::string& json_line) {
  VerifyRun run;
  const json j = json_io::parse_or_discarded(json_line);
  if (j.is_discarded() || !j.is_object()) {
    run.why_not = "the verification script printed no result";
    return run;
  }
  if (j.contains("error")) {
    run.why_not = j.value("error", "");
    return run;
  }
  run.ran = true;
  run.torch_version = j.value("torch", "");
  for (const auto& e : j.value("extensions", json::array())) {
    ExtensionVerdict v;
    v.name = e.value("name", "");
    v.stable_only = e.value("stable_only", "");
    v.port_build = e.value("port_build", "");
    v.original_build = e.value("original_build", "");
    for (const auto& s : e.value("sources", json::array()))
      if (s.is_string()) v.sources.push_back(s.get<std::string>());
    for (const auto& m : e.value("missing", json::array()))
      if (m.is_string()) v.missing.push_back(m.get<std::string>());
    for (const auto& o : e.value("ops", json::array())) {
      OpVerdict op;
      op.op = o.value("op", "");
      const std::string status = o.value("status", "");
      op.status = status == "verified" ? OpVerdict::Status::Verified
                  : status == "differs" ? OpVerdict::Status::Differs
                                        : OpVerdict::Status::NotVerified;
      op.why = o.value("why", "");
      op.inputs = o.value("inputs", "");
      v.ops.push_back(std::move(op));
    }
    run.extensions.push_back(std::move(v));
  }
  return run;
}

VerifyRun verify_port(const VerifyRequest& request) {
  VerifyRun run;
  run.python = request.python;
  if (request.extensions.empty()) {
    run.why_not = "the port has no C++ source that registers an op";
    return run;
  }
  inputs::ScratchDir scratch("verify-port");
  if (!scratch.ok()) {
    run.why_not = "no temporary directory for the run";
    return run;
  }
  const fs::path tmp = fs::canonical(scratch.path());
  // Copies: the interpreter sees neither of the user's trees, and both builds write next to nothing of theirs.
  const fs::path original = tmp / "original", port = tmp / "port", work = tmp / "work";
  try {
    for (const fs::path& d : {original, port, work}) fs::create_directories(d);
    inputs::copy_project_tree(request.original_root, original.string(), {inputs::kMaxScriptCopyBytes, ""});
    inputs::copy_project_tree(request.port_root, port.string(), {inputs::kMaxScriptCopyBytes, ""});
    if (!request.inputs_file.empty()) fs::copy_file(request.inputs_file, tmp / "inputs.py");
  } catch (const fs::filesystem_error& e) {
    run.why_not = std::string("the trees cannot be copied for the run: ") + e.what();
    return run;
  }
  std::ofstream(tmp / "verify_port.py", std::ios::binary) << generated::kVerifyPortPy;
  std::ofstream(tmp / "opcheck_run.py", std::ios::binary) << generated::kOpcheckRunPy;
  json spec = {{"target", request.target_hex},
               {"inputs", request.inputs_file.empty() ? "" : (tmp / "inputs.py").string()},
               {"work", work.string()},
               {"extensions", json::array()}};
  for (const auto& e : request.extensions)
    spec["extensions"].push_back({{"name", e.name},
                                  {"original_dir", original.string()},
                                  {"port_dir", port.string()},
                                  {"original_sources", e.original_sources},
                                  {"port_sources", e.port_sources},
                                  {"cuda_sources", e.cuda_sources}});
  std::ofstream(tmp / "spec.json", std::ios::binary) << json_io::dump(spec);
  inputs::BuildEnvironment env = inputs::make_build_environment({tmp.string(), "", request.python, {}, false});
  try {
    inputs::hand_over_writable(env.confinement);
  } catch (const fs::filesystem_error& e) {
    run.why_not = std::string("the scratch directory cannot be handed to the confined user: ") + e.what();
    return run;
  }
  const inputs::ChildResult r =
      inputs::run_timed({env.python, (tmp / "verify_port.py").string(), (tmp / "spec.json").string()}, tmp.string(),
                        request.timeout_seconds, &env.confinement);
  if (r.sandbox_unavailable) {
    run.why_not = "the interpreter cannot be confined here, so nothing was built (" + text::last_line(r.output) + ")";
    return run;
  }
  if (!r.started) {
    run.why_not = request.python + " cannot be started";
    return run;
  }
  if (r.timed_out) {
    run.why_not = "the verification did not finish within " + std::to_string(request.timeout_seconds) + " s";
    return run;
  }
  std::string last;  // the JSON result is the last line; torch may warn before it
  for (const auto& line : text::split(r.output, '\n'))
    if (!text::trim(line).empty() && text::trim(line).front() == '{') last = line;
  const std::string python = run.python;
  run = verify_from_json(last);
  run.python = python;
  std::set<std::string> cuda;
  for (const auto& e : request.extensions) cuda.insert(e.cuda_sources.begin(), e.cuda_sources.end());
  run.left_out.assign(cuda.begin(), cuda.end());
  if (!run.ran && run.why_not == "the verification script printed no result")
    run.why_not = request.python + " exited with status " + std::to_string(r.exit_code) + ": " + text::last_line(r.output);
  return run;
}

}  // namespace torchabi::migration
