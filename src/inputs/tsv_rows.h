// The rows of a rules/ TSV table: '#' comment lines and the header row are
// skipped; a row with fewer than `min_columns` columns is an InputError
// naming "file:line" (the rules are broken, not the user's input).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace torchabi::inputs {

void for_each_tsv_row(std::string_view text, const std::string& file, size_t min_columns,
                      const std::function<void(const std::vector<std::string_view>& columns, size_t line)>& row);

}  // namespace torchabi::inputs
