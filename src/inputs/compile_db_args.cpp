#include "inputs/compile_db_args.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/input_error.h"
#include "inputs/cuda_installation.h"
#include "inputs/openmp_headers.h"
#include "inputs/torch_header_stand_ins.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

// Flags whose value is the next argument when not glued on.
const std::initializer_list<const char*> kPathFlags = {"-I", "-isystem", "-iquote", "-idirafter", "-include",
                                                       "-imacros", "-isysroot", "--sysroot"};

std::string language_for(const std::string& file) {
  std::string ext = fs::path(file).extension().string();
  if (ext == ".cu") return "cuda";
  if (ext == ".c") return "c";
  if (ext == ".h" || ext == ".hpp" || ext == ".hh" || ext == ".hxx" || ext == ".cuh" || ext == ".inl") return "c++-header";
  return "c++";
}

std::vector<std::string> read_response_file(const std::string& path, const std::string& referenced_by) {
  std::ifstream in(path);
  if (!in) throw InputError(path, "compiler flag file not found (referenced by the compile command of " + referenced_by + ")");
  std::ostringstream ss;
  ss << in.rdbuf();
  return split_shell_words(ss.str());
}

bool is_nvcc(const std::string& compiler) {
  std::string base = fs::path(compiler).filename().string();
  return base.find("nvcc") != std::string::npos;
}

// nvcc options that take a separate value and mean nothing to a host parse.
bool nvcc_flag_takes_value(const std::string& a) {
  static const char* const kFlags[] = {"-gencode", "--generate-code", "-arch", "--gpu-architecture", "-code",
                                       "--gpu-code", "-ccbin", "--compiler-bindir", "-Xptxas", "--ptxas-options",
                                       "-Xlinker", "--linker-options", "-Xnvlink", "-Xcudafe", "-Xfatbin",
                                       "--threads", "-t", "--diag-suppress", "-maxrregcount", "--maxrregcount",
                                       "--default-stream", "-rdc", "--relocatable-device-code", "-Xarchive",
                                       "--output-directory", "-odir", "--keep-dir", "--dependency-output", "-MF"};
  return std::find(std::begin(kFlags), std::end(kFlags), a) != std::end(kFlags);
}

class Translator {
public:
  Translator(ClangArgs& out, const std::string& dir) : out_(out), dir_(dir) {}

  void host_flags(const std::vector<std::string>& argv, size_t start, const std::string& file, bool nvcc) {
    for (size_t i = start; i < argv.size(); ++i) {
      const std::string& a = argv[i];
      auto next = [&]() -> std::string { return i + 1 < argv.size() ? argv[++i] : std::string(); };
      if (a.empty()) continue;
      if (a[0] == '@') {
        auto words = read_response_file(absolute_path(a.substr(1), dir_), file);
        host_flags(words, 0, file, nvcc);
        continue;
      }
      if (a[0] != '-') {
        if (absolute_path(a, dir_) == file) continue;  // the source file itself
        if (nvcc) continue;                            // nvcc takes stray values clang would read as inputs
        out_.dropped.push_back(a);
        continue;
      }
      if (a == "-c" || a == "-S" || a == "-E" || a == "-MD" || a == "-MMD" || a == "-M" || a == "-MM" ||
          a == "-MP" || a == "-fsyntax-only" || a == "-pipe")
        continue;
      if (a == "-o" || a == "-MF" || a == "-MT" || a == "-MQ") {
        next();
        continue;
      }
      if (a.starts_with("-o") && a.size() > 2) continue;
      if (a == "-x") {
        std::string lang = next();
        out_.language = lang == "cu" ? "cuda" : lang;
        continue;
      }
      if (a.starts_with("-x") && a.size() > 2) {
        out_.language = a.substr(2) == "cu" ? "cuda" : a.substr(2);
        continue;
      }
      if (nvcc && (a == "-Xcompiler" || a == "--compiler-options" || a.starts_with("-Xcompiler=") ||
                   a.starts_with("--compiler-options="))) {
        std::string v = a.find('=') != std::string::npos ? a.substr(a.find('=') + 1) : next();
        std::vector<std::string> inner;
        for (auto& w : split_shell_words(v)) {
          std::stringstream ss(w);
          for (std::string part; std::getline(ss, part, ',');)
            if (!part.empty()) inner.push_back(part);
        }
        host_flags(inner, 0, file, false);
        continue;
      }
      if (handle_path_flag(argv, i)) continue;
      if (handle_macro_flag(argv, i)) continue;
      if (nvcc) {
        // Keep what a host compile means the same way; everything else is
        // device code generation that a host-side parse does not need.
        if (a.starts_with("-std=") || a.starts_with("-O") || a == "-g") {
          out_.args.push_back(a);
        } else {
          out_.dropped.push_back(a);
          if (nvcc_flag_takes_value(a)) out_.dropped.push_back(next());
        }
        continue;
      }
      out_.args.push_back(a);
    }
  }

private:
  bool handle_path_flag(const std::vector<std::string>& argv, size_t& i) {
    const std::string& a = argv[i];
    for (const char* f : kPathFlags) {
      std::string flag = f;
      std::string value;
      if (a == flag) {
        if (i + 1 >= argv.size()) return false;
        value = argv[++i];
      } else if (a.starts_with(flag) && a.size() > flag.size()) {
        const bool glued_ok = flag == "-I" || flag == "-isystem" || flag == "-iquote" || flag == "-idirafter";
        const bool eq_ok = flag == "--sysroot" || flag == "-isysroot";
        if (glued_ok) value = a.substr(flag.size());
        else if (eq_ok && a[flag.size()] == '=') value = a.substr(flag.size() + 1);
        else continue;
      } else {
        continue;
      }
      if (flag == "--sysroot") {
        out_.args.push_back(flag + "=" + absolute_path(value, dir_));
        return true;
      }
      std::string abs = absolute_path(value, dir_);
      out_.args.push_back(flag);
      out_.args.push_back(abs);
      if (flag == "-I" || flag == "-isystem" || flag == "-iquote" || flag == "-idirafter") out_.include_dirs.push_back(abs);
      return true;
    }
    return false;
  }

  bool handle_macro_flag(const std::vector<std::string>& argv, size_t& i) {
    const std::string& a = argv[i];
    if (!(a.starts_with("-D") || a.starts_with("-U"))) return false;
    std::string body = a.substr(2);
    if (body.empty()) {
      if (i + 1 >= argv.size()) return false;
      body = argv[++i];
    }
    MacroFlag m;
    m.undef = a[1] == 'U';
    auto eq = body.find('=');
    m.name = body.substr(0, eq);
    if (!m.undef && eq != std::string::npos) m.value = body.substr(eq + 1);
    out_.macros.push_back(m);
    out_.args.push_back(std::string(m.undef ? "-U" : "-D") + body);
    return true;
  }

  ClangArgs& out_;
  std::string dir_;
};

void add_cuda_mode(ClangArgs& out, const std::string& compiler) {
  if (out.language != "cuda") return;
  out.args.insert(out.args.begin(), {"-x", "cuda", "--cuda-host-only"});
  out.args.push_back("-Wno-unknown-cuda-version");
  CudaSearch search = find_cuda_installation(out.args, compiler);
  if (search.found) {
    std::vector<std::string> extra = cuda_parse_args(*search.found, out.args);
    const bool overlay_missing =
        !search.found->stand_ins.empty() && std::find(extra.begin(), extra.end(), "-idirafter") == extra.end();
    if (!overlay_missing) {
      out.args.insert(out.args.end(), extra.begin(), extra.end());
      out.cuda = search.summary();
      return;
    }
    search.rejected.push_back(search.found->root + ": needs stand-ins for headers it lacks, and no directory for them could be created");
    search.found.reset();
  }
  out.cuda_without_sdk = true;
  out.cuda = search.summary();
  // Without CUDA's headers clang does not know the CUDA keywords; give them
  // their clang attribute meaning so host code still parses.
  for (const char* d : {"-nocudainc", "-nocudalib", "-D__global__=__attribute__((global))",
                        "-D__device__=__attribute__((device))", "-D__host__=__attribute__((host))",
                        "-D__shared__=__attribute__((shared))", "-D__constant__=__attribute__((constant))",
                        "-D__managed__=__attribute__((managed))", "-D__launch_bounds__(...)=",
                        "-D__forceinline__=inline"})
    out.args.push_back(d);
}

void finish(ClangArgs& out, const std::string& compiler = {}) {
  if (out.language.empty()) out.language = language_for(out.file);
  if (out.language == "c++-header" && out.file.ends_with(".cuh")) out.language = "cuda";
  if (out.language == "cuda") {
    add_cuda_mode(out, compiler);
  } else {
    out.args.insert(out.args.begin(), {"-x", out.language});
  }
  const std::vector<std::string> openmp = openmp_parse_args(out.args);
  out.args.insert(out.args.end(), openmp.begin(), openmp.end());
  const std::vector<std::string> torch_stand_ins = torch_header_stand_in_args(out.include_dirs);
  out.args.insert(out.args.end(), torch_stand_ins.begin(), torch_stand_ins.end());
  // Keep parsing after the 20th error: with missing headers the rest of the
  // file still has findings. Typo correction is slow on error-heavy TUs and
  // adds nothing to the analysis.
  out.args.push_back("-ferror-limit=0");
  out.args.push_back("-fno-spell-checking");
}

}  // namespace

std::optional<std::string> find_cuda_sdk(const std::vector<std::string>& args) {
  CudaSearch search = find_cuda_installation(args);
  if (search.found) return search.found->root;
  return std::nullopt;
}

std::vector<std::string> ClangArgs::minimal_args() const {
  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    bool with_value = a == "-x" || a == "-I" || a == "-isystem" || a == "-iquote" || a == "-idirafter" ||
                      a == "-include" || a == "-imacros";
    if (with_value && i + 1 < args.size()) {
      out.push_back(a);
      out.push_back(args[++i]);
    } else if (a.starts_with("-D") || a.starts_with("-U") || a.starts_with("-std=") || a.starts_with("-I") ||
               a.starts_with("--cuda") || a.starts_with("-nocuda") || a.starts_with("-ferror-limit") ||
               a == "-fno-spell-checking" || a.starts_with("--sysroot") || a.starts_with("-isysroot")) {
      out.push_back(a);
    }
  }
  return out;
}

ClangArgs translate_compile_command(const CompileCommand& cmd) {
  ClangArgs out;
  out.file = cmd.file;
  out.label = cmd.label;
  out.reference_only = cmd.reference_only;
  out.directory = cmd.directory;
  Translator t(out, cmd.directory);
  const bool nvcc = is_nvcc(cmd.arguments[0]);
  t.host_flags(cmd.arguments, 1, cmd.file, nvcc);
  finish(out, nvcc ? cmd.arguments[0] : std::string());
  return out;
}

ClangArgs translate_flags(const std::string& file, const std::vector<std::string>& flags, const std::string& cwd) {
  ClangArgs out;
  out.file = absolute_path(file, cwd);
  out.directory = cwd;
  Translator t(out, cwd);
  t.host_flags(flags, 0, out.file, false);
  finish(out);
  return out;
}

}  // namespace torchabi::inputs
