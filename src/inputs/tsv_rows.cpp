#include "inputs/tsv_rows.h"

#include "common/input_error.h"

namespace torchabi::inputs {

void for_each_tsv_row(std::string_view text, const std::string& file, size_t min_columns,
                      const std::function<void(const std::vector<std::string_view>&, size_t)>& row) {
  bool header = true;
  size_t lineno = 0;
  std::vector<std::string_view> cols;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    if (header) {
      header = false;
      continue;
    }
    cols.clear();
    for (size_t start = 0;;) {
      const size_t tab = line.find('\t', start);
      cols.push_back(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
      if (tab == std::string_view::npos) break;
      start = tab + 1;
    }
    if (cols.size() < min_columns)
      throw InputError(file + ":" + std::to_string(lineno),
                       std::to_string(cols.size()) + " columns, expected " + std::to_string(min_columns));
    row(cols, lineno);
  }
}

}  // namespace torchabi::inputs
