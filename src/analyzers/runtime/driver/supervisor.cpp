// The parent side of `torchabi run`: prepares everything that does not need
// the extension loaded (imports, release, case file, ATen schemas), then
// forks children that load and run it, enforcing the time limit and turning
// how a child ended into findings.
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <cxxabi.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "analyzers/runtime/driver/cases.h"
#include "analyzers/runtime/driver/child.h"
#include "analyzers/runtime/driver/extension_imports.h"
#include "analyzers/runtime/driver/load_failure.h"
#include "analyzers/runtime/driver/name_lookups.h"
#include "analyzers/runtime/driver/python_errors.h"
#include "analyzers/runtime/driver/pid_isolation.h"
#include "analyzers/runtime/driver/root_child.h"
#include "analyzers/runtime/driver/run_extension.h"
#include "analyzers/runtime/driver/schema_effects.h"
#include "analyzers/runtime/driver/signatures.h"
#include "analyzers/runtime/driver/standins.h"
#include "analyzers/runtime/driver/wire.h"
#include "common/input_error.h"
#include "common/install_layout.h"
#include "common/json_io.h"
#include "common/temp_dirs.h"
#include "common/text.h"
#include "findings/rule_registry.h"
#include "inputs/api_catalog.h"
#include "inputs/rules_source.h"

namespace torchabi::runtime_driver {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

struct Fault {
  int signal = 0;
  std::string addr;
  std::optional<uint64_t> stack_slot;
  uint64_t num_args = 0, num_outputs = 0;
  std::string op, access;
};

// How one child ended, and what it said before.
struct ChildRun {
  bool loaded_reported = false;
  std::optional<std::string> load_failed;
  std::vector<json> plan;  // {"name", "op"}
  std::map<size_t, std::string> status;
  long current = -1;       // planned call in progress; -1 while loading or between calls
  long last_ended = -1;    // last planned call that completed in this child
  bool done = false;
  bool timed_out = false;
  std::optional<Fault> fault;
  int wait_status = 0;
  std::string output_tail;  // what the child printed last
  bool heard = false;       // the child sent at least one message
};

const char* signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV (segmentation fault)";
    case SIGABRT: return "SIGABRT (abort)";
    case SIGBUS: return "SIGBUS (bus error)";
    case SIGFPE: return "SIGFPE (arithmetic exception)";
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGKILL: return "SIGKILL";
    default: return strsignal(sig);
  }
}

std::string tail_of(int memfd, size_t max_lines) {
  off_t size = lseek(memfd, 0, SEEK_END);
  if (size <= 0) return "";
  size_t want = std::min<size_t>(static_cast<size_t>(size), 4096);
  std::string buf(want, '\0');
  if (pread(memfd, buf.data(), want, size - static_cast<off_t>(want)) <= 0) return "";
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < buf.size()) {
    size_t nl = buf.find('\n', start);
    std::string line = buf.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    if (!line.empty()) lines.push_back(line);
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  if (lines.size() > max_lines) lines.erase(lines.begin(), lines.end() - static_cast<long>(max_lines));
  std::string out;
  for (const auto& l : lines) out += (out.empty() ? "" : "\n") + l;
  return out;
}

using text::one_line;

class Supervisor {
public:
  Supervisor(const RunOptions& opts, ChildPlan plan, findings::Report& report, findings::Subject& subject,
             const RootSetup* root = nullptr)
      : opts_(opts), plan_(std::move(plan)), report_(report), subject_(subject), root_(root) {}

  void run() {
    size_t start = 0;
    bool first = true;
    while (true) {
      plan_.start = start;
      plan_.report_load = first;
      ChildRun r = spawn_and_watch();
      if (first) {
        first = false;
        if (r.load_failed || !r.loaded_reported) {
          load_failure(r);
          return;
        }
        planned_ = r.plan;
      }
      for (const auto& [i, s] : r.status) status_[i] = s;
      if (r.done) break;
      if (r.current < 0) {
        // Died between calls (a thread of the extension, a destructor): no
        // call to blame, but the process is gone all the same.
        between_calls_failure(r);
        if (r.last_ended < 0 || static_cast<size_t>(r.last_ended) + 1 <= start) break;  // no progress
        start = static_cast<size_t>(r.last_ended) + 1;
        if (start >= planned_.size()) break;
        continue;
      }
      call_failure(r);
      start = static_cast<size_t>(r.current) + 1;
      if (start >= planned_.size()) break;
    }
    summarize();
  }

private:
  ChildRun spawn_and_watch() {
    ChildRun r;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + strerror(errno));
    int out = memfd_create("torchabi-run-output", MFD_CLOEXEC);
    if (out < 0) throw std::runtime_error(std::string("memfd_create: ") + strerror(errno));
    pid_t pid = fork();
    if (pid < 0) throw std::runtime_error(std::string("fork: ") + strerror(errno));
    if (pid == 0) {
      temp_dirs::die_with_parent();
      close(fds[0]);
      dup2(out, STDOUT_FILENO);
      dup2(out, STDERR_FILENO);
      ChildPlan p = plan_;
      p.event_fd = fds[1];
      if (root_) {
        exec_in_root(p, opts_, *root_);
      } else {
        std::string note;
        isolate_pids(&note);  // pid_isolation.h: the extension cannot signal torchabi
        // Why it could not be isolated goes to the report (handle(), "note"),
        // not to the extension's output, which findings quote.
        if (!note.empty()) {
          const std::string line = json_io::dump_lossy(json{{"t", "note"}, {"message", note}}) + "\n";
          if (::write(fds[1], line.data(), line.size()) < 0) {
          }
        }
      }
      run_child(p);
    }
    close(fds[1]);
    std::string buffer;
    auto deadline = Clock::now() + timeout();
    bool eof = false;
    while (!eof) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) {
        r.timed_out = true;
        kill(pid, SIGKILL);
        break;
      }
      pollfd p{fds[0], POLLIN, 0};
      int n = poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) continue;
      char chunk[8192];
      ssize_t got = read(fds[0], chunk, sizeof chunk);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        eof = true;
        break;
      }
      buffer.append(chunk, static_cast<size_t>(got));
      size_t nl;
      while ((nl = buffer.find('\n')) != std::string::npos) {
        std::string line = buffer.substr(0, nl);
        buffer.erase(0, nl + 1);
        if (handle(line, r)) deadline = Clock::now() + timeout();
        if (pending_input_error_) {
          kill(pid, SIGKILL);
          waitpid(pid, nullptr, 0);
          close(fds[0]);
          close(out);
          throw *pending_input_error_;
        }
      }
    }
    close(fds[0]);
    waitpid(pid, &r.wait_status, 0);
    r.output_tail = tail_of(out, 12);
    close(out);
    // torchabi could not even start inside the root (the root's loader said why).
    if (root_ && !r.heard && !r.timed_out)
      throw InputError("--root", "torchabi cannot run inside " + root_->root + ": " +
                                     (r.output_tail.empty() ? how_it_ended(r) : one_line(r.output_tail)));
    return r;
  }

  // Applies one message; true when progress was made (the deadline restarts).
  bool handle(const std::string& line, ChildRun& r) {
    json m = json_io::parse_or_discarded(line);
    if (m.is_discarded() || !m.is_object()) return false;
    r.heard = true;
    const std::string t = m.value("t", "");
    if (t == "loaded") {
      r.loaded_reported = true;
      for (const auto& kv : m["facts"]) subject_.facts.emplace_back(kv[0].get<std::string>(), kv[1].get<std::string>());
      for (const auto& f : m["findings"]) add(proto_from_json(f));
    } else if (t == "load_failed") {
      r.load_failed = m.value("message", "");
    } else if (t == "plan") {
      for (const auto& c : m["cases"]) r.plan.push_back(c);
      if (planned_.empty()) planned_ = r.plan;
    } else if (t == "begin") {
      r.current = m.value("case", -1L);
    } else if (t == "end") {
      size_t i = m.value("case", 0UL);
      r.status[i] = m.value("status", "");
      if (m.contains("lookups"))
        for (const auto& l : m["lookups"]) {
          NameLookup n{l[0].get<std::string>(), l[1].get<bool>()};
          if (std::none_of(lookups_.begin(), lookups_.end(), [&](const NameLookup& x) { return x.name == n.name; }))
            lookups_.push_back(std::move(n));
        }
      if (m.contains("python_error")) python_errors_[i] = m["python_error"][0].get<std::string>() + ": " +
                                                         m["python_error"][1].get<std::string>();
      for (const auto& f : m["findings"]) add(proto_from_json(f));
      if (m.contains("effects") && i < planned_.size())
        mutations_.record(planned_[i].value("op", ""), m["effects"]["mutable"].get<std::vector<std::string>>(),
                          m["effects"]["written"].get<std::vector<std::string>>());
      r.current = -1;
      r.last_ended = static_cast<long>(i);
    } else if (t == "fault") {
      Fault f;
      f.signal = m.value("signal", 0);
      f.addr = m.value("addr", "");
      if (m.contains("stack_slot")) f.stack_slot = m["stack_slot"].get<uint64_t>();
      f.num_args = m.value("num_args", 0UL);
      f.num_outputs = m.value("num_outputs", 0UL);
      f.op = m.value("op", "");
      f.access = m.value("access", "");
      r.fault = f;
    } else if (t == "input_error") {
      pending_input_error_ = InputError(m.value("input", ""), m.value("message", ""));
    } else if (t == "runtime_error") {
      pending_input_error_ = InputError("torchabi runtime", m.value("message", ""));
    } else if (t == "internal_error") {
      throw std::runtime_error("runtime driver: " + m.value("message", ""));
    } else if (t == "done") {
      r.done = true;
    } else if (t == "note") {
      // Each child says it again (a crash starts another): one fact.
      const std::string note = one_line(m.value("message", ""));
      const bool known = std::any_of(subject_.facts.begin(), subject_.facts.end(),
                                     [&](const auto& f) { return f.first == "note" && f.second == note; });
      if (!note.empty() && !known) subject_.facts.emplace_back("note", note);
    }
    return true;
  }

  std::chrono::milliseconds timeout() const {
    return std::chrono::milliseconds(static_cast<long long>(opts_.timeout_seconds * 1000));
  }

  void add(ProtoFinding p) {
    findings::Finding f;
    f.rule = p.rule;
    f.severity = p.severity;
    f.location.file = opts_.extension;
    f.location.symbol = p.op;
    f.message = p.message;
    f.help = p.help;
    f.notes = p.notes;
    report_.add(std::move(f));
  }

  std::string how_it_ended(const ChildRun& r) const {
    if (r.timed_out) return "did not finish within " + seconds() + " and was killed";
    if (WIFSIGNALED(r.wait_status)) return std::string("crashed with ") + signal_name(WTERMSIG(r.wait_status));
    if (WIFEXITED(r.wait_status)) return "exited the process with status " + std::to_string(WEXITSTATUS(r.wait_status));
    return "ended the process";
  }

  std::string seconds() const {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g s", opts_.timeout_seconds);
    return buf;
  }

  // The last lines the extension printed (an abort message, a failed assert).
  void attach_output(ProtoFinding& f, const ChildRun& r) const {
    size_t start = 0;
    while (start < r.output_tail.size()) {
      size_t nl = r.output_tail.find('\n', start);
      f.notes.push_back("extension output: " + r.output_tail.substr(start, nl == std::string::npos ? nl : nl - start));
      if (nl == std::string::npos) break;
      start = nl + 1;
    }
  }

  void load_failure(const ChildRun& r) {
    subject_.verdict = "NOT LOADED";
    if (r.load_failed && !missing_.empty()) {
      // Already reported as runtime-missing-symbol; add the loader's words to it.
      for (auto& f : report_.findings)
        if (f.rule == "runtime-missing-symbol") f.notes.push_back("the dynamic loader says: " + *r.load_failed);
      return;
    }
    if (r.load_failed) {
      for (auto& f : explain_load_failure(fs::absolute(opts_.extension).string(), *r.load_failed, opts_.root, inputs::RulesSource::current()))
        add(std::move(f));
      return;
    }
    ProtoFinding f;
    f.rule = "runtime-load-failed";
    {
      f.message = "loading the extension " + how_it_ended(r) + " while its static initializers ran";
      f.help = "make the extension's static initialization (STABLE_TORCH_LIBRARY blocks and global constructors) "
               "finish without crashing or blocking";
      attach_output(f, r);
    }
    add(std::move(f));
  }

  void call_failure(const ChildRun& r) {
    const size_t i = static_cast<size_t>(r.current);
    const std::string name = i < planned_.size() ? planned_[i].value("name", "") : "";
    const std::string op = i < planned_.size() ? planned_[i].value("op", "") : "";
    const bool smoke = !plan_.cases;
    const std::string context = smoke ? "smoke call: " : "case '" + name + "': ";
    ProtoFinding f;
    f.op = op;
    if (r.timed_out) {
      status_[i] = "timed out";
      f.rule = "runtime-kernel-timeout";
      f.message = context + "the kernel of " + op + " did not return within " + seconds() + "; the child was killed";
      f.help = "make sure the kernel terminates for these inputs (loop bounds, waits on locks or devices); raise "
               "--timeout only if it is legitimately slow";
    } else if (r.fault && r.fault->stack_slot) {
      const Fault& x = *r.fault;
      status_[i] = "crashed";
      f.rule = "runtime-stack-out-of-bounds";
      uint64_t slots = std::max(x.num_args, x.num_outputs);
      f.message = context + "the kernel of " + x.op + " " + (x.access.empty() ? "accessed" : x.access == "write" ? "wrote" : "read") +
                  " stack slot " + std::to_string(*x.stack_slot) + ", past the end of its stack of " +
                  std::to_string(slots) + " slot" + (slots == 1 ? "" : "s") + " (max(num_args=" +
                  std::to_string(x.num_args) + ", num_outputs=" + std::to_string(x.num_outputs) + "))";
      f.notes.push_back("the process " + how_it_ended(r));
      f.help = "read arguments only from stack[0..num_args) and write returns only to stack[0..num_outputs); check "
               "the kernel against its schema";
    } else {
      status_[i] = "crashed";
      f.rule = "runtime-kernel-crash";
      f.message = context + "the kernel of " + op + " " + how_it_ended(r);
      if (r.fault && !r.fault->addr.empty() && r.fault->signal != SIGFPE && r.fault->signal != SIGILL)
        f.notes.push_back("faulting address " + r.fault->addr);
      f.help = "run the case under a debugger or sanitizer (the same .so loads into `torchabi run`); a kernel must "
               "report errors by throwing (STD_TORCH_CHECK), not by aborting the process";
    }
    attach_output(f, r);
    add(std::move(f));
  }

  void between_calls_failure(const ChildRun& r) {
    ProtoFinding f;
    f.rule = r.timed_out ? "runtime-kernel-timeout" : "runtime-kernel-crash";
    std::string after = r.last_ended >= 0 && static_cast<size_t>(r.last_ended) < planned_.size()
                            ? "after the call '" + planned_[r.last_ended].value("name", "") + "' returned"
                            : "before its first call";
    f.message = "the extension " + how_it_ended(r) + " " + after + ", while no kernel was running";
    f.help = "look for threads or destructors the extension starts that outlive its kernels";
    attach_output(f, r);
    add(std::move(f));
  }

  void summarize() {
    size_t passed = 0, failed = 0, other = 0;
    for (size_t i = 0; i < planned_.size(); ++i) {
      std::string s = status_.count(i) ? status_[i] : "not run";
      if (s.rfind("passed", 0) == 0) ++passed;
      else if (s.rfind("failed", 0) == 0 || s == "crashed" || s == "timed out") ++failed;
      else ++other;
      subject_.facts.emplace_back((plan_.cases ? "case " : "") + planned_[i].value("name", ""), s);
      // A stable place for what real torch's Python raises (scripts/against-torch/compare.py reads it).
      if (auto e = python_errors_.find(i); e != python_errors_.end())
        subject_.facts.emplace_back("python error " + planned_[i].value("name", ""), one_line(e->second));
    }
    const char* noun = plan_.cases ? (planned_.size() == 1 ? " case" : " cases")
                                   : (planned_.size() == 1 ? " smoke call" : " smoke calls");
    std::string summary = std::to_string(planned_.size()) + noun + ": " +
                          std::to_string(passed) + " passed, " + std::to_string(failed) + " failed";
    if (other) summary += ", " + std::to_string(other) + " not run";
    subject_.facts.emplace_back("calls", summary);
    for (auto& f : mutations_.never_written()) add(std::move(f));
    subject_.verdict = failed ? "FAILED" : "PASSED";
  }

  const RunOptions& opts_;
  ChildPlan plan_;
  findings::Report& report_;
  findings::Subject& subject_;
  std::vector<json> planned_;
  std::map<size_t, std::string> status_;
  MutationTally mutations_;
  std::map<size_t, std::string> python_errors_;  // "ValueError: message" of calls whose kernel threw

public:
  std::vector<NameLookup> lookups_;  // names the extension looked up with dlsym, in first-lookup order

private:
  std::optional<InputError> pending_input_error_;
  const RootSetup* root_ = nullptr;

public:
  std::vector<std::string> missing_;
};

fs::path self_dir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

}  // namespace

std::string locate_runtime_library(const TorchVersion& version, const std::string& dir_override) {
  const std::string name = "libtorchabi-runtime-" + std::to_string(version.major) + "." +
                           std::to_string(version.minor) + ".so";
  std::vector<fs::path> dirs;
  if (!dir_override.empty()) {
    dirs.push_back(dir_override);
  } else {
    if (const char* env = std::getenv("TORCHABI_RUNTIME_DIR")) dirs.push_back(env);
    fs::path self = self_dir();
    if (!self.empty()) {
      dirs.push_back(self / "lib/torchabi-runtime");
      dirs.push_back(self / "../lib/torchabi-runtime");
    }
    // The wheel: the executable in the environment's scripts directory, the
    // runtime in the package (common/install_layout.h).
    if (!install_layout::root().empty()) dirs.push_back(install_layout::root() / "lib/torchabi-runtime");
#ifdef TORCHABI_RUNTIME_BUILD_DIR
    dirs.push_back(TORCHABI_RUNTIME_BUILD_DIR);
#endif
  }
  std::string looked;
  for (const auto& d : dirs) {
    std::error_code ec;
    fs::path p = fs::weakly_canonical(d / name, ec);
    if (!ec && fs::is_regular_file(p, ec)) return p.string();
    looked += (looked.empty() ? "" : ", ") + d.string();
  }
  throw InputError(name, "the reference runtime for PyTorch " + version.str() + " is not installed (looked in " +
                             looked + ")");
}

void run_extension(const RunOptions& opts, findings::Report& report) {
  ExtensionImports imports = read_extension_imports(opts.extension);
  const inputs::ApiCatalog& catalog = inputs::ApiCatalog::current();
  TorchVersion version = opts.torch_version.value_or(catalog.latest());
  version.patch = 0;
  if (version < catalog.baseline() || version > catalog.latest())
    throw InputError("--torch-version", "the reference runtime behaves as PyTorch " + catalog.baseline().str() +
                                            " to " + catalog.latest().str() + "; " + version.str() +
                                            " is outside what the rules know");
  if (!(opts.timeout_seconds > 0)) throw InputError("--timeout", "must be a positive number of seconds");
  std::optional<RootSetup> root;
  if (!opts.root.empty()) root = prepare_root(opts.root);
  struct Release {
    std::optional<RootSetup>& r;
    ~Release() {
      if (r) release_root(*r);
    }
  } release{root};
  std::optional<CaseFile> cases;
  if (opts.cases) cases = load_case_file(*opts.cases);

  ChildPlan plan;
  plan.extension = fs::absolute(opts.extension).string();
  plan.runtime_library = locate_runtime_library(version, opts.runtime_dir);
  plan.abi_version = version.encoded();
  plan.release = version.str();
  plan.python_errors = load_python_error_rules(inputs::RulesSource::current());
  plan.aten = load_aten_signatures(inputs::RulesSource::current());
  plan.aten_lookup = make_aten_schema_lookup(inputs::RulesSource::current());
  plan.cases = cases ? &*cases : nullptr;
  plan.standins = torch_library_names(imports.needed, inputs::RulesSource::current());
  plan.standin_template = (fs::path(plan.runtime_library).parent_path() / "libtorchabi-standin.so").string();
  for (const auto& p : opts.preload) {
    std::error_code ec;
    if (!fs::is_regular_file(p, ec)) throw InputError("--preload", p + ": no such file");
    plan.preload.push_back(fs::absolute(p).string());
  }

  report.subjects.push_back({});
  findings::Subject& subject = report.subjects.back();
  subject.kind = "extension";
  subject.path = opts.extension;
  subject.facts.emplace_back("runtime", "torchabi reference runtime behaving as PyTorch " + version.str());

  // The oldest release whose stable C ABI has everything the extension imports.
  TorchVersion floor = catalog.baseline();
  for (const auto& sym : imports.undefined) {
    const inputs::CFunction* f = catalog.find_c(sym);
    if (!f || f->is_type) continue;
    TorchVersion since = f->baseline ? catalog.baseline() : f->since;
    since.patch = 0;
    if (floor < since) floor = since, subject.floor_set_by.clear();
    if (since == floor && !f->baseline) subject.floor_set_by.push_back(sym);
  }
  subject.floor = floor;
  subject.floor_is_baseline = subject.floor_set_by.empty();
  subject.loads_on = subject.floor_is_baseline ? ">= " + catalog.baseline().str() + " (or earlier)" : ">= " + floor.str();

  // Imports the release lacks: the loader will refuse the extension on it.
  std::vector<std::string> missing;
  for (const auto& sym : imports.undefined) {
    const inputs::CFunction* f = catalog.find_c(sym);
    if (f && !f->is_type && !f->baseline && version < f->since) missing.push_back(sym + " (" + f->since_label() + ")");
  }
  if (!missing.empty()) {
    findings::Finding f;
    f.rule = "runtime-missing-symbol";
    f.location.file = opts.extension;
    f.message = "the extension cannot load on PyTorch " + version.str() + ": it imports " +
                std::to_string(missing.size()) + " stable C function" + (missing.size() == 1 ? "" : "s") +
                " introduced in a later release";
    for (const auto& m : missing) f.notes.push_back(m);
    f.help = "build with TORCH_TARGET_VERSION set to " + version.str() +
             " so the headers hide newer APIs, or declare the newer release as the minimum the extension supports";
    report.add(std::move(f));
  }

  if (!opts.root.empty()) subject.facts.emplace_back("root", fs::absolute(opts.root).lexically_normal().string());
  const size_t first_finding = report.findings.size();
  Supervisor sup(opts, std::move(plan), report, subject, root ? &*root : nullptr);
  sup.missing_ = missing;
  sup.run();
  if (subject.verdict != "NOT LOADED")
    for (auto& fact : name_lookup_facts(sup.lookups_, functions_named_in_strings(opts.extension, imports.undefined,
                                                                                 catalog),
                                        catalog, version))
      subject.facts.push_back(std::move(fact));
  // A loaded extension whose calls passed still fails on an error-level finding
  // (a rejected registration, a missing symbol).
  if (subject.verdict == "PASSED") {
    const auto& rules = findings::RuleRegistry::current();
    for (size_t i = first_finding; i < report.findings.size(); ++i) {
      const auto& f = report.findings[i];
      const auto* doc = rules.find(f.rule);
      auto sev = f.severity ? *f.severity : doc ? doc->severity : findings::Severity::Error;
      if (sev == findings::Severity::Error) subject.verdict = "FAILED";
    }
  }
}

}  // namespace torchabi::runtime_driver
