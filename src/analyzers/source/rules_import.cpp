#include "analyzers/source/rules_import.h"

#include <clang-c/Index.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <unistd.h>

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

std::vector<std::string> stable_header_files(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  const fs::path root(dir);
  auto add_dir = [&](const fs::path& d, const std::string& prefix) {
    for (auto it = fs::directory_iterator(d, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (it->is_regular_file() && name.ends_with(".h") && name.starts_with(prefix)) out.push_back(it->path().string());
    }
  };
  for (const char* f : {"torch/csrc/inductor/aoti_torch/c/shim.h", "torch/csrc/stable/c/shim.h"})
    if (fs::is_regular_file(root / f, ec)) out.push_back((root / f).string());
  add_dir(root / "torch/csrc/inductor/aoti_torch/generated", "c_shim_");
  add_dir(root / "torch/csrc/stable", "");
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

namespace {

struct Importer {
  const HeaderClassifier& classifier;
  TorchVersion baseline;
  std::string dir;
  CXTranslationUnit tu = nullptr;
  std::map<std::string, FeatureGuards> guards;
  std::map<std::string, StableApi> cxx;
  std::map<std::string, ImportedCFunction> c_functions;
  std::set<std::string> headers;

  // Include-relative name of a stable header, or "" when `file` is not one.
  std::string stable_name(CXFile file) {
    std::string path = take(clang_getFileName(file));
    path = fs::path(path).lexically_normal().string();
    std::string name = classifier.torch_name(path, {dir});
    return !name.empty() && classifier.classify(name) == HeaderKind::Stable ? name : std::string();
  }

  std::pair<TorchVersion, bool> since_at(CXFile file, unsigned line) {
    std::string key = take(clang_getFileName(file));
    auto it = guards.find(key);
    if (it == guards.end()) {
      size_t size = 0;
      const char* data = clang_getFileContents(tu, file, &size);
      it = guards.emplace(key, FeatureGuards::scan(std::string_view(data ? data : "", data ? size : 0))).first;
    }
    auto g = it->second.required_at(line);
    if (!g || *g <= baseline) return {baseline, true};
    return {*g, false};
  }

  void record(std::map<std::string, StableApi>& into, StableApi api) {
    auto it = into.find(api.name);
    if (it == into.end()) {
      into.emplace(api.name, std::move(api));
      return;
    }
    // Overloads: the oldest one decides when the name first became available.
    StableApi& cur = it->second;
    if (api.baseline || (!cur.baseline && api.since < cur.since)) {
      cur.since = api.since;
      cur.baseline = api.baseline;
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
    const std::string header = stable_name(file);
    if (header.empty()) return;
    headers.insert(header);
    if (depth > 8) return;
    if (c.kind == CXCursor_LinkageSpec) {
      visit(c, depth + 1);
      return;
    }
    const std::string name = spelling(c);
    if (name.empty() || name.starts_with("_")) return;
    if (c.kind == CXCursor_MacroDefinition) {
      if (clang_Cursor_isMacroBuiltin(c)) return;
      auto [since, base] = since_at(file, line);
      record(cxx, StableApi{name, since, base, "macro", header});
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
    auto [since, base] = since_at(file, line);
    const bool global = qualified.find("::") == std::string::npos;
    switch (c.kind) {
      case CXCursor_FunctionDecl:
        if (global) {
          auto& e = c_functions[qualified];
          if (e.api.name.empty() || base || (!e.api.baseline && since < e.api.since)) {
            e.api = StableApi{qualified, since, base, "function", header};
            e.prototype = prototype_of(c, qualified);
          }
        } else {
          record(cxx, StableApi{qualified, since, base, "function", header});
        }
        return;
      case CXCursor_FunctionTemplate:
        record(cxx, StableApi{qualified, since, base, global ? "function" : "function", header});
        return;
      case CXCursor_CXXMethod:
        record(cxx, StableApi{qualified, since, base, "method", header});
        return;
      case CXCursor_TypedefDecl:
      case CXCursor_TypeAliasDecl:
        if (global) {
          auto& e = c_functions[qualified];
          if (e.api.name.empty()) {
            e.api = StableApi{qualified, since, base, "type", header};
            e.prototype = "-";
          }
        } else {
          record(cxx, StableApi{qualified, since, base, "type", header});
        }
        return;
      case CXCursor_ClassDecl:
      case CXCursor_StructDecl:
      case CXCursor_ClassTemplate:
      case CXCursor_EnumDecl:
        if (!global) record(cxx, StableApi{qualified, since, base, "type", header});
        if (c.kind != CXCursor_EnumDecl) visit(c, depth + 1);
        return;
      case CXCursor_VarDecl:
        if (!global) record(cxx, StableApi{qualified, since, base, "variable", header});
        return;
      default:
        return;
    }
  }
};

std::optional<TorchVersion> read_torch_version(const std::string& dir) {
  static const std::regex major(R"(#\s*define\s+TORCH_VERSION_MAJOR\s+([0-9]+))");
  static const std::regex minor(R"(#\s*define\s+TORCH_VERSION_MINOR\s+([0-9]+))");
  for (const char* rel : {"torch/headeronly/version.h", "torch/version.h", "torch/csrc/api/include/torch/version.h"}) {
    std::ifstream in(fs::path(dir) / rel);
    if (!in) continue;
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    std::smatch a, b;
    if (std::regex_search(text, a, major) && std::regex_search(text, b, minor))
      return TorchVersion{std::stoi(a[1].str()), std::stoi(b[1].str()), 0};
  }
  return std::nullopt;
}

}  // namespace

ImportedApis import_stable_headers(const std::string& include_dir, const HeaderClassifier& classifier, TorchVersion baseline) {
  const std::string dir = fs::absolute(include_dir).lexically_normal().string();
  if (!has_stable_headers(dir))
    throw InputError(include_dir, "no PyTorch stable headers here (expected torch/csrc/stable/ under this directory)");
  auto files = stable_header_files(dir);
  std::string source;
  for (const auto& f : files) source += "#include \"" + f + "\"\n";
  const std::string virtual_name = (fs::path(dir) / "torchabi-rules-import.cpp").string();
  CXUnsavedFile unsaved{virtual_name.c_str(), source.c_str(), static_cast<unsigned long>(source.size())};
  std::vector<std::string> args = {"-x", "c++", "-std=c++17", "-I" + dir, "-ferror-limit=0", "-fno-spell-checking", "-w"};
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  CXIndex index = clang_createIndex(0, 0);
  Importer imp{classifier, baseline, dir, nullptr, {}, {}, {}, {}};
  CXErrorCode rc = clang_parseTranslationUnit2(
      index, virtual_name.c_str(), argv.data(), int(argv.size()), &unsaved, 1,
      CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing | CXTranslationUnit_SkipFunctionBodies,
      &imp.tu);
  if (rc != CXError_Success || !imp.tu) {
    clang_disposeIndex(index);
    throw InputError(include_dir, rc == CXError_Crashed ? "libclang crashed while parsing the stable headers"
                                                        : "libclang could not parse the stable headers");
  }
  ImportedApis out;
  out.include_dir = dir;
  imp.visit(clang_getTranslationUnitCursor(imp.tu), 0);
  for (unsigned i = 0, n = clang_getNumDiagnostics(imp.tu); i < n; ++i) {
    CXDiagnostic d = clang_getDiagnostic(imp.tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) ++out.parse_errors;
    clang_disposeDiagnostic(d);
  }
  clang_disposeTranslationUnit(imp.tu);
  clang_disposeIndex(index);
  out.torch_version = read_torch_version(dir);
  for (auto& [name, f] : imp.c_functions) out.c_functions.push_back(std::move(f));
  for (auto& [name, a] : imp.cxx) out.cxx.push_back(std::move(a));
  out.headers.assign(imp.headers.begin(), imp.headers.end());
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
  return j.dump();
}

ImportedApis imported_from_json(const std::string& text) {
  using nlohmann::json;
  try {
    json j = json::parse(text);
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
    return a;
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("malformed import result: ") + e.what());
  }
}

void merge_imported(StableApiIndex& index, const ImportedApis& apis) {
  auto merged = [&](const StableApi& imported) {
    // A declaration without a guard was visible for every target; the rules
    // may still know it arrived later (the symbol, not the declaration).
    StableApi a = imported;
    if (a.baseline)
      if (const StableApi* known = index.find(a.name); known && !known->baseline) {
        a.since = known->since;
        a.baseline = false;
      }
    return a;
  };
  for (const auto& f : apis.c_functions) index.add(merged(f.api), true);
  for (const auto& x : apis.cxx) index.add(merged(x), true);
}

void write_imported_rules(const std::string& out_dir, const ImportedApis& apis, const inputs::RulesSource& base,
                          const inputs::ApiCatalog& shipped) {
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
                  "# name\tsince\tkind\tdlopen_export\theader\tprototype\n";
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
         "\t" + header + "\t" + proto + "\n";
    written.insert(f.name);
  }
  for (const auto& f : apis.c_functions) {
    if (written.count(f.api.name)) continue;
    const StableApi* m = merged.find(f.api.name);
    c += f.api.name + "\t" + label(*m) + "\t" + f.api.kind + "\tno\t" + f.api.header + "\t" + f.prototype + "\n";
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
  files["api/imported.yaml"] = "# Facts in this directory were read from an installed torch by `torchabi rules import`.\n"
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
