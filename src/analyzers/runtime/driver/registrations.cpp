#include "analyzers/runtime/driver/registrations.h"

#include <map>
#include <set>

#include "analyzers/runtime/driver/signatures.h"
#include "analyzers/runtime/shim/op_table.h"
#include "common/version.h"

namespace torchabi::runtime_driver {
namespace {

namespace rt = torchabi::runtime;

const char* kRegistrationHelp =
    "fix the registration so PyTorch accepts it: every m.def schema must parse and name its library's namespace, "
    "each op is defined once, and every m.impl names an op the extension defines";

ProtoFinding registration_finding(const std::string& op, const std::string& message,
                                  std::optional<findings::Severity> severity = std::nullopt) {
  ProtoFinding f;
  f.rule = "runtime-bad-registration";
  f.op = op;
  f.message = message;
  f.help = kRegistrationHelp;
  f.severity = severity;
  return f;
}

// "STABLE_TORCH_LIBRARY_IMPL(myops, CPU)"
std::string site_name(const rt::LibraryRecord& lib) {
  std::string s = std::string(rt::to_string(lib.kind)) + "(" + lib.ns;
  if (lib.kind == rt::LibraryKind::Impl) s += ", " + lib.dispatch_key;
  return s + ")";
}

std::string site(const rt::LibraryRecord& lib) {
  std::string s = site_name(lib);
  if (!lib.file.empty()) s += " at " + lib.file + ":" + std::to_string(lib.line);
  return s;
}

}  // namespace

RegistrationReport analyze_registrations(const rt::Registrations& regs) {
  RegistrationReport out;
  std::map<uint64_t, const rt::LibraryRecord*> libs;
  for (const auto& lib : regs.libraries) libs[lib.id] = &lib;

  if (regs.libraries.empty())
    out.facts.emplace_back("registrations", "none: the extension created no library while loading (no "
                                            "STABLE_TORCH_LIBRARY block ran), so it has no ops to run");
  for (const auto& lib : regs.libraries) {
    std::string where = lib.file.empty() ? "(no source location)" : lib.file + ":" + std::to_string(lib.line);
    out.facts.emplace_back("library " + site_name(lib), where + (lib.deleted ? " (deleted while loading)" : ""));
  }

  std::set<std::string> defined;
  for (const auto& def : regs.defs) {
    auto parsed = signature_from_schema(def.schema, def.ns);
    if (auto* err = std::get_if<std::string>(&parsed)) {
      out.findings.push_back(registration_finding(
          def.ns, "while loading: the schema '" + def.schema + "' does not parse (" + *err +
                      "); PyTorch fails to load the extension"));
      continue;
    }
    rt::OpSignature sig = std::get<rt::OpSignature>(parsed);
    if (sig.ns != def.ns) {
      out.findings.push_back(registration_finding(
          sig.qualified(), "while loading: the schema '" + def.schema + "' names namespace '" + sig.ns +
                               "' inside a library of namespace '" + def.ns + "'; PyTorch rejects it"));
      continue;
    }
    if (!defined.insert(sig.qualified()).second) {
      out.findings.push_back(registration_finding(
          sig.qualified(), "while loading: " + sig.qualified() + " is defined twice; PyTorch rejects the second def"));
      continue;
    }
    OpInfo info;
    info.sig = sig;
    out.ops.push_back(std::move(info));
  }

  std::set<std::string> keys_seen;
  for (const auto& impl : regs.impls) {
    bool matched = false;
    for (auto& op : out.ops) {
      if (!rt::impl_matches(impl, op.sig)) continue;
      matched = true;
      std::string key = impl.dispatch_key.empty() ? "catch-all" : impl.dispatch_key;
      if (std::find(op.dispatch_keys.begin(), op.dispatch_keys.end(), key) == op.dispatch_keys.end())
        op.dispatch_keys.push_back(key);
    }
    if (!matched && impl.ns != "aten") {
      std::string where = libs.count(impl.library) ? " in " + site(*libs[impl.library]) : "";
      out.findings.push_back(registration_finding(
          impl.ns + "::" + impl.name,
          "while loading: a kernel for '" + impl.name + "'" + where +
              " implements an op no library of this extension defines; calling it fails unless another library "
              "defines it",
          findings::Severity::Warning));
    }
  }
  for (auto& op : out.ops) op.cpu_kernel = rt::resolve_cpu_kernel(regs, op.sig);

  std::set<std::string> versions;
  bool legacy_impl = false;
  for (const auto& impl : regs.impls) {
    if (impl.extension_build_version) versions.insert(TorchVersion::decode(*impl.extension_build_version).str());
    else legacy_impl = true;
  }
  if (!versions.empty() || legacy_impl) {
    std::string v;
    for (const auto& s : versions) v += (v.empty() ? "" : ", ") + s;
    if (legacy_impl)
      v += std::string(v.empty() ? "" : "; ") + "not reported by kernels registered with aoti_torch_library_impl "
                                                  "(headers older than 2.10)";
    out.facts.emplace_back("extension_build_version", v);
  }
  for (const auto& op : out.ops) {
    std::string kernels;
    for (const auto& k : op.dispatch_keys) kernels += (kernels.empty() ? "" : ", ") + k;
    out.facts.emplace_back("op " + op.sig.qualified(),
                           op.sig.text + " [" + (kernels.empty() ? "no kernel" : kernels) + "]");
  }
  return out;
}

}  // namespace torchabi::runtime_driver
