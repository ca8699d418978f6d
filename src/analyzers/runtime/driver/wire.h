// The messages a child process sends its supervisor, one JSON object per line
// on a pipe: what the extension registered, the cases it will run, and each
// case's findings as they complete. A case that never completes (crash,
// hang) is what the supervisor reports itself.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "findings/finding.h"

namespace torchabi::runtime_driver {

// A finding as the child knows it: everything but the file it is about.
struct ProtoFinding {
  std::string rule;
  std::optional<findings::Severity> severity;  // unset: the rule's default
  std::string op;                              // "myops::add" (the finding's symbol)
  std::string message;
  std::string help;
  std::vector<std::string> notes;
};

nlohmann::json to_json(const ProtoFinding& f);
ProtoFinding proto_from_json(const nlohmann::json& j);

// Writes one message (a line) to `fd`, retrying short writes.
void send(int fd, const nlohmann::json& message);

}  // namespace torchabi::runtime_driver
