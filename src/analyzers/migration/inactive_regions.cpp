#include "analyzers/migration/inactive_regions.h"

#include <algorithm>
#include <sstream>

#include <clang-c/Index.h>

#include "analyzers/migration/include_graph.h"
#include "analyzers/source/tu_check.h"

namespace torchabi::migration {

namespace {

constexpr const char* kInactiveRangesFact = "migrate.inactive-ranges";

// Fact value: "<abs path>\t<begin>-<end> <begin>-<end> ..." (possibly no ranges).
class InactiveRegionCheck final : public source::TuCheck {
public:
  void run(source::CheckContext& ctx) override {
    CXTranslationUnit tu = ctx.tu.raw();
    if (!tu) return;
    for (const auto& path : ctx.tu.project_files()) {
      std::string value = path + "\t";
      if (CXFile file = clang_getFile(tu, path.c_str())) {
        if (CXSourceRangeList* list = clang_getSkippedRanges(tu, file)) {
          for (unsigned i = 0; i < list->count; ++i) {
            unsigned b = 0, e = 0;
            clang_getSpellingLocation(clang_getRangeStart(list->ranges[i]), nullptr, nullptr, nullptr, &b);
            clang_getSpellingLocation(clang_getRangeEnd(list->ranges[i]), nullptr, nullptr, nullptr, &e);
            if (e > b) value += std::to_string(b) + "-" + std::to_string(e) + " ";
          }
          clang_disposeSourceRangeList(list);
        }
      }
      ctx.subject().facts.emplace_back(kInactiveRangesFact, value);
    }
  }
};

std::vector<ByteRange> parse_ranges(const std::string& text) {
  std::vector<ByteRange> out;
  std::istringstream in(text);
  std::string item;
  while (in >> item) {
    const size_t dash = item.find('-');
    if (dash == std::string::npos) continue;
    try {
      out.push_back({uint32_t(std::stoul(item.substr(0, dash))), uint32_t(std::stoul(item.substr(dash + 1)))});
    } catch (const std::exception&) {
    }
  }
  std::sort(out.begin(), out.end(), [](const ByteRange& a, const ByteRange& b) { return a.begin < b.begin; });
  return out;
}

}  // namespace

void register_inactive_region_check() {
  source::register_tu_check("migrate-inactive-regions", [] { return std::make_unique<InactiveRegionCheck>(); });
}

std::vector<ByteRange> intersect_ranges(const std::vector<ByteRange>& a, const std::vector<ByteRange>& b) {
  std::vector<ByteRange> out;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const uint32_t lo = std::max(a[i].begin, b[j].begin), hi = std::min(a[i].end, b[j].end);
    if (lo < hi) out.push_back({lo, hi});
    if (a[i].end < b[j].end) ++i;
    else ++j;
  }
  return out;
}

std::map<std::string, std::vector<ByteRange>> take_inactive_regions(findings::Report& report) {
  std::map<std::string, std::vector<ByteRange>> out;
  for (const auto& value : report.take_facts(kInactiveRangesFact)) {
    const size_t tab = value.find('\t');
    const std::string path = normal_path(value.substr(0, tab));
    auto ranges = parse_ranges(tab == std::string::npos ? std::string() : value.substr(tab + 1));
    auto found = out.find(path);
    if (found == out.end()) out.emplace(path, std::move(ranges));
    else found->second = intersect_ranges(found->second, ranges);
  }
  for (auto it = out.begin(); it != out.end();) it = it->second.empty() ? out.erase(it) : std::next(it);
  return out;
}

}  // namespace torchabi::migration
