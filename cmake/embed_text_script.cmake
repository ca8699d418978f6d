# cmake -P script: IN, OUT, NAME. Writes a header that holds IN's text as the
# constant torchabi::generated::NAME (a raw string literal).
file(READ "${IN}" _text)
string(FIND "${_text}" ")torchabi_embed\"" _clash)
if(NOT _clash EQUAL -1)
  message(FATAL_ERROR "${IN} contains the raw string delimiter )torchabi_embed\"")
endif()
file(WRITE "${OUT}.tmp" "// Generated from ${IN} by cmake/embed_text_script.cmake. Do not edit.
#pragma once
#include <string_view>
namespace torchabi::generated {
inline constexpr std::string_view ${NAME} = R\"torchabi_embed(${_text})torchabi_embed\";
}  // namespace torchabi::generated
")
file(RENAME "${OUT}.tmp" "${OUT}")
