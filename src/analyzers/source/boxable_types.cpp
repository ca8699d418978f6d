#include "analyzers/source/boxable_types.h"
#include "common/text.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "analyzers/source/cpp_type_name.h"
#include "analyzers/source/cursor_utils.h"
#include "analyzers/source/feature_guards.h"
#include "common/input_error.h"

namespace torchabi::source {

namespace fs = std::filesystem;

namespace {

// The namespaces PyTorch has kept the conversions in: torch::stable::detail
// (2.10 on), an anonymous namespace's `detail` (2.8/2.9).
bool on_the_way(const std::string& ns) { return ns == "torch" || ns == "stable" || ns == "detail" || ns.empty(); }

// A type in normalize_cpp_type's spelling. Dependent types (the argument of
// a partial specialisation) are spelled by libclang without their
// namespaces ("optional<type-parameter-0-0>"), so they are rebuilt from the
// declarations of their templates, with "$T" for the parameters.
std::string type_name(CXType t) {
  const std::string canonical = take(clang_getTypeSpelling(clang_getCanonicalType(t)));
  if (canonical.find("type-parameter-") == std::string::npos) return normalize_cpp_type(canonical);
  const int n = clang_Type_getNumTemplateArguments(t);
  if (n <= 0) return canonical.ends_with("...") ? "$T..." : "$T";
  std::string out = qualified_name(clang_getTypeDeclaration(t)) + "<";
  for (int i = 0; i < n; ++i)
    out += (i ? ", " : "") + type_name(clang_Type_getTemplateArgumentAsType(t, static_cast<unsigned>(i)));
  return normalize_cpp_type(out + ">");
}

std::optional<TorchVersion> headers_release(const std::string& dir) {
  auto v = TorchVersion::from_version_header(text::read_file_or_empty(fs::path(dir) / "torch/headeronly/version.h"));
  if (v) v->patch = 0;
  return v;
}

class BoxableTypesReader {
public:
  explicit BoxableTypesReader(CXTranslationUnit tu) : tu_(tu) {}

  BoxableTypes run() {
    visit(clang_getTranslationUnitCursor(tu_), 0);
    out_.found = seen_from_ && seen_to_;
    auto by_type = [](const auto& a, const auto& b) { return a.type < b.type; };
    std::sort(out_.from.begin(), out_.from.end(), by_type);
    std::sort(out_.to.begin(), out_.to.end(), by_type);
    std::sort(out_.unbox.begin(), out_.unbox.end(), [](const auto& a, const auto& b) { return a.from < b.from; });
    return std::move(out_);
  }

private:
  void visit(CXCursor parent, int depth) {
    std::vector<CXCursor> kids;
    clang_visitChildren(
        parent,
        [](CXCursor c, CXCursor, CXClientData d) {
          static_cast<std::vector<CXCursor>*>(d)->push_back(c);
          return CXChildVisit_Continue;
        },
        &kids);
    for (CXCursor c : kids) {
      const CXCursorKind k = clang_getCursorKind(c);
      if (k == CXCursor_Namespace) {
        if (depth < 4 && on_the_way(spelling(c))) visit(c, depth + 1);
        continue;
      }
      if (k == CXCursor_ClassTemplate) primary(c);
      else if (k == CXCursor_StructDecl || k == CXCursor_ClassDecl || k == CXCursor_ClassTemplatePartialSpecialization)
        specialisation(c);
    }
  }

  void primary(CXCursor c) {
    const std::string name = spelling(c);
    const bool defined = clang_isCursorDefinition(c) != 0;
    if (name == "FromImpl") {
      seen_from_ = true;
      if (!out_.torch_version) out_.torch_version = release_of_header(c);
      catch_all_from_ = catch_all_from_ || defined;
    } else if (name == "ToImpl") {
      seen_to_ = true;
      catch_all_to_ = catch_all_to_ || defined;
    } else if (name == "boxer_impl") {
      out_.boxer_found = true;
    } else {
      return;
    }
    out_.catch_all = catch_all_from_ && catch_all_to_;
  }

  void specialisation(CXCursor c) {
    CXCursor tmpl = clang_getSpecializedCursorTemplate(c);
    if (clang_Cursor_isNull(tmpl)) return;
    const std::string name = spelling(tmpl);
    if (name != "FromImpl" && name != "ToImpl" && name != "UnboxType" && name != "boxer_impl") return;
    CXType t = clang_getCursorType(c);
    if (clang_Type_getNumTemplateArguments(t) < 1) return;
    const std::string arg = type_name(clang_Type_getTemplateArgumentAsType(t, 0));
    const std::optional<TorchVersion> since = guard_at(c);
    if (name == "FromImpl" || name == "ToImpl") {
      auto& list = name == "FromImpl" ? out_.from : out_.to;
      if (std::none_of(list.begin(), list.end(), [&](const auto& x) { return x.type == arg; }))
        list.push_back({arg, since});
    } else if (name == "UnboxType") {
      std::string to = unboxed_as(c);
      if (!to.empty() && std::none_of(out_.unbox.begin(), out_.unbox.end(), [&](const auto& x) { return x.from == arg; }))
        out_.unbox.push_back({arg, to, since});
    } else if (arg.starts_with("std::tuple<")) {
      out_.tuple_returns = BoxableConversion{arg, since};
    }
  }

  // The `type` member of an UnboxType specialisation.
  static std::string unboxed_as(CXCursor spec) {
    std::string out;
    clang_visitChildren(
        spec,
        [](CXCursor c, CXCursor, CXClientData d) {
          const CXCursorKind k = clang_getCursorKind(c);
          if ((k == CXCursor_TypeAliasDecl || k == CXCursor_TypedefDecl) && spelling(c) == "type") {
            *static_cast<std::string*>(d) = type_name(clang_getTypedefDeclUnderlyingType(c));
            return CXChildVisit_Break;
          }
          return CXChildVisit_Continue;
        },
        &out);
    return out;
  }

  // The release of the include directory a conversions header is in.
  static std::optional<TorchVersion> release_of_header(CXCursor c) {
    CXFile file = nullptr;
    clang_getExpansionLocation(clang_getCursorLocation(c), &file, nullptr, nullptr, nullptr);
    if (!file) return std::nullopt;
    const std::string path = take(clang_getFileName(file));
    const auto at = path.rfind("/torch/csrc/stable/");
    return at == std::string::npos ? std::nullopt : headers_release(path.substr(0, at));
  }

  std::optional<TorchVersion> guard_at(CXCursor c) {
    CXFile file = nullptr;
    unsigned line = 0;
    clang_getExpansionLocation(clang_getCursorLocation(c), &file, &line, nullptr, nullptr);
    if (!file) return std::nullopt;
    const std::string path = take(clang_getFileName(file));
    auto it = guards_.find(path);
    if (it == guards_.end()) it = guards_.emplace(path, FeatureGuards::scan(text::read_file_or_empty(path))).first;
    return it->second.required_at(line);
  }

  CXTranslationUnit tu_;
  BoxableTypes out_;
  bool seen_from_ = false, seen_to_ = false, catch_all_from_ = false, catch_all_to_ = false;
  std::map<std::string, FeatureGuards> guards_;
};

}  // namespace

BoxableTypes read_boxable_types(CXTranslationUnit tu) { return BoxableTypesReader(tu).run(); }

BoxableTypes import_boxable_types(const std::string& include_dir) {
  const std::string dir = fs::absolute(include_dir).lexically_normal().string();
  const fs::path library = fs::path(dir) / "torch/csrc/stable/library.h";
  std::error_code ec;
  if (!fs::is_regular_file(library, ec))
    throw InputError(include_dir, "no PyTorch stable headers here (expected torch/csrc/stable/library.h)");
  const std::string name = (fs::path(dir) / "torchabi-boxable-types.cpp").string();
  const std::string source = "#include <torch/csrc/stable/library.h>\n";
  CXUnsavedFile unsaved{name.c_str(), source.c_str(), static_cast<unsigned long>(source.size())};
  const std::string include = "-I" + dir;
  const char* argv[] = {"-x", "c++", "-std=c++17", include.c_str(), "-fno-spell-checking", "-w"};
  CXIndex index = clang_createIndex(0, 0);
  CXTranslationUnit tu = nullptr;
  CXErrorCode rc = clang_parseTranslationUnit2(index, name.c_str(), argv, 6, &unsaved, 1,
                                               CXTranslationUnit_KeepGoing | CXTranslationUnit_SkipFunctionBodies, &tu);
  if (rc != CXError_Success || !tu) {
    clang_disposeIndex(index);
    throw InputError(include_dir, "libclang could not parse torch/csrc/stable/library.h");
  }
  BoxableTypes out = read_boxable_types(tu);
  clang_disposeTranslationUnit(tu);
  clang_disposeIndex(index);
  out.torch_version = headers_release(dir);
  return out;
}

}  // namespace torchabi::source
