// `audit --env [PYTHON]` and `audit NAME`: the libraries of the distributions
// installed in a Python environment, grouped by distribution (from each
// .dist-info's RECORD), with the environment's torch release named.
#pragma once

#include <string>
#include <vector>

#include "analyzers/binary/audit_options.h"
#include "analyzers/binary/symbol_classifier.h"
#include "findings/finding.h"
#include "inputs/python/site_packages.h"

namespace torchabi::binary {

// Every distribution that installed shared libraries (`names` empty), or the
// named ones (each must exist: the caller checked). A distribution whose
// libraries import nothing from PyTorch gets one entry, not one per library,
// when the whole environment is audited; its findings stay.
void audit_environment(const inputs::PythonEnvironment& env, const std::vector<std::string>& names,
                       SymbolClassifier& classifier, const AuditOptions& options, findings::Report& report);

// True for a PATH argument that can only be a distribution name: it does not
// exist and has no path separator or library/wheel extension.
bool looks_like_distribution_name(const std::string& arg);

}  // namespace torchabi::binary
