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
