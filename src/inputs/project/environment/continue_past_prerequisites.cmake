# torchabi's second configure of a project whose first one stopped at a
# prerequisite this machine lacks (inputs/project/environment/
# cmake_prerequisites.h). Included once, at the project's first project()
# call. It lets the configure go on past what a build machine would have:
#  - find_package(X REQUIRED) of a package not found: X_FOUND is claimed, so
#    the project takes the path a build machine takes;
#  - message(FATAL_ERROR|SEND_ERROR ...): a warning instead;
#  - X::y names linked but never defined (the package that defines them was
#    not found): empty imported targets, created once every directory has
#    been read;
#  - X-NOTFOUND values in include directories or link libraries: dropped.
# Each is written to TORCHABI_CONTINUED_LOG ("kind<TAB>where<TAB>what" lines)
# so the report names it and marks the flags it may have changed unresolved.
include_guard(GLOBAL)

function(_torchabi_continued kind where what)
  string(REPLACE "\n" " " what "${what}")
  string(REPLACE "\t" " " what "${what}")
  file(APPEND "${TORCHABI_CONTINUED_LOG}" "${kind}\t${where}\t${what}\n")
endfunction()

# The built-in message() stays reachable as _message().
function(message)
  if(ARGC GREATER 0 AND (ARGV0 STREQUAL "FATAL_ERROR" OR ARGV0 STREQUAL "SEND_ERROR"))
    set(_torchabi_text "")
    math(EXPR _torchabi_last "${ARGC} - 1")
    if(_torchabi_last GREATER 0)
      foreach(_torchabi_i RANGE 1 ${_torchabi_last})
        string(APPEND _torchabi_text "${ARGV${_torchabi_i}}")
      endforeach()
    endif()
    file(RELATIVE_PATH _torchabi_where "${CMAKE_SOURCE_DIR}" "${CMAKE_CURRENT_LIST_FILE}")
    _torchabi_continued(message "${_torchabi_where}" "${_torchabi_text}")
    _message(WARNING "torchabi continued past: ${_torchabi_text}")
  else()
    _message(${ARGV})
  endif()
endfunction()

if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.24)
  # A macro: the variables the package sets must reach the caller. CMake
  # passes the method (FIND_PACKAGE) first, then find_package's arguments.
  macro(_torchabi_find_package _torchabi_method _torchabi_name)
    set(_torchabi_fp_args "${ARGN}")
    # Torch is torchabi's own stand-in: a version it cannot give is a fact.
    if("REQUIRED" IN_LIST _torchabi_fp_args AND NOT "${_torchabi_name}" STREQUAL "Torch")
      list(REMOVE_ITEM _torchabi_fp_args REQUIRED)
      find_package(${_torchabi_name} ${_torchabi_fp_args} BYPASS_PROVIDER)
      string(TOUPPER "${_torchabi_name}" _torchabi_upper)
      if(NOT ${_torchabi_name}_FOUND AND NOT ${_torchabi_upper}_FOUND)
        file(RELATIVE_PATH _torchabi_where "${CMAKE_SOURCE_DIR}" "${CMAKE_CURRENT_LIST_FILE}")
        _torchabi_continued(find_package "${_torchabi_where}" "${_torchabi_name}")
      endif()
      # Claimed either way: an unfulfilled request would run the built-in
      # find_package, REQUIRED and all.
      set(${_torchabi_name}_FOUND TRUE)
    endif()
  endmacro()
  # Allowed here: torchabi passes this file as CMAKE_PROJECT_TOP_LEVEL_INCLUDES
  # on 3.24 and later (CMAKE_PROJECT_INCLUDE_BEFORE before).
  cmake_language(SET_DEPENDENCY_PROVIDER _torchabi_find_package SUPPORTED_METHODS FIND_PACKAGE)
endif()

function(_torchabi_targets_below dir out)
  get_property(_targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  get_property(_subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(_sub IN LISTS _subdirs)
    _torchabi_targets_below("${_sub}" _more)
    list(APPEND _targets ${_more})
  endforeach()
  set(${out} "${_targets}" PARENT_SCOPE)
endfunction()

function(_torchabi_stand_in_what_is_missing)
  _torchabi_targets_below("${CMAKE_SOURCE_DIR}" _all)
  foreach(_target IN LISTS _all)
    foreach(_property LINK_LIBRARIES INTERFACE_LINK_LIBRARIES INCLUDE_DIRECTORIES INTERFACE_INCLUDE_DIRECTORIES)
      get_property(_items TARGET ${_target} PROPERTY ${_property})
      # Not if(NOT _items): a lone X-NOTFOUND is false, and is what is wanted.
      if("${_items}" STREQUAL "")
        continue()
      endif()
      set(_kept "")
      set(_changed FALSE)
      foreach(_item IN LISTS _items)
        if(_item MATCHES "-NOTFOUND")
          _torchabi_continued(notfound "${_target}" "${_item}")
          set(_changed TRUE)
          continue()
        endif()
        if(_property MATCHES "LINK_LIBRARIES")
          string(REGEX MATCHALL "[A-Za-z0-9_.+-]+::[A-Za-z0-9_.+-]+" _names "${_item}")
          foreach(_name IN LISTS _names)
            if(NOT TARGET ${_name})
              add_library(${_name} INTERFACE IMPORTED GLOBAL)
              _torchabi_continued(target "${_target}" "${_name}")
            endif()
          endforeach()
        endif()
        list(APPEND _kept "${_item}")
      endforeach()
      if(_changed)
        set_property(TARGET ${_target} PROPERTY ${_property} "${_kept}")
      endif()
    endforeach()
  endforeach()
endfunction()

cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _torchabi_stand_in_what_is_missing)
