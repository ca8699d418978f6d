#include "analyzers/runtime/driver/load_failure.h"

#include <cxxabi.h>

#include <cstdlib>
#include <filesystem>
#include <map>

#include "analyzers/runtime/driver/extension_imports.h"
#include "analyzers/runtime/driver/standins.h"
#include "common/input_error.h"
#include "common/text.h"
#include "inputs/load_diagnosis.h"

namespace torchabi::runtime_driver {

namespace {

namespace fs = std::filesystem;

using text::join;

std::string demangle(const std::string& sym) {
  int status = 0;
  char* dem = abi::__cxa_demangle(sym.c_str(), nullptr, nullptr, &status);
  std::string out = status == 0 && dem ? dem : "";
  std::free(dem);
  return out;
}

// Where the extension is, as a message calls it: itself, or a library it needs.
std::string whose(const std::string& lib, const std::string& extension) {
  return lib == extension ? "the extension" : fs::path(lib).filename().string() + " (which the extension needs)";
}

bool is_pytorch_symbol(const std::string& sym, const std::string& demangled) {
  if (sym.starts_with("aoti_torch_") || sym.starts_with("torch_")) return true;
  for (const char* ns : {"c10::", "at::", "torch::", "caffe2::"})
    if (demangled.starts_with(ns) || demangled.find(std::string(" ") + ns) != std::string::npos ||
        demangled.find(std::string("<") + ns) != std::string::npos)
      return true;
  return false;
}

}  // namespace

std::string undefined_symbol_of(const std::string& msg) {
  const std::string key = "undefined symbol: ";
  auto p = msg.find(key);
  if (p == std::string::npos) return "";
  std::string s = msg.substr(p + key.size());
  auto end = s.find_first_of(" \t\n(,");
  return s.substr(0, end);
}

std::vector<ProtoFinding> explain_load_failure(const std::string& extension, const std::string& loader_message,
                                               const std::string& root, const inputs::RulesSource& rules) {
  std::map<std::string, bool> torch_names;
  auto is_torch = [&](std::string_view n) {
    auto [it, fresh] = torch_names.emplace(std::string(n), false);
    if (fresh) it->second = !torch_library_names({it->first}, rules).empty();
    return it->second;
  };
  const inputs::LoadDiagnosis d = inputs::diagnose_loading(extension, root, is_torch);
  const std::string machine = root.empty() ? "this machine" : root;
  const std::string loader = "the dynamic loader says: " + loader_message;
  std::vector<ProtoFinding> out;
  for (const auto& s : d.runtime) {
    ProtoFinding f;
    f.rule = "runtime-c-runtime-too-old";
    const bool c_runtime = s.file.starts_with("libc.so") || s.file.starts_with("libstdc++.so") ||
                           s.file.starts_with("libgcc_s.so") || s.file.starts_with("libm.so");
    f.message = whose(s.needed_by, extension) + " needs a newer " + (c_runtime ? "C/C++ runtime" : s.file) + " than " +
                machine + "'s: " + join(s.missing) + " of " + s.file + "; " + machine + "'s " + s.machine_copy +
                (s.newest.empty() ? " defines none of that family" : " goes up to " + join(s.newest));
    f.notes.push_back(loader);
    f.help = "run it where the C/C++ runtime is at least that new (`torchabi run --root DIR` with a root filesystem "
             "of the distribution it was built on, such as a chroot), or build it with an older toolchain (the "
             "oldest distribution it must support, or a manylinux image); PyTorch's stable ABI is not the problem";
    out.push_back(std::move(f));
  }
  for (const auto& m : d.missing) {
    ProtoFinding f;
    f.rule = "runtime-missing-library";
    f.message = whose(m.needed_by, extension) + " needs " + m.name + ", which " + machine +
                " does not have (searched its RUNPATH, LD_LIBRARY_PATH and the loader's directories)";
    f.notes.push_back(loader);
    f.help = "install the package that provides " + m.name + ", ship it beside the extension (with an $ORIGIN "
             "RUNPATH), or run where it is installed (`torchabi run --root DIR`); it is not a PyTorch library, so the "
             "reference runtime cannot stand in for it";
    out.push_back(std::move(f));
  }
  if (!out.empty()) return out;

  ProtoFinding f;
  const std::string sym = undefined_symbol_of(loader_message);
  const std::string dem = sym.empty() ? "" : demangle(sym);
  if (!sym.empty() && !is_pytorch_symbol(sym, dem)) {
    f.rule = "runtime-unresolved-symbol";
    const bool python = sym.starts_with("Py") || sym.starts_with("_Py");
    f.message = "the extension imports " + (dem.empty() ? sym : dem) + ", which no library it loads defines" +
                (python ? " (it is Python's C API)" : "");
    if (!dem.empty()) f.notes.push_back(sym + " is " + dem);
    f.notes.push_back(loader);
    // The loader names the first import it cannot bind; PyTorch's unstable C++ may come next.
    size_t unstable = 0;
    std::string first_unstable;
    try {
      for (const auto& u : read_extension_imports(extension).undefined) {
        if (!u.starts_with("_Z")) continue;
        const std::string d = demangle(u);
        if (d.empty() || !is_pytorch_symbol(u, d)) continue;
        if (!unstable++) first_unstable = d;
      }
    } catch (const InputError&) {
    }
    if (unstable)
      f.notes.push_back("it also imports " + std::to_string(unstable) + " C++ function" + (unstable == 1 ? "" : "s") +
                        " of PyTorch's (" + first_unstable + (unstable > 1 ? ", ..." : "") +
                        "): without Python it would fail on those next; `torchabi audit` lists them");
    f.help = python ? "the library is a Python module that needs the interpreter's symbols: run the library that "
                      "registers the ops (without Python's C API), or declare the ops in a library of their own"
                    : "link the library that defines it (DT_NEEDED), or build the extension against the same "
                      "version of that library as the one installed";
    out.push_back(std::move(f));
    return out;
  }
  f.rule = "runtime-load-failed";
  f.message = "the extension cannot be loaded without PyTorch: " + loader_message;
  if (!sym.empty()) {
    if (!dem.empty()) f.notes.push_back(sym + " is " + dem);
    f.notes.push_back(sym + " is not a stable C function: the extension depends on libtorch beyond the stable ABI");
  }
  f.help = "build the extension against the stable ABI only (torch/csrc/stable, torch/headeronly and the C shim); "
           "`torchabi audit` lists every unstable import";
  out.push_back(std::move(f));
  return out;
}

}  // namespace torchabi::runtime_driver
