# cmake -DSRC=<dir> -P heavy_templates.cmake: fails when a file under SRC,
# outside common/, instantiates std::regex or nlohmann/json's parser or
# serializer itself instead of going through common/regex.h and
# common/json_io.h. Each instantiation costs about 4 s of -O2 code
# generation per unity batch (bench/build/README.md), and one stray use brings
# it back into its whole batch.
get_filename_component(SRC "${SRC}" ABSOLUTE)
file(GLOB_RECURSE _files "${SRC}/*.cpp" "${SRC}/*.h")
set(_bad "")
foreach(_f IN LISTS _files)
  file(RELATIVE_PATH _rel "${SRC}" "${_f}")
  if(_rel MATCHES "^common/")
    continue()
  endif()
  file(STRINGS "${_f}" _lines REGEX "#include <regex>|std::(regex|smatch|cmatch|sregex_iterator)|json::parse\\(|\\.dump\\(")
  foreach(_l IN LISTS _lines)
    string(STRIP "${_l}" _l)
    if(NOT _l MATCHES "^//")
      string(APPEND _bad "  ${_rel}: ${_l}\n")
    endif()
  endforeach()
endforeach()
if(_bad)
  message(FATAL_ERROR "use common/regex.h and common/json_io.h instead:\n${_bad}")
endif()
