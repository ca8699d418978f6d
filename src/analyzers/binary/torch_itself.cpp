#include "analyzers/binary/torch_itself.h"

namespace torchabi::binary {

std::string torch_itself_line(const std::string& version) {
  return "PyTorch" + (version.empty() ? std::string() : " " + version) + " itself: not an extension";
}

findings::Subject torch_itself_subject(const inputs::TorchDistribution& torch, size_t libraries) {
  findings::Subject s;
  s.kind = "distribution";
  s.path = torch.package_dir;
  s.loads_on = torch_itself_line(torch.release());
  s.facts.emplace_back("not audited", std::to_string(libraries) + (libraries == 1 ? " library" : " libraries") +
                                          " of PyTorch's own (what extensions load on)");
  s.facts.emplace_back("recognised by", torch.evidence);
  return s;
}

findings::Finding torch_itself_note(const inputs::TorchDistribution& torch, const std::string& path) {
  findings::Location where;
  where.file = path;
  findings::Finding f = findings::make_finding(
      "binary-torch-itself", where,
      "this library is part of PyTorch" + (torch.version.empty() ? std::string() : " " + torch.version) +
          " itself (" + torch.package_dir + "), not an extension",
      "its imports of PyTorch's C++ API are PyTorch's own business: audit the extensions built against it instead "
      "(a directory or an environment lists PyTorch as one line)");
  f.notes.push_back("recognised by " + torch.evidence);
  return f;
}

}  // namespace torchabi::binary
