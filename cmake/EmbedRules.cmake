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
  # What --version says of them (release, file count, digest), precomputed:
  # hashing every byte at run time cost each --version ~3 ms.
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  get_filename_component(_dir "${out_cpp}" DIRECTORY)
  set(_release_cpp "${_dir}/embedded_rules_release.cpp")
  add_custom_command(
    OUTPUT "${_release_cpp}"
    COMMAND Python3::Interpreter ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/rules_release.py ${rules_dir} ${_release_cpp}
    DEPENDS ${_rules} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/rules_release.py
    COMMENT "Describing the embedded rules for --version"
    VERBATIM)
  set(TORCHABI_EMBEDDED_RULES_CPP "${out_cpp};${_release_cpp}" PARENT_SCOPE)
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
