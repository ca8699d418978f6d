#include "reporters/port_verify_reporter.h"

#include "common/json_io.h"

namespace torchabi::reporters {

using migration::OpVerdict;
using nlohmann::json;

namespace {

const char* verdict_words(OpVerdict::Status s) {
  switch (s) {
    case OpVerdict::Status::Verified: return "ported and verified";
    case OpVerdict::Status::Differs: return "ported, DIFFERS";
    case OpVerdict::Status::NotVerified: break;
  }
  return "ported, not verified";
}

std::string sources_of(const migration::ExtensionVerdict& e) {
  std::string out;
  for (const auto& s : e.sources) out += (out.empty() ? "" : ", ") + s;
  return out;
}

}  // namespace

std::string render_verify_text(const migration::VerifyRun& run) {
  if (!run.ran) return "verify: nothing verified: " + run.why_not + "\n";
  std::string out = "verify: torch " + run.torch_version + " (" + run.python + ")\n";
  size_t verified = 0, differs = 0, unverified = 0, missing = 0;
  std::string unloaded;  // extensions whose port never ran: no op to count
  for (const auto& e : run.extensions) {
    if (!e.port_build.empty()) unloaded += (unloaded.empty() ? "" : ", ") + e.name;
    out += e.name + " (" + sources_of(e) + "): ";
    out += e.stable_only.empty() ? "compiles with the stable headers alone" : e.stable_only;
    out += e.port_build.empty() ? "; the port builds and loads\n" : "; " + e.port_build + "\n";
    for (const auto& o : e.ops) {
      out += "  " + std::string(verdict_words(o.status)) + ": " + o.op;
      if (o.status == OpVerdict::Status::Verified && !o.inputs.empty()) out += " on " + o.inputs;
      if (!o.why.empty()) out += ": " + o.why;
      out += "\n";
      (o.status == OpVerdict::Status::Verified ? verified : o.status == OpVerdict::Status::Differs ? differs : unverified)++;
    }
    for (const auto& m : e.missing) {
      out += "  not ported: " + m + ": the port registers no op of this name\n";
      ++missing;
    }
  }
  for (const auto& f : run.left_out) out += "not built (no GPU is assumed), so not verified: " + f + "\n";
  out += "verify: " + std::to_string(verified) + " verified, " + std::to_string(differs) + " differ, " +
         std::to_string(unverified) + " not verified, " + std::to_string(missing) + " not ported" +
         (unloaded.empty() ? "" : "; not built or loaded: " + unloaded) + "\n";
  return out;
}

std::string render_verify_json(const migration::VerifyRun& run) {
  json j = {{"ran", run.ran}, {"python", run.python}, {"verified", run.verified()}};
  if (!run.ran) j["why_not"] = run.why_not;
  j["torch"] = run.torch_version;
  j["not_built"] = run.left_out;
  j["extensions"] = json::array();
  for (const auto& e : run.extensions) {
    json ops = json::array();
    for (const auto& o : e.ops)
      ops.push_back({{"op", o.op}, {"status", migration::status_name(o.status)}, {"why", o.why}, {"inputs", o.inputs}});
    j["extensions"].push_back({{"name", e.name},
                               {"sources", e.sources},
                               {"stable_only", e.stable_only.empty() ? json(true) : json(e.stable_only)},
                               {"port_build", e.port_build.empty() ? json(true) : json(e.port_build)},
                               {"original_build", e.original_build.empty() ? json(true) : json(e.original_build)},
                               {"ops", ops},
                               {"not_ported", e.missing},
                               {"verified", e.verified()}});
  }
  return json_io::dump(j, 2) + "\n";
}

}  // namespace torchabi::reporters
