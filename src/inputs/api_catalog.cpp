#include "inputs/api_catalog.h"

#include <algorithm>
#include <yaml-cpp/yaml.h>

#include "common/input_error.h"
#include "inputs/precompiled_rules.h"
#include "inputs/rules_source.h"

namespace torchabi::inputs {

std::string CFunction::since_label() const { return baseline ? "<=" + since.str() : since.str(); }

std::vector<std::string_view> split_qualified(std::string_view name) {
  std::vector<std::string_view> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (c == '<' || c == '(' || c == '[') {
      // "operator<" / "operator<<" are names, not template brackets.
      if (c == '<' && i >= 8 && name.substr(0, i).ends_with("operator")) continue;
      ++depth;
    } else if ((c == '>' || c == ')' || c == ']') && depth > 0) {
      --depth;
    } else if (depth == 0 && c == ':' && i + 1 < name.size() && name[i + 1] == ':') {
      parts.push_back(name.substr(start, i - start));
      start = i + 2;
      ++i;
    }
  }
  parts.push_back(name.substr(start));
  return parts;
}

static std::string_view strip_template(std::string_view component) {
  size_t lt = component.find('<');
  return lt == std::string_view::npos ? component : component.substr(0, lt);
}

static TorchVersion version_or_throw(const std::string& text, const std::string& where) {
  auto v = TorchVersion::parse_dotted(text);
  if (!v) throw InputError(where, "not a release number: '" + text + "'");
  return *v;
}

ApiCatalog ApiCatalog::load(const RulesSource& src) {
  ApiCatalog cat;
  const std::string rel_yaml = "api/releases.yaml";
  const std::string ns_yaml = "api/namespaces.yaml";
  std::string reading = rel_yaml;
  // The embedded rules as the build read them (precompiled_rules.h): no YAML.
  if (const precompiled::Rules* pre = src.is_embedded() ? precompiled::embedded() : nullptr) {
    cat.baseline_ = version_or_throw(pre->baseline, rel_yaml);
    cat.latest_ = version_or_throw(pre->latest, rel_yaml);
    for (size_t i = 0; i < pre->release_count; ++i)
      cat.releases_.push_back(version_or_throw(pre->releases[i], rel_yaml));
    for (size_t i = 0; i < pre->namespace_count; ++i) {
      const precompiled::Namespace& n = pre->namespaces[i];
      NsEntry entry{{}, n.stable ? NamespaceKind::Stable : NamespaceKind::Unstable, n.name, n.why};
      for (auto c : split_qualified(entry.name)) entry.components.emplace_back(c);
      cat.namespaces_.push_back(std::move(entry));
    }
  } else try {
    YAML::Node rel = YAML::Load(src.require(rel_yaml));
    cat.baseline_ = version_or_throw(rel["baseline"].as<std::string>(), rel_yaml);
    cat.latest_ = version_or_throw(rel["latest"].as<std::string>(), rel_yaml);
    for (const auto& r : rel["releases"]) cat.releases_.push_back(version_or_throw(r.as<std::string>(), rel_yaml));

    reading = ns_yaml;
    YAML::Node ns = YAML::Load(src.require(ns_yaml));
    for (auto [key, kind] : {std::pair{"stable", NamespaceKind::Stable}, std::pair{"unstable", NamespaceKind::Unstable}}) {
      for (const auto& e : ns[key]) {
        NsEntry entry{{}, kind, e["name"].as<std::string>(), e["why"].as<std::string>("")};
        for (auto c : split_qualified(entry.name)) entry.components.emplace_back(c);
        cat.namespaces_.push_back(std::move(entry));
      }
    }
  } catch (const YAML::Exception& e) {
    throw InputError(src.describe() + "/" + reading, std::string("malformed rules: ") + e.what());
  }

  // The table is read at every start of every command, most of which look up
  // a few names (an audit: a library's imports): here every row is checked
  // and indexed by name, and a row becomes a CFunction only when asked for
  // (row()). Building all ~1,000 CFunctions, and a stream per line before
  // that, was most of an audit's instructions (bench/audit). Columns are
  // split as std::getline(line, '\t') did: a trailing tab adds no column.
  const std::string tsv = "api/stable_c_functions.tsv";
  if (auto view = src.embedded_view(tsv)) {
    cat.text_ = *view;
  } else {
    cat.owned_text_ = std::make_shared<const std::string>(src.require(tsv));
    cat.text_ = *cat.owned_text_;
  }
  // The embedded table as the build checked and indexed it: nothing to scan.
  if (const precompiled::Rules* pre = src.is_embedded() ? precompiled::embedded() : nullptr;
      pre && pre->catalog_bytes == cat.text_.size()) {
    cat.rows_.reserve(pre->catalog_row_count);
    for (size_t i = 0; i < pre->catalog_row_count; ++i)
      cat.rows_.push_back(cat.text_.substr(pre->catalog_rows[2 * i], pre->catalog_rows[2 * i + 1]));
    cat.by_name_.reserve(pre->catalog_row_count);
    for (size_t i = 0; i < pre->catalog_row_count; ++i) {
      const uint32_t r = pre->catalog_by_name[i];
      cat.by_name_.push_back({cat.rows_[r].substr(0, cat.rows_[r].find('\t')), r});
    }
    cat.built_ = std::make_unique<std::atomic<const CFunction*>[]>(cat.rows_.size());
    cat.all_once_ = std::make_unique<std::once_flag>();
    return cat;
  }
  std::string_view rest = cat.text_;
  int lineno = 0;
  cat.rows_.reserve(1024);
  while (!rest.empty()) {
    const size_t nl = rest.find('\n');
    const std::string_view line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    ++lineno;
    if (line.empty() || line[0] == '#') continue;
    std::string_view cols[9];
    const size_t n = split_row(line, cols);
    // 9 columns; the first 6 alone (name .. prototype) are still read, so rules
    // written before the provider columns existed load as "provider unknown".
    if (n != 6 && n != 9)
      throw InputError(tsv + ":" + std::to_string(lineno),
                       "expected 9 tab-separated columns (name, since, kind, dlopen_export, header, prototype, "
                       "backend, library, build_condition)");
    const std::string_view since = cols[1].starts_with("<=") ? cols[1].substr(2) : cols[1];
    if (!TorchVersion::parse_dotted(since)) version_or_throw(std::string(since), tsv);
    cat.rows_.push_back(line);
  }
  cat.built_ = std::make_unique<std::atomic<const CFunction*>[]>(cat.rows_.size());
  cat.by_name_.reserve(cat.rows_.size());
  for (uint32_t i = 0; i < cat.rows_.size(); ++i) {
    const std::string_view line = cat.rows_[i];
    cat.by_name_.push_back({line.substr(0, line.find('\t')), i});
  }
  // The first row of a name wins, as before (stable: equal names keep file order).
  std::stable_sort(cat.by_name_.begin(), cat.by_name_.end(),
                   [](const NameRow& a, const NameRow& b) { return a.name < b.name; });
  cat.all_once_ = std::make_unique<std::once_flag>();
  return cat;
}

size_t ApiCatalog::split_row(std::string_view line, std::string_view (&cols)[9]) {
  size_t n = 0;
  for (size_t start = 0; start < line.size();) {
    const size_t tab = line.find('\t', start);
    if (n == 9) return 10;  // more than 9: rejected by load()
    cols[n++] = line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start);
    if (tab == std::string_view::npos) break;
    start = tab + 1;
  }
  return n;
}

CFunction ApiCatalog::parse_row(std::string_view line) {
  std::string_view cols[9];
  const size_t n = split_row(line, cols);
  CFunction f;
  f.name = cols[0];
  // Both parse: load() checked.
  if (cols[1].starts_with("<=")) {
    f.baseline = true;
    f.since = *TorchVersion::parse_dotted(cols[1].substr(2));
  } else {
    f.since = *TorchVersion::parse_dotted(cols[1]);
  }
  f.is_type = cols[2] == "type";
  f.dlopen_export = cols[3] == "yes";
  f.header = cols[4];
  f.prototype = cols[5];
  if (n == 9) {
    f.backend = cols[6];
    f.library = cols[7];
    f.build_condition = cols[8];
  }
  return f;
}

const CFunction& ApiCatalog::row(uint32_t i) const {
  std::atomic<const CFunction*>& slot = built_[i];
  if (const CFunction* f = slot.load(std::memory_order_acquire)) return *f;
  auto* made = new CFunction(parse_row(rows_[i]));
  const CFunction* expected = nullptr;
  // Another thread may have built it meanwhile: keep the first.
  if (!slot.compare_exchange_strong(expected, made, std::memory_order_acq_rel)) {
    delete made;
    return *expected;
  }
  return *made;
}

ApiCatalog::~ApiCatalog() {
  if (!built_) return;
  for (size_t i = 0; i < rows_.size(); ++i) delete built_[i].load(std::memory_order_relaxed);
}

const std::vector<CFunction>& ApiCatalog::c_functions() const {
  std::call_once(*all_once_, [this] {
    functions_.reserve(rows_.size());
    for (uint32_t i = 0; i < rows_.size(); ++i) functions_.push_back(row(i));
  });
  return functions_;
}

const ApiCatalog& ApiCatalog::current() {
  // Never destroyed: freeing the catalog at exit costs every process for
  // nothing the system would not reclaim.
  static const ApiCatalog* cat = new ApiCatalog(load(RulesSource::current()));
  return *cat;
}

const CFunction* ApiCatalog::find_c(std::string_view name) const {
  auto it = std::lower_bound(by_name_.begin(), by_name_.end(), name,
                             [](const NameRow& r, std::string_view n) { return r.name < n; });
  return it == by_name_.end() || it->name != name ? nullptr : &row(it->row);
}

std::vector<std::pair<unsigned, unsigned>> ApiCatalog::row_spans() const {
  std::vector<std::pair<unsigned, unsigned>> out;
  for (const auto& r : rows_)
    out.emplace_back(static_cast<unsigned>(r.data() - text_.data()), static_cast<unsigned>(r.size()));
  return out;
}

std::vector<unsigned> ApiCatalog::rows_by_name() const {
  std::vector<unsigned> out;
  for (const auto& n : by_name_) out.push_back(n.row);
  return out;
}

std::vector<NamespaceMatch> ApiCatalog::namespaces() const {
  std::vector<NamespaceMatch> out;
  for (const auto& e : namespaces_) out.push_back({e.kind, e.name, e.why});
  return out;
}

std::vector<std::string> ApiCatalog::namespace_roots() const {
  std::vector<std::string> roots;
  for (const auto& e : namespaces_)
    if (!e.components.empty()) roots.push_back(e.components.front());
  return roots;
}

bool ApiCatalog::looks_like_shim(std::string_view s) {
  return s.starts_with("aoti_torch_") || s.starts_with("torch_") || s.starts_with("aoti_record_function");
}

NamespaceMatch ApiCatalog::classify(std::string_view qualified) const {
  auto parts = split_qualified(qualified);
  // A leading "::" yields an empty first component.
  if (!parts.empty() && parts.front().empty()) parts.erase(parts.begin());
  const NsEntry* best = nullptr;
  for (const auto& e : namespaces_) {
    if (e.components.size() > parts.size()) continue;
    bool match = true;
    for (size_t i = 0; i < e.components.size() && match; ++i)
      match = strip_template(parts[i]) == e.components[i];
    // torch::stable itself names a namespace; "torch" alone must still leave a
    // component after it, otherwise a function ::torch() would count.
    if (match && (!best || e.components.size() > best->components.size())) best = &e;
  }
  if (!best) return {};
  return {best->kind, best->name, best->why};
}

}  // namespace torchabi::inputs
