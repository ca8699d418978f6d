#include "inputs/api_catalog.h"

#include <yaml-cpp/yaml.h>

#include "common/input_error.h"
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
  try {
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

  // Split with string_views, not a stream per line: this file is read at
  // every start of every command, and istringstream made it most of an
  // audit's instructions (bench/audit). Columns as std::getline(line, '\t')
  // gave them: a trailing tab adds no empty column.
  const std::string tsv = "api/stable_c_functions.tsv";
  const std::string text = src.require(tsv);
  std::string_view rest = text;
  std::vector<std::string_view> cols;
  int lineno = 0;
  cat.functions_.reserve(1024);
  cat.by_name_.reserve(1024);
  while (!rest.empty()) {
    const size_t nl = rest.find('\n');
    const std::string_view line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    ++lineno;
    if (line.empty() || line[0] == '#') continue;
    cols.clear();
    for (size_t start = 0; start < line.size();) {
      const size_t tab = line.find('\t', start);
      cols.push_back(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
      if (tab == std::string_view::npos) break;
      start = tab + 1;
    }
    // 9 columns; the first 6 alone (name .. prototype) are still read, so rules
    // written before the provider columns existed load as "provider unknown".
    if (cols.size() != 6 && cols.size() != 9)
      throw InputError(tsv + ":" + std::to_string(lineno),
                       "expected 9 tab-separated columns (name, since, kind, dlopen_export, header, prototype, "
                       "backend, library, build_condition)");
    CFunction f;
    f.name = cols[0];
    if (cols[1].starts_with("<=")) {
      f.baseline = true;
      f.since = version_or_throw(std::string(cols[1].substr(2)), tsv);
    } else {
      f.since = version_or_throw(std::string(cols[1]), tsv);
    }
    f.is_type = cols[2] == "type";
    f.dlopen_export = cols[3] == "yes";
    f.header = cols[4];
    f.prototype = cols[5];
    if (cols.size() == 9) {
      f.backend = cols[6];
      f.library = cols[7];
      f.build_condition = cols[8];
    }
    cat.by_name_.emplace(f.name, cat.functions_.size());
    cat.functions_.push_back(std::move(f));
  }
  return cat;
}

const ApiCatalog& ApiCatalog::current() {
  // Never destroyed: freeing a thousand entries at exit cost every process
  // about 0.4 ms for nothing the system would not reclaim.
  static const ApiCatalog* cat = new ApiCatalog(load(RulesSource::current()));
  return *cat;
}

const CFunction* ApiCatalog::find_c(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? nullptr : &functions_[it->second];
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
