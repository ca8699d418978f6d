#include "inputs/headeronly_index.h"

#include <vector>

#include "common/input_error.h"
#include "inputs/rules_source.h"

namespace torchabi::inputs {

namespace {
constexpr const char* kFile = "api/headeronly_cxx.tsv";
}

HeaderOnlyIndex HeaderOnlyIndex::load(const RulesSource& src) {
  HeaderOnlyIndex idx;
  std::string_view all;
  if (auto view = src.embedded_view(kFile)) {
    all = *view;
  } else {
    auto text = src.read(kFile);
    if (!text) return idx;
    idx.owned_ = std::make_shared<const std::string>(std::move(*text));
    all = *idx.owned_;
  }
  // string_views, not a stream per line nor a string per row.
  std::string_view rest = all;
  std::vector<std::string_view> cols;
  size_t line_no = 0;
  bool header_seen = false;
  while (!rest.empty()) {
    const size_t nl = rest.find('\n');
    const std::string_view line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    cols.clear();
    for (size_t start = 0; start < line.size();) {
      const size_t tab = line.find('\t', start);
      cols.push_back(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
      if (tab == std::string_view::npos) break;
      start = tab + 1;
    }
    if (!header_seen) {
      header_seen = true;
      if (cols.size() < 4 || cols[0] != "name" || cols[1] != "kind" || cols[3] != "mangled")
        throw InputError(src.describe() + "/" + kFile, "line " + std::to_string(line_no) +
                                                           ": expected the header name, kind, header, mangled");
      continue;
    }
    if (cols.size() < 4 || cols[0].empty())
      throw InputError(src.describe() + "/" + kFile, "line " + std::to_string(line_no) + ": expected 4 columns");
    const std::string_view kind = cols[1];
    if (kind == "using-namespace") {
      idx.directives_.emplace(cols[0], cols[3]);
      continue;
    }
    idx.names_.push_back(cols[0]);
    if (kind == "type") idx.types_.push_back(cols[0]);
    else if (kind == "function-template") idx.templates_.push_back(cols[0]);
    if ((kind == "function" || kind == "variable") && cols[3] != "-") idx.mangled_.push_back(cols[3]);
  }
  for (auto* v : {&idx.names_, &idx.types_, &idx.templates_, &idx.mangled_}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  return idx;
}

bool HeaderOnlyIndex::defines_name(std::string_view name) const { return defines_name(name, 0); }

bool HeaderOnlyIndex::defines_name(std::string_view name, int depth) const {
  if (name.starts_with("::")) name.remove_prefix(2);
  if (has_name(name)) return true;
  for (size_t p = name.rfind("::"); p != std::string_view::npos && p > 0; p = name.rfind("::", p - 1))
    if (has_type(name.substr(0, p))) return true;
  // at::ScalarType is c10::ScalarType: the headers' `namespace at { using namespace c10; }`.
  if (depth > 4) return false;  // directives can nominate each other; lookup terminates anyway
  for (size_t p = name.find("::"); p != std::string_view::npos; p = name.find("::", p + 2)) {
    auto [first, last] = directives_.equal_range(std::string(name.substr(0, p)));
    for (auto it = first; it != last; ++it)
      if (defines_name(it->second + std::string(name.substr(p)), depth + 1)) return true;
  }
  return false;
}

const HeaderOnlyIndex& HeaderOnlyIndex::current() {
  static const HeaderOnlyIndex* idx = new HeaderOnlyIndex(load(RulesSource::current()));  // never destroyed
  return *idx;
}

}  // namespace torchabi::inputs
