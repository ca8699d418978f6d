#include "analyzers/runtime/driver/wire.h"

#include "common/json_io.h"

#include <cerrno>
#include <unistd.h>

namespace torchabi::runtime_driver {

nlohmann::json to_json(const ProtoFinding& f) {
  nlohmann::json j = {{"rule", f.rule}, {"op", f.op}, {"message", f.message}, {"help", f.help}, {"notes", f.notes}};
  if (f.severity) j["severity"] = findings::to_string(*f.severity);
  return j;
}

ProtoFinding proto_from_json(const nlohmann::json& j) {
  ProtoFinding f;
  f.rule = j.value("rule", "");
  f.op = j.value("op", "");
  f.message = j.value("message", "");
  f.help = j.value("help", "");
  f.notes = j.value("notes", std::vector<std::string>{});
  if (j.contains("severity")) f.severity = findings::parse_severity(j["severity"].get<std::string>());
  return f;
}

void send(int fd, const nlohmann::json& message) {
  std::string line = json_io::dump_lossy(message) + "\n";
  const char* p = line.data();
  size_t left = line.size();
  while (left > 0) {
    ssize_t n = write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    p += n;
    left -= static_cast<size_t>(n);
  }
}

}  // namespace torchabi::runtime_driver
