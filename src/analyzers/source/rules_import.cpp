#include "analyzers/source/rules_import.h"
#include "common/json_io.h"
#include "common/text.h"

#include <clang-c/Index.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

#include "analyzers/source/boxable_types.h"
#include "analyzers/source/cursor_utils.h"
#include "analyzers/source/feature_guards.h"
#include "common/atomic_file.h"
#include "common/input_error.h"
#include "inputs/api_catalog.h"
#include "inputs/rules_source.h"

namespace torchabi::source {

namespace fs = std::filesystem;

bool has_stable_headers(const std::string& dir) {
  std::error_code ec;
  return fs::is_directory(fs::path(dir) / "torch" / "csrc" / "stable", ec);
}

std::vector<std::string> stable_header_files(const std::string& dir, const HeaderClassifier& classifier) {
  // Every header under DIR/torch that rules/api/headers.yaml calls stable:
  // torch/csrc/stable/**, torch/headeronly/**, the C shims and the generated
  // c_shim_*.h — whatever a newer torch adds there is read too.
  std::vector<std::string> out;
  std::error_code ec;
  const fs::path root(dir);
  for (auto it = fs::recursive_directory_iterator(root / "torch", ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->path().extension() != ".h") continue;
    const std::string name = it->path().lexically_relative(root).generic_string();
    if (classifier.classify(name) == HeaderKind::Stable) out.push_back(it->path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

namespace {

// Records the declarations of one parse of the stable headers. Each is dated
// by the TORCH_FEATURE_VERSION guards around it (FeatureGuards of its file),
// not by the target of the parse that saw it.
struct Importer {
  const HeaderClassifier& classifier;
  TorchVersion baseline;
  std::string dir;
  const std::map<std::string, FeatureGuards>& guards;  // by absolute path
  std::map<std::string, StableApi> cxx;
  std::map<std::string, ImportedCFunction> c_functions;
  std::set<std::string> headers;
  bool in_extern_c = false;  // inside a linkage specification (the C shims)

  // Include-relative name of a stable header, or "" when `file` is not one.
  std::string stable_name(const std::string& path) {
    std::string name = classifier.torch_name(path, {dir});
    return !name.empty() && classifier.classify(name) == HeaderKind::Stable ? name : std::string();
  }

  // The lowest release the declaration at `line` exists for; baseline when
  // the guards set no lower bound above it.
  std::pair<TorchVersion, bool> since_at(const std::string& path, unsigned line) {
    auto it = guards.find(path);
    if (it == guards.end()) return {baseline, true};
    auto low = it->second.compiled_at(line).lowest();
    if (!low) return {baseline, true};  // clang compiled what we read as dead: trust clang
    TorchVersion v = TorchVersion::decode(*low);
    if (v <= baseline) return {baseline, true};
    return {v, false};
  }

  // Overloads and redeclarations: the oldest one decides when the name first
  // became available.
  static bool older(const StableApi& a, const StableApi& than) {
    return (a.baseline && !than.baseline) || (!a.baseline && !than.baseline && a.since < than.since);
  }

  void record(StableApi api) {
    auto it = cxx.find(api.name);
    if (it == cxx.end()) cxx.emplace(api.name, std::move(api));
    else if (older(api, it->second)) it->second.since = api.since, it->second.baseline = api.baseline;
  }

  void record_c(StableApi api, std::string prototype) {
    auto it = c_functions.find(api.name);
    if (it == c_functions.end()) {
      const std::string name = api.name;
      c_functions.emplace(name, ImportedCFunction{std::move(api), std::move(prototype)});
    } else if (older(api, it->second.api)) {
      it->second = ImportedCFunction{std::move(api), std::move(prototype)};
    }
  }

  static std::string prototype_of(CXCursor fn, const std::string& name) {
    std::string p = take(clang_getTypeSpelling(clang_getCursorResultType(fn))) + " " + name + "(";
    int n = clang_Cursor_getNumArguments(fn);
    for (int i = 0; i < n; ++i) {
      CXCursor a = clang_Cursor_getArgument(fn, i);
      std::string t = take(clang_getTypeSpelling(clang_getCursorType(a)));
      std::string an = spelling(a);
      p += (i ? ", " : "") + t + (an.empty() ? "" : " " + an);
    }
    return p + ")";
  }

  // What a using-declaration brings in: "function", "variable" or "type".
  static std::string using_kind(CXCursor u) {
    std::string kind = "type";
    clang_visitChildren(
        u,
        [](CXCursor c, CXCursor, CXClientData d) {
          if (c.kind != CXCursor_OverloadedDeclRef || clang_getNumOverloadedDecls(c) == 0) return CXChildVisit_Continue;
          switch (clang_getOverloadedDecl(c, 0).kind) {
            case CXCursor_FunctionDecl:
            case CXCursor_FunctionTemplate:
              *static_cast<std::string*>(d) = "function";
              break;
            case CXCursor_VarDecl:
            case CXCursor_EnumConstantDecl:
              *static_cast<std::string*>(d) = "variable";
              break;
            default:
              break;
          }
          return CXChildVisit_Break;
        },
        &kind);
    return kind;
  }

  void visit(CXCursor c0, int depth) {
    struct Ctx {
      Importer* self;
      int depth;
    } ctx{this, depth};
    clang_visitChildren(
        c0,
        [](CXCursor c, CXCursor, CXClientData d) {
          auto* x = static_cast<Ctx*>(d);
          x->self->entity(c, x->depth);
          return CXChildVisit_Continue;
        },
        &ctx);
  }

  void entity(CXCursor c, int depth) {
    CXFile file = nullptr;
    unsigned line = 0;
    clang_getExpansionLocation(clang_getCursorLocation(c), &file, &line, nullptr, nullptr);
    if (!file) return;
    const std::string path = fs::path(take(clang_getFileName(file))).lexically_normal().string();
    const std::string header = stable_name(path);
    if (header.empty()) return;
    headers.insert(header);
    if (depth > 8) return;
    if (c.kind == CXCursor_LinkageSpec) {  // the shims' `extern "C" {`
      const bool was = in_extern_c;
      in_extern_c = true;
      visit(c, depth + 1);
      in_extern_c = was;
      return;
    }
    const std::string name = spelling(c);
    if (name.empty() || name.starts_with("_")) return;
    if (c.kind == CXCursor_MacroDefinition) {
      if (clang_Cursor_isMacroBuiltin(c)) return;
      auto [since, base] = since_at(path, line);
      record(StableApi{name, since, base, "macro", header});
      return;
    }
    if (is_preprocessing_cursor(c)) return;
    if (c.kind == CXCursor_Namespace) {
      if (name == "detail" || name == "impl" || name == "internal") return;
      visit(c, depth + 1);
      return;
    }
    if (clang_getCXXAccessSpecifier(c) == CX_CXXPrivate || clang_getCXXAccessSpecifier(c) == CX_CXXProtected) return;
    const std::string qualified = qualified_name(c);
    if (qualified.find("(anonymous") != std::string::npos) return;
    auto [since, base] = since_at(path, line);
    const bool global = qualified.find("::") == std::string::npos;
    switch (c.kind) {
      case CXCursor_FunctionDecl:  // global C++ functions (deprecated from/to) are C++ API, not C shims
        if (global && in_extern_c) record_c(StableApi{qualified, since, base, "function", header}, prototype_of(c, qualified));
        else record(StableApi{qualified, since, base, "function", header});
        return;
      case CXCursor_FunctionTemplate:
        record(StableApi{qualified, since, base, "function", header});
        return;
      case CXCursor_CXXMethod:
        record(StableApi{qualified, since, base, "method", header});
        return;
      case CXCursor_TypedefDecl:
      case CXCursor_TypeAliasDecl:
        if (global) record_c(StableApi{qualified, since, base, "type", header}, "-");
        else record(StableApi{qualified, since, base, "type", header});
        return;
      case CXCursor_ClassDecl:
      case CXCursor_StructDecl:
      case CXCursor_ClassTemplate:
      case CXCursor_EnumDecl:
        if (!global) record(StableApi{qualified, since, base, "type", header});
        if (c.kind != CXCursor_EnumDecl) visit(c, depth + 1);
        return;
      case CXCursor_TypeAliasTemplateDecl:
        record(StableApi{qualified, since, base, "type", header});
        return;
      case CXCursor_VarDecl:
        if (!global) record(StableApi{qualified, since, base, "variable", header});
        return;
      case CXCursor_UsingDeclaration:  // torch::headeronly::ScalarType is `using c10::ScalarType;`
        if (!global) record(StableApi{qualified, since, base, using_kind(c), header});
        return;
      default:
        return;
    }
  }
};

// The TORCH_TARGET_VERSION values to parse the headers at, besides their own
// version (no target), so that every guarded branch is seen by some parse:
// `#if TORCH_FEATURE_VERSION < 2.10` and the `#else` of `>= 2.13` exist only
// for older targets. One value per set of versions the newest parse misses;
// the baseline when the set holds it.
std::vector<uint64_t> older_targets(const std::map<std::string, FeatureGuards>& guards,
                                    std::optional<TorchVersion> own, TorchVersion baseline) {
  std::set<uint64_t> out;
  for (const auto& [path, g] : guards)
    for (const VersionSet& s : g.distinct_sets()) {
      if (s.empty() || (own && s.contains(own->encoded()))) continue;
      uint64_t pick = s.intervals().back().hi - 1;  // all below the baseline: its newest value
      for (const auto& i : s.intervals())
        if (std::max(i.lo, baseline.encoded()) < i.hi) {
          pick = std::max(i.lo, baseline.encoded());
          break;
        }
      out.insert(pick);
    }
  return {out.begin(), out.end()};
}

// Parses `source` (which #includes every stable header) with `extra` flags
// and records what it declares into `imp`. Returns clang's error count.
size_t parse_into(Importer& imp, CXIndex index, const std::string& include_dir, const std::string& virtual_name,
                  const std::string& source, const std::vector<std::string>& extra) {
  CXUnsavedFile unsaved{virtual_name.c_str(), source.c_str(), static_cast<unsigned long>(source.size())};
  std::vector<std::string> args = {"-x", "c++", "-std=c++17", "-I" + imp.dir, "-ferror-limit=0", "-fno-spell-checking", "-w"};
  args.insert(args.end(), extra.begin(), extra.end());
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  CXTranslationUnit tu = nullptr;
  CXErrorCode rc = clang_parseTranslationUnit2(
      index, virtual_name.c_str(), argv.data(), int(argv.size()), &unsaved, 1,
      CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing | CXTranslationUnit_SkipFunctionBodies,
      &tu);
  if (rc != CXError_Success || !tu)
    throw InputError(include_dir, rc == CXError_Crashed ? "libclang crashed while parsing the stable headers"
                                                        : "libclang could not parse the stable headers");
  imp.visit(clang_getTranslationUnitCursor(tu), 0);
  size_t errors = 0;
  for (unsigned i = 0, n = clang_getNumDiagnostics(tu); i < n; ++i) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) ++errors;
    clang_disposeDiagnostic(d);
  }
  clang_disposeTranslationUnit(tu);
  return errors;
}

}  // namespace

std::optional<TorchVersion> installed_torch_version(const std::string& dir) {
  for (const char* rel : {"torch/headeronly/version.h", "torch/version.h", "torch/csrc/api/include/torch/version.h"})
    if (auto v = TorchVersion::from_version_header(text::read_file_or_empty(fs::path(dir) / rel))) {
      v->patch = 0;
      return v;
    }
  return std::nullopt;
}

ImportedApis import_stable_headers(const std::string& include_dir, const HeaderClassifier& classifier, TorchVersion baseline) {
  const std::string dir = fs::absolute(include_dir).lexically_normal().string();
  if (!has_stable_headers(dir))
    throw InputError(include_dir, "no PyTorch stable headers here (expected torch/csrc/stable/ under this directory)");
  ImportedApis out;
  out.include_dir = dir;
  out.torch_version = installed_torch_version(dir);
  const auto files = stable_header_files(dir, classifier);
  std::map<std::string, FeatureGuards> guards;
  std::string source;
  for (const auto& f : files) {
    const FeatureGuards& g = guards.emplace(f, FeatureGuards::scan(text::read_file_or_empty(f))).first->second;
    out.versioned = out.versioned || g.defines_feature_version();
    source += "#include \"" + f + "\"\n";
  }
  const std::string virtual_name = (fs::path(dir) / "torchabi-rules-import.cpp").string();
  Importer imp{classifier, baseline, dir, guards, {}, {}, {}, false};
  CXIndex index = clang_createIndex(0, 0);
  try {
    out.parse_errors = parse_into(imp, index, include_dir, virtual_name, source, {});
    if (out.versioned)
      for (uint64_t target : older_targets(guards, out.torch_version, baseline)) {
        char flag[64];
        std::snprintf(flag, sizeof flag, "-DTORCH_TARGET_VERSION=0x%016llxULL", static_cast<unsigned long long>(target));
        parse_into(imp, index, include_dir, virtual_name, source, {flag});
        out.targets_parsed.push_back(TorchVersion::decode(target));
      }
  } catch (...) {
    clang_disposeIndex(index);
    throw;
  }
  clang_disposeIndex(index);
  for (auto& [name, f] : imp.c_functions) out.c_functions.push_back(std::move(f));
  for (auto& [name, a] : imp.cxx) out.cxx.push_back(std::move(a));
  out.headers.assign(imp.headers.begin(), imp.headers.end());
  return out;
}

std::string imported_cxx_tsv(const ImportedApis& apis) {
  std::vector<const StableApi*> rows;
  for (const auto& a : apis.cxx) rows.push_back(&a);
  std::sort(rows.begin(), rows.end(), [](const StableApi* a, const StableApi* b) { return a->name < b->name; });
  std::string out =
      "# Stable C++ API of LibTorch (torch::stable, torch::headeronly and the other C++ names and macros\n"
      "# of the stable headers), one row per name, with the release from which the headers declare it:\n"
      "# the lowest TORCH_FEATURE_VERSION whose guards compile a declaration of the name ('<=' = the\n"
      "# stable ABI baseline: a declaration outside any guard, or one kept for older targets such as\n"
      "# the 2.9 overloads of new_empty under `#if TORCH_FEATURE_VERSION < TORCH_VERSION_2_10_0`).\n"
      "# Read by `torchabi rules import` from the headers of torch " +
      (apis.torch_version ? apis.torch_version->str() : std::string("(unknown release)")) +
      ".\n"
      "# name\tsince\tkind\theader\n";
  for (const StableApi* a : rows) out += a->name + "\t" + a->since_label() + "\t" + a->kind + "\t" + a->header + "\n";
  return out;
}

std::string imported_to_json(const ImportedApis& a) {
  using nlohmann::json;
  auto api_json = [](const StableApi& x) {
    return json{x.name, x.since.str(), x.baseline, x.kind, x.header};
  };
  json j;
  j["include_dir"] = a.include_dir;
  j["torch_version"] = a.torch_version ? json(a.torch_version->str()) : json(nullptr);
  j["c"] = json::array();
  for (const auto& f : a.c_functions) j["c"].push_back({api_json(f.api), f.prototype});
  j["cxx"] = json::array();
  for (const auto& x : a.cxx) j["cxx"].push_back(api_json(x));
  j["headers"] = a.headers;
  j["parse_errors"] = a.parse_errors;
  j["versioned"] = a.versioned;
  j["targets_parsed"] = json::array();
  for (const auto& t : a.targets_parsed) j["targets_parsed"].push_back(t.str());
  j["format"] = kImportFormat;
  return json_io::dump(j);
}

ImportedApis imported_from_json(const std::string& text) {
  using nlohmann::json;
  try {
    json j = json_io::parse(text);
    auto api_from = [](const json& x) {
      StableApi a;
      a.name = x.at(0);
      a.since = *TorchVersion::parse_dotted(x.at(1).get<std::string>());
      a.baseline = x.at(2);
      a.kind = x.at(3);
      a.header = x.at(4);
      return a;
    };
    ImportedApis a;
    a.include_dir = j.at("include_dir");
    if (!j.at("torch_version").is_null()) a.torch_version = TorchVersion::parse_dotted(j.at("torch_version").get<std::string>());
    for (const auto& f : j.at("c")) a.c_functions.push_back({api_from(f.at(0)), f.at(1)});
    for (const auto& x : j.at("cxx")) a.cxx.push_back(api_from(x));
    a.headers = j.at("headers").get<std::vector<std::string>>();
    a.parse_errors = j.at("parse_errors");
    if (j.at("format") != kImportFormat) throw std::runtime_error("written by another torchabi version");
    a.versioned = j.at("versioned");
    for (const auto& t : j.at("targets_parsed")) a.targets_parsed.push_back(*TorchVersion::parse_dotted(t.get<std::string>()));
    return a;
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("malformed import result: ") + e.what());
  }
}

void merge_imported(StableApiIndex& index, const ImportedApis& apis) {
  auto merged = [&](const StableApi& imported) {
    // Without the TORCH_FEATURE_VERSION mechanism nothing is guarded, so a
    // missing guard does not mean baseline: keep what the rules know.
    StableApi a = imported;
    if (a.baseline && !apis.versioned)
      if (const StableApi* known = index.find(a.name); known && !known->baseline) {
        a.since = known->since;
        a.baseline = false;
      }
    return a;
  };
  for (const auto& f : apis.c_functions) index.add(merged(f.api), true);
  for (const auto& x : apis.cxx) index.add(merged(x), true);
}

// schema/kernel_types.yaml from the imported headers' StableIValue
// conversions (boxable_types.h); headers that are not PyTorch's leave the
// base rules' file in place.
static void add_boxable_types(std::map<std::string, std::string>& files, const std::string& include_dir) {
  try {
    BoxableTypes conversions = import_boxable_types(include_dir);
    if (conversions.found) files["schema/kernel_types.yaml"] = boxable_types_yaml(conversions);
  } catch (const InputError&) {
  }
}

void write_imported_rules(const std::string& out_dir, const ImportedApis& apis, const inputs::RulesSource& base,
                          const inputs::ApiCatalog& shipped, const InstallFacts* install) {
  std::error_code ec;
  const fs::path out = fs::absolute(out_dir).lexically_normal();
  if (fs::exists(out, ec)) {
    const bool earlier_import = fs::exists(out / "api" / "imported.yaml", ec);
    if (!fs::is_directory(out, ec) || (!earlier_import && !fs::is_empty(out, ec)))
      throw InputError(out_dir, "exists and is not an earlier `torchabi rules import` output; choose another directory");
  }
  StableApiIndex merged;  // shipped C++ rows overlaid with the import
  merged.add_cxx_tsv(base.require("api/stable_cxx_apis.tsv"), base.describe() + "/api/stable_cxx_apis.tsv", false);
  for (const auto& f : shipped.c_functions())
    merged.add(StableApi{f.name, f.since, f.baseline, f.is_type ? "type" : "function", f.header}, false);
  merge_imported(merged, apis);

  std::map<std::string, std::string> files;
  for (const auto& rel : base.list("")) files[rel] = base.read(rel).value_or("");

  std::map<std::string, const ImportedCFunction*> imported_c;
  for (const auto& f : apis.c_functions) imported_c[f.api.name] = &f;
  std::string c = "# Stable C ABI of LibTorch: one row per entry point or type.\n"
                  "# Written by `torchabi rules import` from " + apis.include_dir + " merged with torchabi's rules.\n"
                  "# backend, library, build_condition: as torchabi's rules say (the import reads versions, not builds).\n"
                  "# name\tsince\tkind\tdlopen_export\theader\tprototype\tbackend\tlibrary\tbuild_condition\n";
  std::set<std::string> written;
  auto label = [](const StableApi& a) {
    if (a.baseline) return "<=" + a.since.str();
    return std::to_string(a.since.major) + "." + std::to_string(a.since.minor) + "." + std::to_string(a.since.patch);
  };
  for (const auto& f : shipped.c_functions()) {
    const StableApi* m = merged.find(f.name);
    auto it = imported_c.find(f.name);
    std::string header = it != imported_c.end() ? it->second->api.header : f.header;
    std::string proto = it != imported_c.end() ? it->second->prototype : f.prototype;
    c += f.name + "\t" + label(*m) + "\t" + (f.is_type ? "type" : "function") + "\t" + (f.dlopen_export ? "yes" : "no") +
         "\t" + header + "\t" + proto + "\t" + f.backend + "\t" + f.library + "\t" + f.build_condition + "\n";
    written.insert(f.name);
  }
  for (const auto& f : apis.c_functions) {
    if (written.count(f.api.name)) continue;
    const StableApi* m = merged.find(f.api.name);
    // Not in torchabi's rules: nothing known about the build it needs.
    c += f.api.name + "\t" + label(*m) + "\t" + f.api.kind + "\tno\t" + f.api.header + "\t" + f.prototype + "\t-\t-\t-\n";
    if (install)
    for (const auto& e : install->unknown_exports) {
      if (written.count(e.name) || imported_c.count(e.name)) continue;
      // Exported by this install, declared by none of the headers read: it
      // exists from this release on as far as anyone here can tell.
      c += e.name + "\t" + install->release + "\tfunction\tno\t-\t-\t-\t" + e.library + "\t-\n";
    }
  }
  files["api/stable_c_functions.tsv"] = c;

  std::string cxx = "# Stable C++ API of LibTorch (torch::stable, torch::headeronly, stable macros).\n"
                    "# Written by `torchabi rules import` from " + apis.include_dir + " merged with torchabi's rules.\n"
                    "# name\tsince\tkind\theader\n";
  for (const auto& a : merged.all()) {
    if (imported_c.count(a.name) || shipped.find_c(a.name)) continue;
    cxx += a.name + "\t" + a.since_label() + "\t" + a.kind + "\t" + a.header + "\n";
  }
  files["api/stable_cxx_apis.tsv"] = cxx;
  add_boxable_types(files, apis.include_dir);
  if (install && !install->aten_ops_tsv.empty()) files["schema/aten_ops.tsv"] = install->aten_ops_tsv;
  files["api/imported.yaml"] = "# Facts in this directory were read from an installed torch by `torchabi rules import`.\n" +
                               (install ? "install: \"" + install->install + "\"\nrelease: \"" + install->release +
                                              "\"\nexported_functions_not_in_headers: " +
                                              std::to_string(install->unknown_exports.size()) + "\n"
                                        : std::string()) +
                               "include_dir: \"" + apis.include_dir + "\"\n"
                               "torch_version: \"" + (apis.torch_version ? apis.torch_version->str() : "unknown") + "\"\n"
                               "c_functions: " + std::to_string(apis.c_functions.size()) + "\n"
                               "cxx_apis: " + std::to_string(apis.cxx.size()) + "\n";

  // Write everything into a sibling temporary directory, then swap it in.
  std::string tmpl = out.string() + ".tmp-XXXXXX";
  if (!::mkdtemp(tmpl.data())) throw InputError(out_dir, "cannot create a directory next to it");
  const fs::path tmp(tmpl);
  try {
    for (const auto& [rel, content] : files) {
      fs::create_directories((tmp / rel).parent_path());
      write_file_atomically((tmp / rel).string(), content);
    }
    if (fs::exists(out, ec)) fs::remove_all(out);
    fs::rename(tmp, out);
  } catch (const std::exception& e) {
    fs::remove_all(tmp, ec);
    throw InputError(out_dir, std::string("cannot write the rules directory: ") + e.what());
  }
}

}  // namespace torchabi::source
