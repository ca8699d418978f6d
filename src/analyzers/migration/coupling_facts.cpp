#include "analyzers/migration/coupling_facts.h"

#include <set>
#include <sstream>
#include <tuple>

#include <clang-c/Index.h>

#include "analyzers/migration/include_graph.h"
#include "analyzers/source/cursor_utils.h"
#include "analyzers/source/tu_check.h"

namespace torchabi::migration {

namespace {

// One fact per TU, one record per line:
//   F <tab> usr <tab> name <tab> file <tab> 0|1 <tab> bl <tab> bc <tab> el <tab> ec
//   R <tab> usr <tab> file <tab> line
constexpr const char* kCouplingFact = "migrate.coupling";

bool is_function(CXCursorKind k) {
  return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_FunctionTemplate;
}

struct Place {
  std::string file;
  unsigned line = 0, column = 0;
};

class CouplingCheck final : public source::TuCheck {
public:
  void run(source::CheckContext& ctx) override {
    if (!ctx.tu.raw()) return;
    struct Visitor final : source::CursorVisitor {
      const source::ParsedTu& tu;
      std::ostringstream out;
      std::set<std::string> seen;
      explicit Visitor(const source::ParsedTu& t) : tu(t) {}

      Place place(CXSourceLocation loc) {
        CXFile f = nullptr;
        unsigned line = 0, column = 0;
        clang_getExpansionLocation(loc, &f, &line, &column, nullptr);
        return {f ? tu.path_of(f) : std::string(), line, column};
      }

      bool visit(CXCursor c, CXCursor) override {
        const CXCursorKind k = clang_getCursorKind(c);
        if (is_function(k)) record_function(c);
        else if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) record_reference(c);
        return true;
      }

      void record_function(CXCursor c) {
        const std::string usr = source::take(clang_getCursorUSR(c));
        if (usr.empty()) return;
        const Place begin = place(clang_getRangeStart(clang_getCursorExtent(c)));
        if (begin.file.empty() || !tu.is_project_file(begin.file)) return;
        // The signature ends where the body starts.
        CXSourceLocation end_loc = clang_getRangeEnd(clang_getCursorExtent(c));
        for (CXCursor child : source::children(c))
          if (clang_getCursorKind(child) == CXCursor_CompoundStmt) {
            end_loc = clang_getRangeStart(clang_getCursorExtent(child));
            break;
          }
        const Place end = place(end_loc);
        if (end.file != begin.file) return;  // produced by a macro spanning files: no span to give
        std::string line = "F\t" + usr + "\t" + source::qualified_name(c) + "\t" + begin.file + "\t" +
                           (clang_isCursorDefinition(c) ? "1" : "0") + "\t" + std::to_string(begin.line) + "\t" +
                           std::to_string(begin.column) + "\t" + std::to_string(end.line) + "\t" +
                           std::to_string(end.column) + "\n";
        if (seen.insert(line).second) out << line;
      }

      void record_reference(CXCursor c) {
        CXCursor target = clang_getCursorReferenced(c);
        if (clang_Cursor_isNull(target) || !is_function(clang_getCursorKind(target))) return;
        // A member or specialization refers through its template.
        CXCursor tmpl = clang_getSpecializedCursorTemplate(target);
        if (!clang_Cursor_isNull(tmpl)) target = tmpl;
        const Place decl = place(clang_getCursorLocation(target));
        if (decl.file.empty() || !tu.is_project_file(decl.file)) return;
        const Place at = place(clang_getCursorLocation(c));
        if (at.file.empty() || !tu.is_project_file(at.file)) return;
        const std::string usr = source::take(clang_getCursorUSR(target));
        if (usr.empty()) return;
        std::string line = "R\t" + usr + "\t" + at.file + "\t" + std::to_string(at.line) + "\n";
        if (seen.insert(line).second) out << line;
      }
    } visitor(ctx.tu);
    ctx.tu.visit_project_cursors(visitor);
    ctx.subject().facts.emplace_back(kCouplingFact, visitor.out.str());
  }
};

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(cur);
  return out;
}

uint32_t number(const std::string& s) {
  try {
    return uint32_t(std::stoul(s));
  } catch (const std::exception&) {
    return 0;
  }
}

}  // namespace

void register_coupling_check() {
  source::register_tu_check("migrate-coupling-v1", [] { return std::make_unique<CouplingCheck>(); });
}

CouplingFacts take_coupling_facts(findings::Report& report) {
  CouplingFacts out;
  std::set<std::string> seen;
  for (const auto& value : report.take_facts(kCouplingFact)) {
    std::istringstream in(value);
    std::string line;
    while (std::getline(in, line)) {
      if (!seen.insert(line).second) continue;
      const auto f = split(line, '\t');
      if (f.size() == 9 && f[0] == "F") {
        FunctionFact fn;
        fn.usr = f[1];
        fn.name = f[2];
        fn.file = normal_path(f[3]);
        fn.definition = f[4] == "1";
        fn.begin_line = number(f[5]);
        fn.begin_column = number(f[6]);
        fn.end_line = number(f[7]);
        fn.end_column = number(f[8]);
        out.functions.push_back(std::move(fn));
      } else if (f.size() == 4 && f[0] == "R") {
        out.references.push_back({normal_path(f[2]), number(f[3]), f[1]});
      }
    }
  }
  return out;
}

}  // namespace torchabi::migration
