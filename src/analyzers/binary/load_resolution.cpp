#include "analyzers/binary/load_resolution.h"

#include <algorithm>
#include <deque>
#include <elf.h>

#include "analyzers/binary/signature_match.h"
#include "analyzers/binary/symbol_classifier.h"
#include "common/input_error.h"
#include "inputs/elf_view.h"
#include "inputs/torch_install.h"

namespace torchabi::binary {

namespace {

using inputs::TorchLibrary;

int group_rank(const std::string& g) {
  static const char* const kOrder[] = {"stable-shim", "unknown-shim", "stable-c++", "unstable-c++", "other"};
  for (int i = 0; i < 5; ++i)
    if (g == kOrder[i]) return i;
  return 5;
}

// How the library calls itself in messages: its soname, as DT_NEEDED entries do.
std::string name_of(const TorchLibrary& l) { return l.soname.empty() ? l.names.front() : l.soname; }

class Resolver {
public:
  Resolver(const inputs::ElfView& lib, inputs::TorchInstall& torch, SymbolClassifier& classifier)
      : lib_(lib), torch_(torch), classifier_(classifier), in_closure_(torch.size(), 0), failed_(torch.size(), 0) {}

  LoadResolution run() {
    out_.load.torch = torch_.path();
    out_.load.version = torch_.version();
    read_needed();
    close_over();
    check_versions();
    check_symbols();
    explain_signatures();
    auto& l = out_.load;
    std::stable_sort(l.missing_symbols.begin(), l.missing_symbols.end(), [](const auto& a, const auto& b) {
      const int ga = group_rank(a.group), gb = group_rank(b.group);
      return ga != gb ? ga < gb : a.demangled < b.demangled;
    });
    for (size_t i : closure_) l.resolved_against.push_back(name_of(torch_.library(i)));
    std::sort(l.resolved_against.begin(), l.resolved_against.end());
    l.loads = l.missing_libraries.empty() && l.missing_versions.empty() && l.missing_symbols.empty();
    return std::move(out_);
  }

private:
  const TorchLibrary* load(size_t i) {
    if (failed_[i]) return nullptr;
    try {
      return &torch_.load(i);
    } catch (const InputError& e) {
      failed_[i] = 1;
      out_.failures.push_back({e.input(), e.what()});
      return nullptr;
    }
  }

  void add_root(size_t i) {
    if (in_closure_[i]) return;
    in_closure_[i] = 1;
    closure_.push_back(i);
  }

  // DT_NEEDED entries that are PyTorch's: found by name, or missing (then the
  // same library of this install stands in, so its symbols are still checked).
  void read_needed() {
    bool links_torch = false;
    for (auto needed : lib_.needed()) {
      if (auto i = torch_.find(needed)) {
        links_torch = true;
        add_root(*i);
        continue;
      }
      if (!torch_.is_torch_name(needed)) continue;
      links_torch = true;
      findings::MissingLibrary m;
      m.needed = std::string(needed);
      if (auto j = torch_.find_stem(inputs::TorchLibraryNames::stem(needed))) {
        if (const TorchLibrary* l = load(*j)) {
          m.available = l->names;
          if (!l->soname.empty() && !l->has_name(l->soname)) m.available.push_back(l->soname + " (soname)");
        }
        add_root(*j);
      }
      out_.load.missing_libraries.push_back(std::move(m));
    }
    if (!links_torch) {
      out_.load.assumed_global = true;
      for (size_t i = 0; i < torch_.size(); ++i) add_root(i);
    }
  }

  // The install's libraries the roots need, transitively (the dynamic
  // linker's breadth-first load order).
  void close_over() {
    for (size_t k = 0; k < closure_.size(); ++k) {
      const TorchLibrary* l = load(closure_[k]);
      if (!l) continue;
      for (const auto& n : l->needed)
        if (auto i = torch_.find(n)) add_root(*i);
    }
  }

  std::optional<size_t> library_for(std::string_view file) {
    if (auto i = torch_.find(file)) return i;
    if (torch_.is_torch_name(file)) return torch_.find_stem(inputs::TorchLibraryNames::stem(file));
    return std::nullopt;
  }

  // A required version the named library does not define is fatal (unless
  // weak); a library without version definitions only earns a warning.
  void check_versions() {
    for (const auto& need : lib_.version_needs()) {
      if (need.weak) continue;
      auto i = library_for(need.file);
      if (!i) continue;
      const TorchLibrary* l = load(*i);
      if (!l || !l->exports.defines_versions() || l->exports.defines_version(need.name)) continue;
      findings::MissingVersion m;
      m.library = std::string(need.file);
      m.version = std::string(need.name);
      for (auto v : l->exports.version_definitions()) m.defined.emplace_back(v);
      out_.load.missing_versions.push_back(std::move(m));
    }
  }

  bool resolves(std::string_view name, std::string_view version) {
    for (size_t i : closure_) {
      const TorchLibrary* l = load(i);
      if (!l) continue;
      bool bound = false;
      l->exports.for_each(name, [&](const inputs::ExportedSymbol& d) { bound = bound || l->exports.binds(d, version); });
      if (bound) return true;
    }
    return false;
  }

  void check_symbols() {
    for (size_t i = 1; i < lib_.symbol_count(); ++i) {
      const inputs::DynSymbol info = lib_.symbol(i, /*with_name=*/false);
      if (info.defined || info.bind == STB_LOCAL) continue;
      const inputs::DynSymbol s = lib_.symbol(i);
      if (s.name.empty()) continue;
      const inputs::SymbolVersion ver = lib_.version(s.version);
      // GLIBC_2.34 of libc.so.6 and the like: resolved outside PyTorch.
      if (!ver.file.empty() && !torch_.is_torch_name(ver.file)) continue;
      if (resolves(s.name, ver.name)) continue;
      // An unresolved weak import is left null; the library still loads.
      if (info.bind == STB_WEAK) continue;

      SymbolClass c = classifier_.classify(s.name, /*want_text=*/true);
      std::vector<std::string> other_versions, other_libraries;
      for (size_t li : closure_) {
        const TorchLibrary* l = load(li);
        if (!l) continue;
        l->exports.for_each(s.name, [&](const inputs::ExportedSymbol& d) {
          other_versions.push_back(std::string(s.name) + (d.version.empty() ? "" : (d.hidden ? "@" : "@@") + std::string(d.version)) +
                                   " in " + name_of(*l));
        });
      }
      // Libraries it does not link are searched only for names that can be
      // PyTorch's: C shims and at::/c10::/torch:: (classified), versioned
      // against its libraries, or C++ in no known namespace (THPVariable_Wrap).
      // A plain C name (the Python C API) would only make every library of
      // the install be read, for nothing.
      if (c.kind != SymbolKind::Other || !ver.file.empty() || s.name.starts_with("_Z"))
        for (size_t li = 0; li < torch_.size(); ++li) {
          if (in_closure_[li]) continue;
          const TorchLibrary* l = load(li);
          if (l && l->exports.contains(s.name)) other_libraries.push_back(name_of(*l));
        }
      const bool torchs = c.kind != SymbolKind::Other || !ver.file.empty() || !other_versions.empty() ||
                          !other_libraries.empty();
      if (!torchs) continue;

      findings::MissingSymbol m;
      m.symbol = std::string(s.name);
      m.demangled = c.demangled.empty() ? classifier_.demangle(s.name) : c.demangled;
      m.version = std::string(ver.name);
      m.group = to_string(c.kind);
      if (!other_libraries.empty()) {
        m.reason = "other-library";
        m.candidates = std::move(other_libraries);
      } else if (!other_versions.empty()) {
        m.reason = "other-version";
        m.candidates = std::move(other_versions);
      } else {
        m.reason = "absent";
      }
      out_.load.missing_symbols.push_back(std::move(m));
    }
  }

  // For C++ functions nowhere in the install: the same function with other parameters.
  void explain_signatures() {
    std::vector<size_t> which;
    std::vector<std::string> mangled;
    for (size_t i = 0; i < out_.load.missing_symbols.size(); ++i) {
      const auto& m = out_.load.missing_symbols[i];
      if (m.reason != "absent" || !m.symbol.starts_with("_Z")) continue;
      which.push_back(i);
      mangled.push_back(m.symbol);
    }
    if (mangled.empty()) return;
    auto found = find_other_signatures(mangled, torch_);
    for (size_t k = 0; k < which.size(); ++k) {
      if (found[k].empty()) continue;
      auto& m = out_.load.missing_symbols[which[k]];
      m.reason = "other-signature";
      for (const auto& o : found[k]) m.candidates.push_back(o.demangled + " in " + o.library);
    }
  }

  const inputs::ElfView& lib_;
  inputs::TorchInstall& torch_;
  SymbolClassifier& classifier_;
  std::vector<size_t> closure_;
  std::vector<char> in_closure_, failed_;
  LoadResolution out_;
};

}  // namespace

LoadResolution resolve_on_torch(const inputs::ElfView& library, inputs::TorchInstall& torch,
                                SymbolClassifier& classifier) {
  return Resolver(library, torch, classifier).run();
}

}  // namespace torchabi::binary
