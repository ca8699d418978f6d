// Library registration entry points (aoti_torch_library_*, torch_library_*).
// They run inside the extension's static initialisers, before torchabi regains
// control, so every problem is journalled rather than thrown.
#include <mutex>

#include "analyzers/runtime/shim/export.h"
#include "analyzers/runtime/shim/journal.h"
#include "analyzers/runtime/shim/library.h"

namespace torchabi::runtime {
namespace {

struct LibraryState {
  std::mutex mutex;
  std::vector<LibraryRecord*> libraries;  // never freed: handles stay recognisable
  std::vector<DefRecord> defs;
  std::vector<ImplRecord> impls;
  uint64_t next_id = 1;
};

LibraryState& state() {
  static LibraryState* s = new LibraryState;
  return *s;
}

LibraryRecord* find_library(TorchLibraryHandle h) {
  for (auto* lib : state().libraries)
    if (reinterpret_cast<TorchLibraryHandle>(lib) == h) return lib;
  return nullptr;
}

// A live library for `fn`, or null with a journal entry.
// Set when an aoti_torch_library_init_* call failed: StableLibrary ignores
// the error and goes on with a handle that was never set, so the null handle
// that follows is a consequence already reported, not a new mistake.
bool g_init_failed = false;

LibraryRecord* use_library(TorchLibraryHandle h, const char* fn) {
  LibraryRecord* lib = find_library(h);
  if (!lib && h == nullptr && g_init_failed) {
    set_last_error(std::string(fn) + ": the library was not created");
    return nullptr;
  }
  if (!lib) {
    record(EventKind::InvalidHandle, fn, "passed a TorchLibraryHandle that no aoti_torch_library_init_* returned");
    set_last_error(std::string(fn) + ": invalid library handle");
    return nullptr;
  }
  if (lib->deleted) {
    record(EventKind::UseAfterRelease, fn,
           "used the library of namespace '" + lib->ns + "' after aoti_torch_delete_library_object deleted it");
    set_last_error(std::string(fn) + ": library used after deletion");
    return nullptr;
  }
  return lib;
}

std::string str(const char* s) { return s ? s : ""; }

AOTITorchError init_library(LibraryKind kind, const char* ns, const char* key, const char* file, uint32_t line,
                            TorchLibraryHandle* ret, const char* fn) {
  if (!ns || !ret) {
    set_last_error(std::string(fn) + ": null argument");
    return kFailure;
  }
  auto& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (kind == LibraryKind::Def) {
    for (auto* other : s.libraries) {
      if (other->kind == LibraryKind::Def && !other->deleted && other->ns == ns) {
        record(EventKind::Registration, fn,
               "a second STABLE_TORCH_LIBRARY(" + str(ns) + ", ...) (" + str(file) + ":" + std::to_string(line) +
                   "; the first is at " + other->file + ":" + std::to_string(other->line) +
                   "): PyTorch allows one per namespace and fails this one, and StableLibrary goes on with a handle "
                   "that was never set, so loading crashes in libtorch; use STABLE_TORCH_LIBRARY_FRAGMENT");
        set_last_error("Only a single TORCH_LIBRARY can be used to register the namespace " + str(ns));
        g_init_failed = true;
        return kFailure;
      }
    }
  }
  auto* lib = new LibraryRecord;
  lib->id = s.next_id++;
  lib->kind = kind;
  lib->ns = ns;
  lib->dispatch_key = str(key);
  lib->file = str(file);
  lib->line = line;
  s.libraries.push_back(lib);
  *ret = reinterpret_cast<TorchLibraryHandle>(lib);
  return kSuccess;
}

AOTITorchError add_def(TorchLibraryHandle self, const char* schema, std::vector<std::string> tags, const char* fn) {
  auto& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  LibraryRecord* lib = use_library(self, fn);
  if (!lib) return kFailure;
  if (!schema) {
    set_last_error(std::string(fn) + ": null schema");
    return kFailure;
  }
  if (lib->kind == LibraryKind::Impl) {
    record(EventKind::Registration, fn,
           "defined '" + str(schema) + "' inside STABLE_TORCH_LIBRARY_IMPL(" + lib->ns + ", " + lib->dispatch_key +
               "): PyTorch only accepts def() in STABLE_TORCH_LIBRARY or _FRAGMENT blocks");
    set_last_error("Cannot define an operator inside of a TORCH_LIBRARY_IMPL block");
    return kFailure;
  }
  s.defs.push_back({lib->id, lib->ns, schema, std::move(tags)});
  return kSuccess;
}

AOTITorchError add_impl(TorchLibraryHandle self, const char* name, BoxedKernel kernel,
                        std::optional<uint64_t> version, const char* fn) {
  auto& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  LibraryRecord* lib = use_library(self, fn);
  if (!lib) return kFailure;
  if (!name || !kernel) {
    record(EventKind::Registration, fn, name ? "registered a null kernel for '" + str(name) + "'"
                                             : std::string("registered a kernel without an op name"));
    set_last_error(std::string(fn) + ": null argument");
    return kFailure;
  }
  s.impls.push_back({lib->id, lib->ns, name, lib->kind == LibraryKind::Impl ? lib->dispatch_key : "", kernel,
                     version, fn});
  return kSuccess;
}

}  // namespace

Registrations registrations() {
  auto& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  Registrations r;
  for (auto* lib : s.libraries) r.libraries.push_back(*lib);
  auto deleted = [&](uint64_t id) {
    for (auto* lib : s.libraries)
      if (lib->id == id) return lib->deleted;
    return true;
  };
  for (const auto& d : s.defs)
    if (!deleted(d.library)) r.defs.push_back(d);
  for (const auto& i : s.impls)
    if (!deleted(i.library)) r.impls.push_back(i);
  return r;
}

}  // namespace torchabi::runtime

using namespace torchabi::runtime;

TORCHABI_SHIM AOTITorchError aoti_torch_library_init_impl(const char* ns, const char* k, const char* file,
                                                           uint32_t line, TorchLibraryHandle* ret_new_torch_lib) {
  return init_library(LibraryKind::Impl, ns, k, file, line, ret_new_torch_lib, "aoti_torch_library_init_impl");
}

TORCHABI_SHIM AOTITorchError aoti_torch_library_init_def(const char* ns, const char* file, uint32_t line,
                                                          TorchLibraryHandle* ret_new_torch_lib) {
  return init_library(LibraryKind::Def, ns, nullptr, file, line, ret_new_torch_lib, "aoti_torch_library_init_def");
}

TORCHABI_SHIM AOTITorchError aoti_torch_library_init_fragment(const char* ns, const char* file, uint32_t line,
                                                               TorchLibraryHandle* ret_new_torch_lib) {
  return init_library(LibraryKind::Fragment, ns, nullptr, file, line, ret_new_torch_lib,
                      "aoti_torch_library_init_fragment");
}

TORCHABI_SHIM AOTITorchError aoti_torch_library_def(TorchLibraryHandle self, const char* schema) {
  return add_def(self, schema, {}, "aoti_torch_library_def");
}

TORCHABI_SHIM AOTITorchError torch_library_def_with_tags(TorchLibraryHandle self, const char* schema,
                                                          const int32_t* tags, int32_t num_tags) {
  std::vector<std::string> names;
  for (int32_t i = 0; i < num_tags && tags; ++i) names.push_back("tag " + std::to_string(tags[i]));
  return add_def(self, schema, std::move(names), "torch_library_def_with_tags");
}

TORCHABI_SHIM AOTITorchError aoti_torch_library_impl(TorchLibraryHandle self, const char* name,
                                                      void (*fn)(StableIValue*, uint64_t, uint64_t)) {
  return add_impl(self, name, fn, std::nullopt, "aoti_torch_library_impl");
}

TORCHABI_SHIM AOTITorchError torch_library_impl(TorchLibraryHandle self, const char* name,
                                                 void (*fn)(StableIValue*, uint64_t, uint64_t),
                                                 uint64_t extension_build_version) {
  return add_impl(self, name, fn, extension_build_version, "torch_library_impl");
}

TORCHABI_SHIM AOTITorchError torch_library_set_python_module(TorchLibraryHandle self, const char* pymodule,
                                                              const char* context) {
  std::lock_guard<std::mutex> lock(state().mutex);
  LibraryRecord* lib = use_library(self, "torch_library_set_python_module");
  if (!lib) return kFailure;
  lib->python_module = str(pymodule);
  return kSuccess;
}

TORCHABI_SHIM AOTITorchError aoti_torch_delete_library_object(TorchLibraryHandle tlh) {
  std::lock_guard<std::mutex> lock(state().mutex);
  LibraryRecord* lib = find_library(tlh);
  if (lib && lib->deleted) {
    record(EventKind::DoubleRelease, "aoti_torch_delete_library_object",
           "deleted the library of namespace '" + lib->ns + "' a second time");
    return kFailure;
  }
  if (!(lib = use_library(tlh, "aoti_torch_delete_library_object"))) return kFailure;
  lib->deleted = true;
  return kSuccess;
}
