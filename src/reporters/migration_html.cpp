// A self-contained page (one file, no external JS or CSS, no network) that a
// maintainer can open from CI artifacts: headline, the per-file chart of
// remaining work as inline SVG, then the API table, blockers and order of work.
#include <algorithm>

#include "reporters/migration_reporter.h"
#include "reporters/path_bytes.h"

namespace torchabi::reporters {

using namespace torchabi::migration;

namespace {

// The page is UTF-8: text that is not (a file name with a byte 0xff) is
// escaped as `ls -b` does first (path_bytes.h).
std::string esc(const std::string& text) {
  const std::string s = valid_utf8(text) ? text : escape_for_text(text);
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string num(size_t n) { return std::to_string(n); }

struct Segment {
  const char* cls;
  const char* label;
  const char* color;  // fill colours are attributes so the chart renders without the stylesheet
  size_t Counts::*field;
};
constexpr Segment kSegments[] = {
    {"fixable", "fixable by --fix", "#2e7d32", &Counts::fixable},
    {"unsafe", "fixable with --unsafe-fixes", "#f9a825", &Counts::fixable_unsafe},
    {"manual", "manual", "#1565c0", &Counts::manual},
    {"blocked", "blocked", "#c62828", &Counts::blocked},
};

std::string short_path(const std::string& p, size_t max = 44) {
  return p.size() <= max ? p : "…" + p.substr(p.size() - (max - 1));
}

std::string chart(const MigrationPlan& p) {
  const int label_w = 300, bar_w = 480, row_h = 24, top = 34, count_w = 60;
  size_t max_total = 1;
  for (const auto& f : p.files) max_total = std::max(max_total, f.counts.total());
  const int height = top + int(p.files.size()) * row_h + 8;
  const int width = label_w + bar_w + count_w;
  std::string s = "<svg id=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"" + num(width) +
                  "\" height=\"" + num(height) + "\" viewBox=\"0 0 " + num(width) + " " + num(height) +
                  "\" aria-label=\"Remaining work per file\">\n";
  int x = 0;
  for (const auto& seg : kSegments) {  // legend
    s += "<rect x=\"" + num(x) + "\" y=\"6\" width=\"14\" height=\"14\" fill=\"" + seg.color + "\"/>";
    s += "<text x=\"" + num(x + 18) + "\" y=\"18\" font-size=\"12\">" + esc(seg.label) + "</text>\n";
    x += 30 + int(std::string(seg.label).size()) * 7;
  }
  for (size_t i = 0; i < p.files.size(); ++i) {
    const auto& f = p.files[i];
    const int y = top + int(i) * row_h;
    s += "<g class=\"file-bar\" data-file=\"" + esc(f.path) + "\" data-total=\"" + num(f.counts.total()) + "\">";
    s += "<title>" + esc(f.path) + ": " + num(f.counts.total()) + " uses</title>";
    s += "<text x=\"" + num(label_w - 8) + "\" y=\"" + num(y + 16) + "\" font-size=\"12\" text-anchor=\"end\">" +
         esc(short_path(f.path)) + "</text>";
    double at = label_w;
    for (const auto& seg : kSegments) {
      const size_t n = f.counts.*seg.field;
      if (!n) continue;
      const double w = double(bar_w) * double(n) / double(max_total);
      char buf[160];
      std::snprintf(buf, sizeof buf, "<rect class=\"seg %s\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\">",
                    seg.cls, at, y + 3, w, row_h - 6, seg.color);
      s += buf;
      s += "<title>" + num(n) + " " + esc(seg.label) + "</title></rect>";
      at += w;
    }
    s += "<text x=\"" + num(int(at) + 6) + "\" y=\"" + num(y + 16) + "\" font-size=\"12\">" + num(f.counts.total()) +
         "</text></g>\n";
  }
  s += "</svg>\n";
  return s;
}

constexpr const char* kStyle = R"(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2em auto;max-width:1100px;padding:0 1em;color:#1b1b1b}
h1{font-size:1.6em;margin-bottom:.2em}h2{margin-top:1.6em;border-bottom:1px solid #ddd;padding-bottom:.2em}
.cards{display:flex;gap:.8em;flex-wrap:wrap;margin:1em 0}.card{border-radius:6px;padding:.6em 1em;color:#fff;min-width:8em}
.card b{display:block;font-size:1.8em}.fixable{background:#2e7d32}.unsafe{background:#f9a825;color:#1b1b1b}
.manual{background:#1565c0}.blocked{background:#c62828}.total{background:#424242}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #ddd;padding:.3em .5em;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.n{text-align:right}td.where{white-space:nowrap}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.92em;overflow-wrap:anywhere}
details summary{cursor:pointer}.why{color:#555}.note{color:#555;font-size:.92em}
)";

}  // namespace

std::string render_plan_html(const MigrationPlan& p) {
  std::string s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                  "<title>torchabi migrate: plan to the LibTorch stable ABI</title>\n<style>";
  s += kStyle;
  s += "</style>\n</head>\n<body>\n<h1>Migration plan to the LibTorch stable ABI</h1>\n";
  s += "<p id=\"headline\">" + esc(plan_headline(p)) + "</p>\n";
  s += "<div class=\"cards\">";
  s += "<div class=\"card total\"><b>" + num(p.summary.total()) + "</b>non-stable uses</div>";
  for (const auto& seg : kSegments)
    s += std::string("<div class=\"card ") + seg.cls + "\"><b>" + num(p.summary.*seg.field) + "</b>" + esc(seg.label) +
         "</div>";
  s += "</div>\n";
  if (p.target) {
    s += "<p id=\"target\">Lowest <code>TORCH_TARGET_VERSION</code> after migration: <b>" + esc(p.target->str()) +
         "</b> (<code>" + esc(p.target->hex()) + "</code>)";
    if (p.target_is_baseline) s += ", nothing newer than " + esc(p.target->str()) + " is needed";
    else {
      s += ", set by ";
      for (size_t i = 0; i < p.target_set_by.size(); ++i) s += (i ? ", " : "") + ("<code>" + esc(p.target_set_by[i]) + "</code>");
    }
    s += ".</p>\n";
  }
  if (p.ceiling) {
    s += "<p id=\"ceiling\">Asked to stay at or below <b>" + esc(p.ceiling->str()) + "</b>: ";
    if (p.above_ceiling.empty()) s += "every replacement fits.</p>\n";
    else {
      s += num(p.above_ceiling.size()) + " use(s) have no stable spelling that old.</p>\n<ul id=\"above-ceiling\">";
      for (const auto& line : p.above_ceiling) s += "<li><code>" + esc(line) + "</code></li>";
      s += "</ul>\n";
    }
  }

  s += "<h2>Remaining work per file</h2>\n";
  if (p.files.empty()) s += "<p>Nothing left: every use is stable.</p>\n";
  else s += chart(p);

  s += "<h2>APIs to replace</h2>\n<table id=\"apis\">\n<thead><tr><th>API</th><th>uses</th><th>stable replacement</th>"
       "<th>since</th><th>fixable</th><th>manual</th><th>blocked</th><th>where</th></tr></thead>\n<tbody>\n";
  for (const auto& g : p.apis) {
    s += "<tr><td><code>" + esc(g.api) + "</code>";
    if (!g.note.empty()) s += "<div class=\"note\">" + esc(g.note) + "</div>";
    s += "</td><td class=\"n\">" + num(g.counts.total()) + "</td><td>" +
         (g.replacement.empty() ? std::string("—") : "<code>" + esc(g.replacement) + "</code>") + "</td><td>" +
         (g.since ? esc(g.since->str()) : "—") + "</td><td class=\"n\">" +
         num(g.counts.fixable + g.counts.fixable_unsafe) + "</td><td class=\"n\">" + num(g.counts.manual) +
         "</td><td class=\"n\">" + num(g.counts.blocked) + "</td><td class=\"where\"><details><summary>" +
         num(g.uses.size()) + " in " + num(g.files.size()) + " file" + (g.files.size() == 1 ? "" : "s") + "</summary>";
    for (const auto& l : g.uses) s += "<code>" + esc(l.file_line()) + "</code><br>";
    s += "</details></td></tr>\n";
  }
  s += "</tbody>\n</table>\n";

  if (!p.blockers.empty()) {
    s += "<h2>Blockers</h2>\n<table id=\"blockers\">\n<thead><tr><th>blocker</th><th>uses</th><th>APIs</th>"
         "<th>workaround</th></tr></thead>\n<tbody>\n";
    for (const auto& b : p.blockers) {
      s += "<tr><td>" + esc(b.title) + "</td><td class=\"n\">" + num(b.uses.size()) + "</td><td>";
      for (const auto& a : b.apis) s += "<code>" + esc(a) + "</code><br>";
      s += "</td><td>" + esc(b.workaround);
      if (b.partial_since) s += " <i>(partly available from " + esc(b.partial_since->str()) + ")</i>";
      if (b.added_in) s += " <i>(the stable headers add it in " + esc(b.added_in->str()) + ")</i>";
      if (!b.source.empty()) s += " <small>Source: " + esc(b.source) + "</small>";
      s += "</td></tr>\n";
    }
    s += "</tbody>\n</table>\n";
  }

  if (!p.order.empty()) {
    s += "<h2>Order of work</h2>\n<ol id=\"order\">\n";
    for (const auto& g : p.order) {
      s += "<li>";
      for (size_t i = 0; i < g.files.size(); ++i) s += (i ? ", " : "") + ("<code>" + esc(g.files[i]) + "</code>");
      s += " — " + num(g.counts.total()) + " uses";
      if (!g.why.empty()) s += " <span class=\"why\">(" + esc(g.why) + ")</span>";
      s += "</li>\n";
    }
    s += "</ol>\n";
  }
  if (!p.steps.empty()) {
    s += "<h2>Steps</h2>\n<p>One pull request each, in this order; each still builds and loads.</p>\n<ol id=\"steps\">\n";
    for (const auto& st : p.steps) {
      s += "<li class=\"step\" data-id=\"" + esc(st.id) + "\" data-uses-left=\"" + num(st.counts.total()) +
           "\"><code>" + esc(st.id) + "</code> ";
      for (size_t i = 0; i < st.files.size(); ++i) s += (i ? ", " : "") + ("<code>" + esc(st.files[i]) + "</code>");
      s += " — " + num(st.counts.total()) + " uses left";
      if (st.kind == "library-defs") s += "; the library's defs";
      if (st.kind == "pybind-module")
        s += st.keep_legacy_module ? "; <b>keep as a separate non-stable module</b>" : "; pybind module";
      s += "<ul>";
      if (!st.after.empty()) {
        s += "<li>after:";
        for (const auto& a : st.after) s += " <code>" + esc(a) + "</code>";
        s += "</li>";
      }
      for (const auto& w : st.why) s += "<li class=\"why\">together: " + esc(w) + "</li>";
      for (const auto& e : st.edits)
        s += "<li>also <code>" + esc(e.file) + ":" + num(e.line) + "</code>: " + esc(e.what) + "</li>";
      for (const auto& b : st.builds) s += "<li>builds: " + esc(b) + "</li>";
      for (const auto& b : st.blockers) s += "<li>blocked: " + esc(b) + "</li>";
      s += "</ul></li>\n";
    }
    s += "</ol>\n";
  }
  if (!p.libraries.empty()) {
    s += "<h2>Operator libraries</h2>\n<ul id=\"libraries\">\n";
    for (const auto& l : p.libraries) s += "<li><code>" + esc(l.ns) + "</code>: " + esc(l.plan) + "</li>\n";
    s += "</ul>\n";
  }
  if (p.comparison) {
    const auto& c = *p.comparison;
    s += "<h2>Progress since <code>" + esc(c.baseline) + "</code></h2>\n<p id=\"progress\">" +
         (c.regressed ? "<b>Went up</b>" : std::string("Uses left")) + ": " + num(c.before) + " → " + num(c.now) +
         "</p>\n<table id=\"progress-steps\">\n<thead><tr><th>step</th><th>files</th><th>before</th><th>now</th>"
         "<th></th></tr></thead>\n<tbody>\n";
    for (const auto& st : c.steps) {
      s += "<tr><td><code>" + esc(st.id) + "</code></td><td>";
      for (size_t i = 0; i < st.files.size(); ++i) s += (i ? ", " : "") + ("<code>" + esc(st.files[i]) + "</code>");
      s += "</td><td class=\"n\">" + (st.before ? num(*st.before) : std::string("—")) + "</td><td class=\"n\">" +
           (st.now ? num(*st.now) : std::string("—")) + "</td><td>" + esc(st.status) + "</td></tr>\n";
    }
    s += "</tbody>\n</table>\n";
  }
  for (const auto& n : p.notes) s += "<p class=\"note\">" + esc(n) + "</p>\n";
  for (const auto& e : p.failures)
    s += "<p class=\"note\">Could not analyse <code>" + esc(e.input) + "</code>: " + esc(e.message) + "</p>\n";
  s += "</body>\n</html>\n";
  return s;
}

}  // namespace torchabi::reporters
