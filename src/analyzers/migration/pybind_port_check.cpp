#include "analyzers/migration/pybind_port_check.h"

#include <filesystem>

#include "analyzers/migration/pybind_port.h"
#include "analyzers/source/tu_check.h"
#include "common/text.h"

namespace torchabi::migration {

namespace {

// A C++ identifier from a file name: lltm_cuda.cpp -> lltm_cuda.
std::string library_name(const std::string& file) {
  std::string stem = std::filesystem::path(file).stem().string(), out;
  for (char c : stem) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "ext_" + out;
  return out;
}

class PybindPortCheck final : public source::TuCheck {
public:
  void run(source::CheckContext& ctx) override {
    for (const auto& u : ctx.tu.macro_uses()) {
      if (u.name != "PYBIND11_MODULE" || !u.range.valid()) continue;
      const std::string_view text = ctx.tu.file_text(u.range.file);
      if (u.range.begin >= text.size()) continue;
      std::string why;
      auto port = port_pybind_module(text, u.range.begin, library_name(u.range.file), why);
      if (!port) continue;  // lint's own finding (blocked) stays
      findings::Finding f;
      f.rule = "source-unstable-macro";
      f.location = source::location_of(u.range);
      f.location.symbol = u.name;
      f.message = std::string(port->import_only ? kPybindImportOnly : kPybindPort) + u.name;
      if (port->import_only) {
        f.help = "The module is empty: it only makes the library importable. Write its PyInit function with "
                 "Python's C API (<Python.h>, in the limited API), which needs neither pybind11 nor libtorch_python.";
        source::Range whole = u.range;
        whole.end = static_cast<uint32_t>(port->end);
        f.fix = source::make_fix(whole, port->replacement, false, "write the empty module with Python's C API");
        f.fix->needs = TorchVersion::parse_dotted("2.9");
        ctx.report(std::move(f));
        continue;
      }
      f.help = "Register the functions as operators of the stable library " + port->library +
               " and call them from Python as torch.ops." + port->library + ".<name> (load the built library with "
               "torch.ops.load_library). Python callers to change: " + text::join(port->python_calls, "; ") + ".";
      bool lists = false;
      for (const auto& s : port->schemas) lists = lists || s.find("[]") != std::string::npos;
      source::Range r = u.range;
      r.end = static_cast<uint32_t>(port->end);
      f.fix = source::make_fix(r, port->replacement, false,
                               "register " + std::to_string(port->schemas.size()) + " function" +
                                   (port->schemas.size() == 1 ? "" : "s") + " as operators of " + port->library);
      // TORCH_BOX of a function returning std::vector<Tensor> converts lists: 2.10.
      f.fix->needs = TorchVersion::parse_dotted(lists ? "2.10" : "2.9");
      ctx.report(std::move(f));
    }
  }
};

}  // namespace

void register_pybind_port_check() {
  source::register_tu_check("migrate-pybind-port", [] { return std::make_unique<PybindPortCheck>(); });
}

}  // namespace torchabi::migration
