#include "inputs/project/cmake_stand_ins.h"

#include "inputs/project/environment/build_environment.h"

#include <filesystem>
#include <fstream>

#include "inputs/cuda_installation.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream out(file);
  out << text;
  if (!out) throw fs::filesystem_error("cannot write", file, std::make_error_code(std::errc::io_error));
}

// A CMake bracket argument holding `s` whatever it contains.
std::string quoted(const std::string& s) { return "[==[" + s + "]==]"; }

std::string cmake_list(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ";") + i;
  return out;
}

}  // namespace

std::vector<std::string> torch_only_include_dirs(const TorchLocation& torch) {
  std::vector<std::string> dirs;
  for (const auto& d : torch.include_dirs) {
    std::error_code ec;
    // CMake rejects an imported target whose include directory is missing.
    if (!fs::is_directory(d, ec)) continue;
    // Python's include directory (setuptools' addition) is not torch's.
    if (d.ends_with("torch/csrc/api/include") || fs::is_directory(fs::path(d) / "torch", ec) ||
        fs::is_directory(fs::path(d) / "ATen", ec))
      dirs.push_back(d);
  }
  return dirs;
}

void write_torch_config(const std::string& dir, const TorchLocation& torch, const std::string& version) {
  const std::string includes = cmake_list(torch_only_include_dirs(torch));
  // Header-only imported targets: a configure links nothing, and the
  // compile commands only need the usage requirements.
  std::string text =
      "# Written by torchabi: stands in for libtorch's TorchConfig.cmake so that the\n"
      "# project configures against the torch headers torchabi lints with.\n"
      "set(TORCH_FOUND TRUE)\n"
      "set(Torch_FOUND TRUE)\n"
      // Unknown: find_package already set Torch_VERSION to the one asked for.
      + (version.empty() ? std::string() : "set(Torch_VERSION " + quoted(version) + ")\n") +
      "set(TORCH_INCLUDE_DIRS " + quoted(includes) + ")\n"
      "set(TORCH_CXX_FLAGS \"-D_GLIBCXX_USE_CXX11_ABI=1\")\n"
      "if(NOT TARGET c10)\n"
      "  add_library(c10 INTERFACE IMPORTED)\n"
      "  set_target_properties(c10 PROPERTIES INTERFACE_INCLUDE_DIRECTORIES \"${TORCH_INCLUDE_DIRS}\")\n"
      "endif()\n"
      "if(NOT TARGET torch_library)\n"
      "  add_library(torch_library INTERFACE IMPORTED)\n"
      "  set_target_properties(torch_library PROPERTIES INTERFACE_INCLUDE_DIRECTORIES \"${TORCH_INCLUDE_DIRS}\"\n"
      "    INTERFACE_LINK_LIBRARIES c10)\n"
      "endif()\n"
      "if(NOT TARGET torch)\n"
      "  add_library(torch INTERFACE IMPORTED)\n"
      "  set_target_properties(torch PROPERTIES INTERFACE_INCLUDE_DIRECTORIES \"${TORCH_INCLUDE_DIRS}\"\n"
      "    INTERFACE_LINK_LIBRARIES torch_library)\n"
      "  # As libtorch's config: GCC builds get the C++11 ABI flag.\n"
      "  set_property(TARGET torch PROPERTY INTERFACE_COMPILE_OPTIONS\n"
      "    \"$<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:${TORCH_CXX_FLAGS}>\")\n"
      "endif()\n"
      "set(TORCH_LIBRARIES torch)\n"
      "set(TORCH_LIBRARY torch)\n"
      // The torch a CUDA build machine has: its Caffe2 config finds the
      // toolkit (public/cuda.cmake: FindCUDA's variables) and enables CUDA;
      // vLLM-derived CMakeLists.txt stop without CUDA_FOUND.
      "if(DEFINED CMAKE_CUDA_COMPILER_TOOLKIT_ROOT AND NOT DEFINED CUDA_FOUND)\n"
      "  set(CUDA_FOUND TRUE)\n"
      "  set(CAFFE2_USE_CUDA ON)\n"
      "  set(CUDA_TOOLKIT_ROOT_DIR \"${CMAKE_CUDA_COMPILER_TOOLKIT_ROOT}\")\n"
      "  set(CUDA_INCLUDE_DIRS \"${CMAKE_CUDA_COMPILER_TOOLKIT_ROOT}/include\")\n"
      "  string(REGEX MATCH \"^[0-9]+\\\\.[0-9]+\" CUDA_VERSION \"${CMAKE_CUDA_COMPILER_VERSION}\")\n"
      "  set(CUDA_VERSION_STRING \"${CUDA_VERSION}\")\n"
      // Its torch_cuda_get_nvcc_gencode_flag: TORCH_CUDA_ARCH_LIST as
      // -gencode flags in CMAKE_CUDA_FLAGS, where vLLM's CMake reads them.
      "  string(REPLACE \" \" \";\" _torchabi_archs \"$ENV{TORCH_CUDA_ARCH_LIST}\")\n"
      "  foreach(_torchabi_arch IN LISTS _torchabi_archs)\n"
      "    string(REGEX MATCH \"^([0-9]+)\\\\.([0-9]+)\" _torchabi_match \"${_torchabi_arch}\")\n"
      "    if(_torchabi_match)\n"
      "      set(_torchabi_sm \"${CMAKE_MATCH_1}${CMAKE_MATCH_2}\")\n"
      "      string(APPEND CMAKE_CUDA_FLAGS \" -gencode arch=compute_${_torchabi_sm},code=sm_${_torchabi_sm}\")\n"
      "      if(_torchabi_arch MATCHES \"\\\\+PTX$\")\n"
      "        string(APPEND CMAKE_CUDA_FLAGS \" -gencode arch=compute_${_torchabi_sm},code=compute_${_torchabi_sm}\")\n"
      "      endif()\n"
      "    endif()\n"
      "  endforeach()\n"
      // Its TORCH_CUDA_LIBRARIES (c10_cuda and the CUDA libraries), also in
      // TORCH_LIBRARIES: projects choose their CUDA backend by it.
      "  if(NOT TARGET c10_cuda)\n"
      "    add_library(c10_cuda INTERFACE IMPORTED)\n"
      "  endif()\n"
      "  set(TORCH_CUDA_LIBRARIES c10_cuda)\n"
      "  list(APPEND TORCH_LIBRARIES ${TORCH_CUDA_LIBRARIES})\n"
      "  get_property(_torchabi_languages GLOBAL PROPERTY ENABLED_LANGUAGES)\n"
      "  if(NOT \"CUDA\" IN_LIST _torchabi_languages)\n"
      "    enable_language(CUDA)\n"
      "  endif()\n"
      "endif()\n";
  write(fs::path(dir) / "TorchConfig.cmake", text);
  // A version the headers do not state satisfies whatever the project asks for.
  write(fs::path(dir) / "TorchConfigVersion.cmake",
        (version.empty() ? std::string("if(PACKAGE_FIND_VERSION)\n  set(PACKAGE_VERSION \"${PACKAGE_FIND_VERSION}\")\n"
                                       "else()\n  set(PACKAGE_VERSION 0)\nendif()\n")
                         : "set(PACKAGE_VERSION " + quoted(version) + ")\n") +
        "if(PACKAGE_FIND_VERSION AND PACKAGE_VERSION VERSION_LESS PACKAGE_FIND_VERSION)\n"
        "  set(PACKAGE_VERSION_COMPATIBLE FALSE)\n"
        "else()\n"
        "  set(PACKAGE_VERSION_COMPATIBLE TRUE)\n"
        "  if(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)\n"
        "    set(PACKAGE_VERSION_EXACT TRUE)\n"
        "  endif()\n"
        "endif()\n");
}

namespace {

// A CUDA installation CMake's modules accept as the toolkit: headers and
// the runtime library where FindCUDAToolkit looks.
bool usable_toolkit(const fs::path& root) {
  std::error_code ec;
  return fs::exists(root / "include/cuda_runtime.h", ec) &&
         (fs::exists(root / "lib64/libcudart.so", ec) || fs::exists(root / "lib/libcudart.so", ec));
}

}  // namespace

CudaStandIn write_cuda_stand_in(const std::string& dir, bool machine_toolkit) {
  CudaStandIn s;
  const fs::path base(dir);
  const CudaSearch search = machine_toolkit ? find_cuda_installation({}) : CudaSearch{};
  if (search.found && usable_toolkit(search.found->root)) {
    s.toolkit_root = search.found->root;
    s.real_toolkit = true;
    s.version = search.found->version;
  }
  if (s.version.empty()) s.version = kStandInCudaVersion;
  if (!s.real_toolkit) {
    // Empty files where FindCUDAToolkit and the CUDA language look; nothing
    // is compiled or linked against them.
    s.toolkit_root = (base / "cuda").string();
    for (const char* f : {"include/cuda_runtime.h", "include/cuda.h", "include/cublas_v2.h", "lib64/libcudart.so",
                          "lib64/libcudart_static.a", "lib64/libcudadevrt.a", "lib64/libcuda.so",
                          "lib64/stubs/libcuda.so", "nvvm/libdevice/libdevice.10.bc"})
      write(fs::path(s.toolkit_root) / f, "");
  }
  const fs::path nvcc = base / "nvcc-stand-in/bin/nvcc";
  write(nvcc,
        "#!/bin/sh\n"
        "# torchabi's stand-in: CMake is told the compiler is identified; it is only asked its version.\n"
        "echo 'nvcc: NVIDIA (R) Cuda compiler driver'\n"
        "echo 'Cuda compilation tools, release " + s.version + ", V" + s.version + ".0'\n");
  fs::permissions(nvcc, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec);
  const std::string root = s.toolkit_root;
  const std::string lib = fs::exists(fs::path(root) / "lib64") ? root + "/lib64" : root + "/lib";
  // CMakeDetermineCUDACompiler skips identification when
  // CMAKE_CUDA_COMPILER_ID_RUN is set, but still reads the include and link
  // lines of nvcc's dry run: this is one as nvcc prints it.
  const std::string dryrun = "#$ PATH=" + root + "/bin:/usr/bin\n"
                             "#$ INCLUDES=\"-I" + root + "/include\"\n"
                             "#$ LIBRARIES=  \"-L" + lib + "\"\n"
                             "c++ -m64 -Wl,--start-group \"-L" + lib +
                             "\" -lcudadevrt -lcudart_static -lrt -lpthread -ldl -Wl,--end-group -o a.out\n";
  std::string init;
  auto set = [&](const std::string& name, const std::string& value, const char* type = "INTERNAL") {
    init += "set(" + name + " " + quoted(value) + " CACHE " + type + " \"torchabi\")\n";
  };
  set("CMAKE_CUDA_COMPILER", nvcc.string(), "FILEPATH");
  set("CMAKE_CUDA_COMPILER_ID_RUN", "1");
  set("CMAKE_CUDA_COMPILER_ID", "NVIDIA");
  set("CMAKE_CUDA_COMPILER_VERSION", s.version + ".0");
  set("CMAKE_CUDA_COMPILER_FORCED", "ON");
  set("CMAKE_CUDA_COMPILER_TOOLKIT_ROOT", root);
  set("CMAKE_CUDA_COMPILER_TOOLKIT_VERSION", s.version + ".0");  // FindCUDAToolkit reads X.Y.Z
  set("CMAKE_CUDA_COMPILER_LIBRARY_ROOT", root);
  set("CMAKE_CUDA_STANDARD_COMPUTED_DEFAULT", "17");
  set("CMAKE_CUDA_EXTENSIONS_COMPUTED_DEFAULT", "OFF");
  // nvcc 12 compiles C++20, but CMake before 3.26 knows no flag for CUDA20
  // and refuses a target with CUDA_STANDARD 20 ("requires the language
  // dialect CUDA20"); its Compiler module sets only 03 to 17, so these stay.
  set("CMAKE_CUDA20_STANDARD_COMPILE_OPTION", "-std=c++20");
  set("CMAKE_CUDA20_EXTENSION_COMPILE_OPTION", "-std=c++20");
  set("CMAKE_CUDA_COMPILER_PRODUCED_OUTPUT", dryrun);
  // A project's own value (set() or -D) wins; this only spares CMake the
  // detection, which would run the compiler.
  init += "if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)\n";
  set("CMAKE_CUDA_ARCHITECTURES", "80", "STRING");
  init += "endif()\n";
  s.init_cache = (base / "init-cache.cmake").string();
  write(s.init_cache, init);
  return s;
}

}  // namespace torchabi::inputs
