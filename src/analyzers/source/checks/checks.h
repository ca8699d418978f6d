// The built-in lint checks; each lives in its own file in this folder and
// documents the rules it reports (rules/checks/<id>.yaml).
#pragma once

#include <memory>

#include "analyzers/source/tu_check.h"

namespace torchabi::source::checks {

std::unique_ptr<TuCheck> make_include_check();            // source-unstable-include
std::unique_ptr<TuCheck> make_reference_check();          // source-unstable-api
std::unique_ptr<TuCheck> make_macro_check();              // source-unstable-macro
std::unique_ptr<TuCheck> make_preprocessor_traps_check(); // source-bool-macro-flag, source-target-version-undefined
std::unique_ptr<TuCheck> make_shim_declaration_check();   // source-shim-declaration-mismatch
std::unique_ptr<TuCheck> make_target_version_check();     // version-target-implausible, version-api-after-target
std::unique_ptr<TuCheck> make_macro_not_in_headers_check();  // build-api-not-in-headers, for macros
std::unique_ptr<TuCheck> make_hidden_api_check();         // build-api-hidden-by-configuration, build-api-not-in-headers
std::unique_ptr<TuCheck> make_header_error_check();       // build-header-error
std::unique_ptr<TuCheck> make_build_floor_check();        // build-target-version-missing
std::unique_ptr<TuCheck> make_parse_status_check();       // source-parse-incomplete
std::unique_ptr<TuCheck> make_template_use_check();       // source-unstable-api in templates and invalid declarations
std::unique_ptr<TuCheck> make_inactive_branch_check();    // source-inactive-branch
std::unique_ptr<TuCheck> make_version_macro_check();      // version-macro-missing-at-target
std::unique_ptr<TuCheck> make_stream_id_cast_check();     // source-stream-id-as-handle
std::unique_ptr<TuCheck> make_dispatcher_scalar_check();  // source-dispatcher-scalar-arg
std::unique_ptr<TuCheck> make_undefined_stable_function_check();  // source-undefined-stable-function
std::unique_ptr<TuCheck> make_torch_headers_found_check();  // source-torch-headers-not-found

}  // namespace torchabi::source::checks
