// source-unstable-include: every #include in the project's files is
// classified; unstable torch headers are reported where the project includes
// them, including those reached through a third-party header (reported at
// the project's include line, with the chain).
#include <deque>
#include <set>
#include <unordered_map>

#include "analyzers/source/checks/checks.h"

namespace torchabi::source::checks {

namespace {

std::string angled(const IncludeDirective& d) { return d.angled ? "<" + d.spelled + ">" : "\"" + d.spelled + "\""; }

class IncludeCheck final : public TuCheck {
public:
  void run(CheckContext& ctx) override {
    const ParsedTu& tu = ctx.tu;
    std::unordered_map<std::string, std::vector<const IncludeDirective*>> by_includer;
    for (const auto& d : tu.includes()) by_includer[d.includer].push_back(&d);

    for (const auto& d : tu.includes()) {
      if (!tu.is_project_file(d.includer)) continue;
      if (d.kind == HeaderKind::Unstable) {
        report_direct(ctx, d);
      } else if (d.kind == HeaderKind::Other && !d.resolved.empty() && !tu.is_project_file(d.resolved)) {
        if (auto chain = find_unstable_below(tu, by_includer, d.resolved); !chain.empty()) report_indirect(ctx, d, chain);
      }
    }
  }

private:
  // Directives from `file` down to the first unstable torch header, through
  // headers that are neither the project's nor torch's.
  static std::vector<const IncludeDirective*> find_unstable_below(
      const ParsedTu& tu, const std::unordered_map<std::string, std::vector<const IncludeDirective*>>& by_includer,
      const std::string& file) {
    std::unordered_map<std::string, const IncludeDirective*> parent;
    std::deque<std::string> queue{file};
    std::set<std::string> seen{file};
    while (!queue.empty()) {
      std::string cur = queue.front();
      queue.pop_front();
      auto it = by_includer.find(cur);
      if (it == by_includer.end()) continue;
      for (const IncludeDirective* d : it->second) {
        if (d->kind == HeaderKind::Unstable) {
          std::vector<const IncludeDirective*> chain{d};
          for (std::string f = cur; parent.count(f); f = parent[f]->includer) chain.insert(chain.begin(), parent[f]);
          return chain;
        }
        if (d->kind != HeaderKind::Other || d->resolved.empty() || tu.is_project_file(d->resolved)) continue;
        if (seen.insert(d->resolved).second) {
          parent[d->resolved] = d;
          queue.push_back(d->resolved);
        }
      }
    }
    return {};
  }

  static void add_help(CheckContext& ctx, const IncludeDirective& d, findings::Finding& f, bool fixable) {
    auto m = ctx.env.replacements.find(d.header_name, "header");
    if (m && m->replacement) {
      f.help = "Include <" + *m->replacement + "> instead" +
               (m->entry->since ? " (PyTorch " + m->entry->since->str() + "+)" : std::string()) + ".";
      if (!m->entry->note.empty()) f.help += " " + m->entry->note;
      if (fixable && m->entry->fix != ReplacementFix::No && d.range.valid()) {
        // Replace only the name between the brackets.
        std::string_view text = ctx.tu.file_text(d.includer);
        size_t at = text.find(d.spelled, d.range.begin);
        if (at != std::string_view::npos && at + d.spelled.size() <= d.range.end) {
          Range name = d.range;
          name.begin = static_cast<uint32_t>(at);
          name.end = static_cast<uint32_t>(at + d.spelled.size());
          f.fix = make_fix(name, *m->replacement, m->entry->fix == ReplacementFix::Safe,
                           "include " + *m->replacement + " instead of " + d.spelled);
        }
      }
    } else if (m && !m->entry->note.empty()) {
      f.help = m->entry->note;
    } else {
      f.help = "Include only stable headers (torch/csrc/stable/, torch/headeronly/, the C shim headers) and use the "
               "torch::stable API they declare.";
    }
  }

  static void report_direct(CheckContext& ctx, const IncludeDirective& d) {
    findings::Finding f;
    f.rule = "source-unstable-include";
    f.location = location_of(d.range);
    f.location.symbol = d.header_name;
    f.message = "includes unstable PyTorch header " + angled(d) + (d.resolved.empty() ? " (not found)" : "");
    add_help(ctx, d, f, true);
    auto chain = ctx.tu.include_chain(d.includer);
    if (!chain.empty()) {
      // Innermost first, as compilers print "In file included from".
      std::string s;
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) s += (s.empty() ? "" : ", from ") + include_site(**it);
      f.notes.push_back("in a header included from " + s);
    }
    ctx.report(std::move(f));
  }

  static void report_indirect(CheckContext& ctx, const IncludeDirective& d, const std::vector<const IncludeDirective*>& chain) {
    const IncludeDirective& last = *chain.back();
    findings::Finding f;
    f.rule = "source-unstable-include";
    f.location = location_of(d.range);
    f.location.symbol = last.header_name;
    f.message = "includes " + angled(d) + ", which includes unstable PyTorch header " + angled(last);
    std::string s = include_site(d) + " " + angled(d);
    for (const auto* c : chain) s += " -> " + include_site(*c) + " " + angled(*c);
    f.notes.push_back("include chain: " + s);
    add_help(ctx, last, f, false);
    f.help = "Stop including " + angled(d) + " from code that must stay on the stable ABI, or use a version of it that "
             "does not pull in PyTorch's unstable headers. " + f.help;
    ctx.report(std::move(f));
  }
};

}  // namespace

std::unique_ptr<TuCheck> make_include_check() { return std::make_unique<IncludeCheck>(); }

}  // namespace torchabi::source::checks
