#include "analyzers/migration/pybind_port.h"

#include <cctype>

#include "analyzers/migration/directive_scanner.h"
#include "common/text.h"

namespace torchabi::migration {

namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

size_t skip_space(std::string_view t, size_t i) {
  while (i < t.size() && std::isspace(static_cast<unsigned char>(t[i]))) ++i;
  return i;
}

// The position after the bracket matching the one at `open`; npos when
// unbalanced. String and character literals and comments are skipped.
size_t after_match(std::string_view t, size_t open) {
  int depth = 0;
  for (size_t i = open; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '"' || c == '\'') {
      for (++i; i < t.size() && t[i] != c; ++i)
        if (t[i] == '\\') ++i;
    } else if (c == '/' && i + 1 < t.size() && t[i + 1] == '/') {
      i = t.find('\n', i);
      if (i == std::string_view::npos) return i;
    } else if (c == '/' && i + 1 < t.size() && t[i + 1] == '*') {
      i = t.find("*/", i);
      if (i == std::string_view::npos) return i;
      ++i;
    } else if (c == '(' || c == '{' || c == '[') {
      ++depth;
    } else if (c == ')' || c == '}' || c == ']') {
      if (--depth == 0) return i + 1;
    }
  }
  return std::string_view::npos;
}

// Comma-separated items at depth 0 of `s` (angle brackets count).
std::vector<std::string> items(std::string_view s) {
  std::vector<std::string> out;
  int depth = 0;
  size_t from = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    const char c = i < s.size() ? s[i] : ',';
    if (c == '"') {
      for (++i; i < s.size() && s[i] != '"'; ++i)
        if (s[i] == '\\') ++i;
      continue;
    }
    if (c == '(' || c == '[' || c == '<' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '>' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      out.emplace_back(text::trim(s.substr(from, i - from)));
      from = i + 1;
    }
  }
  return out;
}

std::string without_comments(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 2, "/*") == 0) {
      const size_t e = s.find("*/", i + 2);
      if (e == std::string_view::npos) break;
      i = e + 1;
      out += ' ';
    } else if (s.compare(i, 2, "//") == 0) {
      const size_t e = s.find('\n', i);
      if (e == std::string_view::npos) break;
      i = e;
      out += ' ';
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string squeeze(std::string_view s) {
  std::string out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
  return out;
}

struct Signature {
  std::string returns;                 // schema
  std::vector<std::string> arguments;  // schema "Tensor input"
};

// The definition (or declaration) of the free function `name` in `text`.
std::optional<Signature> signature_of(std::string_view text, const std::string& name, std::string& why) {
  // A definition first; a declaration (`;`) when the file has none.
  for (const char want : {'{', ';'})
  for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    if ((at > 0 && ident_char(text[at - 1])) || (at + name.size() < text.size() && ident_char(text[at + name.size()])))
      continue;
    const size_t open = skip_space(text, at + name.size());
    if (open >= text.size() || text[open] != '(') continue;
    const size_t close = after_match(text, open);
    if (close == std::string_view::npos) continue;
    const size_t next = skip_space(text, close);
    if (next >= text.size() || text[next] != want) continue;
    // The return type: back to the end of the previous declaration.
    size_t from = at;
    while (from > 0 && text[from - 1] != ';' && text[from - 1] != '}' && text[from - 1] != '{' && text[from - 1] != '#')
      --from;
    // Nor from inside a #define before it (`#define CHECK_INPUT(x) CHECK_CUDA(x); ...`).
    for (const auto& d : scan_directives(text).macro_definitions)
      if (d.end > from && d.end <= at) from = d.end;
    std::string ret = without_comments(text.substr(from, at - from));
    // A preprocessor line before it (`#include <vector>`) ends at its newline.
    if (from > 0 && text[from - 1] == '#') ret = ret.substr(ret.find('\n') == std::string::npos ? ret.size() : ret.find('\n'));
    for (const char* spec : {"inline ", "static ", "extern "})
      for (size_t p; (p = ret.find(spec)) != std::string::npos;) ret.erase(p, std::string(spec).size());
    Signature s;
    s.returns = schema_type_of(text::trim(ret));
    if (s.returns.empty()) {
      why = "the return type of " + name + " (" + std::string(text::trim(ret)) + ") has no schema spelling";
      return std::nullopt;
    }
    for (const auto& p : items(without_comments(text.substr(open + 1, close - open - 2)))) {
      if (p.empty() || p == "void") continue;
      std::string param = p.substr(0, p.find('='));  // a C++ default is not a schema default here
      param = std::string(text::trim(param));
      size_t n = param.size();
      while (n > 0 && ident_char(param[n - 1])) --n;
      const std::string pname = param.substr(n);
      const std::string type = schema_type_of(text::trim(std::string_view(param).substr(0, n)));
      if (pname.empty() || type.empty() || std::isdigit(static_cast<unsigned char>(pname[0]))) {
        why = "parameter `" + p + "` of " + name + " has no schema spelling";
        return std::nullopt;
      }
      s.arguments.push_back(type + " " + pname);
    }
    return s;
  }
  why = "no definition of " + name + " in this file";
  return std::nullopt;
}

}  // namespace

std::string schema_type_of(std::string_view cpp_type) {
  std::string t = squeeze(cpp_type);
  if (t.starts_with("const")) t.erase(0, 5);
  while (!t.empty() && (t.back() == '&')) t.pop_back();
  if (t.ends_with("const")) t.resize(t.size() - 5);
  for (const char* ns : {"std::", "c10::", "torch::stable::", "torch::headeronly::", "torch::", "at::"})
    for (size_t p; (p = t.find(ns)) != std::string::npos;) t.erase(p, std::string(ns).size());
  if (t == "Tensor") return "Tensor";
  if (t == "int64_t" || t == "int" || t == "long") return "int";
  if (t == "double") return "float";
  if (t == "bool") return "bool";
  if (t == "void") return "()";
  if (t == "ScalarType") return "ScalarType";
  if (t == "string") return "str";
  if (t == "IntArrayRef" || t == "vector<int64_t>") return "int[]";
  auto inner = [&](std::string_view prefix) -> std::optional<std::string> {
    if (!t.starts_with(prefix) || t.back() != '>') return std::nullopt;
    return t.substr(prefix.size(), t.size() - prefix.size() - 1);
  };
  if (auto in = inner("vector<")) return *in == "Tensor" ? "Tensor[]" : "";
  if (auto in = inner("optional<")) {
    const std::string e = schema_type_of(*in);
    return e.empty() || e.find('?') != std::string::npos ? "" : e + "?";
  }
  if (auto in = inner("tuple<")) {
    std::vector<std::string> parts;
    for (const auto& x : items(*in)) {
      const std::string e = schema_type_of(x);
      if (e.empty() || e == "()") return "";
      parts.push_back(e);
    }
    return "(" + text::join(parts, ", ") + ")";
  }
  return "";
}

std::optional<PybindPort> port_pybind_module(std::string_view text, size_t at, const std::string& library,
                                             std::string& why) {
  const size_t open = skip_space(text, at + std::string_view("PYBIND11_MODULE").size());
  if (open >= text.size() || text[open] != '(') return why = "not a PYBIND11_MODULE(name, m) invocation", std::nullopt;
  const size_t close = after_match(text, open);
  if (close == std::string_view::npos) return why = "unbalanced PYBIND11_MODULE(...)", std::nullopt;
  const auto params = items(text.substr(open + 1, close - open - 2));
  if (params.size() != 2) return why = "PYBIND11_MODULE takes a name and a module variable", std::nullopt;
  const std::string module = params[0], m = params[1];
  const size_t body = skip_space(text, close);
  if (body >= text.size() || text[body] != '{') return why = "no body after PYBIND11_MODULE(...)", std::nullopt;
  const size_t end = after_match(text, body);
  if (end == std::string_view::npos) return why = "unbalanced module body", std::nullopt;

  PybindPort port;
  port.begin = at;
  port.end = end;
  // An empty module only makes the library importable (its TORCH_LIBRARY
  // blocks register when Python loads it): Python's C API does that without
  // pybind11, in its limited API.
  if (text::trim(without_comments(text.substr(body + 1, end - body - 2))).empty()) {
    port.import_only = true;
    const bool macro = module == "TORCH_EXTENSION_NAME";
    std::string o;
    if (macro)
      o += "// PyInit_<TORCH_EXTENSION_NAME>, the name the build gives the module.\n"
           "#define STABLE_EXT_PYINIT_(name) PyInit_##name\n#define STABLE_EXT_PYINIT(name) STABLE_EXT_PYINIT_(name)\n"
           "#define STABLE_EXT_STR_(name) #name\n#define STABLE_EXT_STR(name) STABLE_EXT_STR_(name)\n";
    const std::string init = macro ? "STABLE_EXT_PYINIT(TORCH_EXTENSION_NAME)" : "PyInit_" + module;
    const std::string name = macro ? "STABLE_EXT_STR(TORCH_EXTENSION_NAME)" : "\"" + module + "\"";
    o += "// An empty module: importing it loads this library, whose operator registrations then run.\n"
         "extern \"C\" PyObject* " + init + "(void) {\n"
         "  static PyModuleDef module_def = {PyModuleDef_HEAD_INIT, " + name + ", nullptr, -1, nullptr};\n"
         "  return PyModule_Create(&module_def);\n}";
    port.replacement = o;
    port.library = macro ? library : module;
    return port;
  }
  port.library = module == "TORCH_EXTENSION_NAME" ? library : module;
  const std::string py_module = module == "TORCH_EXTENSION_NAME" ? "<your extension module>" : module;
  std::string out = "STABLE_TORCH_LIBRARY(" + port.library + ", " + m + ") {\n";
  // Every statement of the body must be `m.def("name", &fn[, "doc"]...);`.
  const std::string stripped = without_comments(text.substr(body + 1, end - body - 2));
  for (size_t i = 0;;) {
    i = skip_space(stripped, i);
    if (i >= stripped.size()) break;
    const size_t semi = [&] {
      for (size_t k = i; k < stripped.size(); ++k) {
        if (stripped[k] == '(' || stripped[k] == '{') {
          k = after_match(stripped, k);
          if (k == std::string_view::npos) return k;
          --k;
        } else if (stripped[k] == ';') {
          return k;
        }
      }
      return std::string_view::npos;
    }();
    if (semi == std::string_view::npos) return why = "a statement of the module does not end", std::nullopt;
    const std::string stmt = squeeze(std::string_view(stripped).substr(i, semi - i));
    i = semi + 1;
    const std::string head = m + ".def(";
    if (!stmt.starts_with(head) || stmt.back() != ')')
      return why = "the module does more than define functions (`" + stmt.substr(0, 40) + "`)", std::nullopt;
    const auto args = items(std::string_view(stmt).substr(head.size(), stmt.size() - head.size() - 1));
    if (args.size() < 2 || args[0].size() < 2 || args[0].front() != '"' || args[0].back() != '"')
      return why = "a binding whose name is not a string literal", std::nullopt;
    const std::string name = args[0].substr(1, args[0].size() - 2);
    std::string fn = args[1];
    if (fn.starts_with("&")) fn.erase(0, 1);
    bool plain = !fn.empty() && !std::isdigit(static_cast<unsigned char>(fn[0]));
    for (char c : fn) plain = plain && (ident_char(c) || c == ':');
    if (!plain) return why = "the binding of " + name + " is not a named function", std::nullopt;
    for (size_t k = 2; k < args.size(); ++k)
      if (args[k].empty() || args[k].front() != '"')
        return why = "the binding of " + name + " passes pybind11 options (py::arg, return policies)", std::nullopt;
    const std::string leaf = fn.substr(fn.rfind(':') == std::string::npos ? 0 : fn.rfind(':') + 1);
    auto sig = signature_of(text, leaf, why);
    if (!sig) return std::nullopt;
    const std::string schema = name + "(" + text::join(sig->arguments, ", ") + ") -> " + sig->returns;
    port.schemas.push_back(schema);
    out += "  " + m + ".def(\"" + schema + "\").impl(\"" + name + "\", TORCH_BOX(&" + fn + "));\n";
    port.python_calls.push_back(py_module + "." + name + "(...) -> torch.ops." + port.library + "." + name + "(...)");
  }
  if (port.schemas.empty()) return why = "the module defines no function", std::nullopt;
  out += "}";
  port.replacement = out;
  return port;
}

}  // namespace torchabi::migration
