# Generates a C++ source that holds every file under rules/ as a byte array.
# Regenerated at build time whenever a rules file changes.
function(torchabi_embed_rules rules_dir out_cpp)
  file(GLOB_RECURSE _rules CONFIGURE_DEPENDS "${rules_dir}/*.yaml" "${rules_dir}/*.tsv" "${rules_dir}/*.json" "${rules_dir}/*.md")
  add_custom_command(
    OUTPUT "${out_cpp}"
    COMMAND ${CMAKE_COMMAND} -DRULES_DIR=${rules_dir} -DOUT=${out_cpp}
            -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/embed_rules_script.cmake
    DEPENDS ${_rules} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/embed_rules_script.cmake
    COMMENT "Embedding rules/ into torchabi"
    VERBATIM)
  set(TORCHABI_EMBEDDED_RULES_CPP "${out_cpp}" PARENT_SCOPE)
endfunction()

# Generates a header holding the text of `in_file` as the constant
# torchabi::generated::<name>: our own scripts that torchabi writes out and
# runs (inputs/project/record_setup.py). Regenerated when the file changes.
function(torchabi_embed_text in_file out_header name)
  add_custom_command(
    OUTPUT "${out_header}"
    COMMAND ${CMAKE_COMMAND} -DIN=${in_file} -DOUT=${out_header} -DNAME=${name}
            -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/embed_text_script.cmake
    DEPENDS ${in_file} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/embed_text_script.cmake
    COMMENT "Embedding ${in_file}"
    VERBATIM)
endfunction()
