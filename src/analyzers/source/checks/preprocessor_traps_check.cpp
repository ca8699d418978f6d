// Preprocessor traps seen in real extensions:
//  source-bool-macro-flag: a -DNAME=True / -DNAME=False flag (Python spelling,
//    typical of setuptools define_macros) whose NAME is tested by #if (the
//    identifier True is not defined, so it evaluates to 0) or, for False, by
//    #ifdef/defined() (any definition counts as true).
//  source-target-version-undefined: #undef TORCH_TARGET_VERSION (usually
//    between push_macro/pop_macro around an include): the region is compiled
//    without the stable headers' version guards, outside the stable guarantee.
#include <cctype>
#include <map>

#include "analyzers/source/checks/checks.h"
#include "analyzers/source/directives.h"
#include "common/text.h"

namespace torchabi::source::checks {

namespace {

using text::is_identifier_char;

// Positions of NAME in `cond` as a whole identifier, each with whether it is
// the operand of `defined`.
std::vector<std::pair<size_t, bool>> occurrences(const std::string& cond, const std::string& name) {
  std::vector<std::pair<size_t, bool>> out;
  for (size_t p = cond.find(name); p != std::string::npos; p = cond.find(name, p + 1)) {
    if ((p > 0 && is_identifier_char(cond[p - 1])) || (p + name.size() < cond.size() && is_identifier_char(cond[p + name.size()]))) continue;
    size_t b = p;
    while (b > 0 && (cond[b - 1] == ' ' || cond[b - 1] == '(' || cond[b - 1] == '\t')) --b;
    bool in_defined = b >= 7 && cond.compare(b - 7, 7, "defined") == 0;
    out.emplace_back(p, in_defined);
  }
  return out;
}

class PreprocessorTrapsCheck final : public TuCheck {
public:
  void run(CheckContext& ctx) override {
    bool_flags(ctx);
    undefined_target(ctx);
  }

private:
  static void bool_flags(CheckContext& ctx) {
    std::map<std::string, std::string> flags;  // NAME -> True/False, last definition wins
    for (const auto& m : ctx.tu.args().macros) {
      if (m.undef) flags.erase(m.name);
      else if (m.value && (*m.value == "True" || *m.value == "False")) flags[m.name] = *m.value;
      else flags.erase(m.name);
    }
    if (flags.empty()) return;
    for (const auto& file : ctx.tu.project_files()) {
      std::string_view text = ctx.tu.file_text(file);
      for (const auto& d : scan_directives(text)) {
        const bool value_test = d.keyword == "if" || d.keyword == "elif";
        const bool defined_test = d.keyword == "ifdef" || d.keyword == "ifndef";
        if (!value_test && !defined_test) continue;
        for (const auto& [name, value] : flags) {
          for (auto [pos, in_defined] : occurrences(d.rest, name)) {
            const bool tests_definition = defined_test || in_defined;
            if (value == "True" && tests_definition) continue;
            if (value == "False" && !tests_definition) continue;
            findings::Finding f;
            f.rule = "source-bool-macro-flag";
            Range r;
            r.file = file;
            r.line = d.line;
            r.begin = d.rest_offset + static_cast<uint32_t>(pos);
            r.end = r.begin + static_cast<uint32_t>(name.size());
            r.column = r.begin - d.offset + 1;
            f.location = location_of(r);
            f.location.symbol = name;
            if (value == "True") {
              f.message = "-D" + name + "=True: '#" + d.keyword + "' reads the identifier True, which the "
                          "preprocessor evaluates as 0, so this tests false";
            } else {
              f.message = "-D" + name + "=False: '#" + d.keyword + "' only asks whether " + name +
                          " is defined, so this tests true although the flag says False";
            }
            f.help = "Define it with a number (-D" + name + "=1 or 0; setuptools: define_macros=[(\"" + name +
                     "\", \"1\")]) or leave it undefined for false.";
            f.notes.push_back("from the compile flags: -D" + name + "=" + value);
            ctx.report(std::move(f));
          }
        }
      }
    }
  }

  static bool target_version_set(CheckContext& ctx) {
    bool set = false;
    for (const auto& m : ctx.tu.args().macros)
      if (m.name == "TORCH_TARGET_VERSION") set = !m.undef;
    for (const auto& d : ctx.tu.macro_definitions())
      if (d.name == "TORCH_TARGET_VERSION") set = true;
    return set;
  }

  static void undefined_target(CheckContext& ctx) {
    const std::string kName = "TORCH_TARGET_VERSION";
    if (!target_version_set(ctx)) return;
    for (const auto& file : ctx.tu.project_files()) {
      std::string_view text = ctx.tu.file_text(file);
      auto dirs = scan_directives(text);
      for (size_t i = 0; i < dirs.size(); ++i) {
        const Directive& d = dirs[i];
        if (d.keyword != "undef" || occurrences(d.rest, kName).empty()) continue;
        uint32_t end_line = 0;
        for (size_t j = i + 1; j < dirs.size() && !end_line; ++j) {
          const Directive& e = dirs[j];
          if ((e.keyword == "pragma" && e.rest.find("pop_macro") != std::string::npos && !occurrences(e.rest, kName).empty()) ||
              (e.keyword == "define" && !occurrences(e.rest, kName).empty()))
            end_line = e.line;
        }
        findings::Finding f;
        f.rule = "source-target-version-undefined";
        Range r;
        r.file = file;
        r.line = d.line;
        r.begin = d.offset;
        r.end = d.offset + 1;
        r.column = 1;
        size_t hash = text.find('#', d.offset);
        if (hash != std::string_view::npos) {
          r.begin = static_cast<uint32_t>(hash);
          r.column = r.begin - d.offset + 1;
        }
        f.location = location_of(r);
        f.location.symbol = kName;
        f.message = "#undef TORCH_TARGET_VERSION: " +
                    (!end_line                    ? std::string("the rest of this file")
                     : end_line == d.line + 2      ? "line " + std::to_string(d.line + 1)
                                                   : "lines " + std::to_string(d.line + 1) + "-" + std::to_string(end_line - 1)) +
                    " compile without the stable headers' version guards, outside the stable ABI guarantee";
        std::string included;
        for (const auto& inc : ctx.tu.includes()) {
          if (inc.includer != file || inc.range.line <= d.line || (end_line && inc.range.line >= end_line)) continue;
          included += (included.empty() ? "" : ", ") + std::string(inc.angled ? "<" : "\"") + inc.spelled +
                      (inc.angled ? ">" : "\"") + " (line " + std::to_string(inc.range.line) + ")";
        }
        if (!included.empty()) f.notes.push_back("included while it is undefined: " + included);
        f.help = "Keep TORCH_TARGET_VERSION defined for everything the extension compiles; move code that needs "
                 "headers which reject it (e.g. pybind11 via torch) into a separate translation unit that does not "
                 "use the stable ABI.";
        ctx.report(std::move(f));
      }
    }
  }
};

}  // namespace

std::unique_ptr<TuCheck> make_preprocessor_traps_check() { return std::make_unique<PreprocessorTrapsCheck>(); }

}  // namespace torchabi::source::checks
