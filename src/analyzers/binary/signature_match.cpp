#include "analyzers/binary/signature_match.h"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string_view>
#include <unordered_map>

#include <llvm/Demangle/Demangle.h>

#include "common/input_error.h"
#include "inputs/torch_install.h"

namespace torchabi::binary {

namespace {

// LLVM's partial demangler with one reusable output buffer.
class PartialDemangler {
public:
  ~PartialDemangler() { std::free(buf_); }
  // True when `mangled` is a C++ function.
  bool parse(const std::string& mangled) { return !d_.partialDemangle(mangled.c_str()) && d_.isFunction(); }
  std::string context() { return print(&llvm::ItaniumPartialDemangler::getFunctionDeclContextName); }
  std::string base() { return print(&llvm::ItaniumPartialDemangler::getFunctionBaseName); }
  std::string full() { return print(&llvm::ItaniumPartialDemangler::finishDemangle); }
  std::string qualified() {
    std::string ctx = context(), b = base();
    return ctx.empty() ? b : ctx + "::" + b;
  }

private:
  std::string print(char* (llvm::ItaniumPartialDemangler::*f)(char*, size_t*) const) {
    size_t n = cap_;
    char* out = (d_.*f)(buf_, &n);
    if (!out) return {};
    buf_ = out;
    cap_ = std::max(cap_, n);  // n is the length printed; the buffer is at least that big
    return std::string(out);
  }
  llvm::ItaniumPartialDemangler d_;
  char* buf_ = nullptr;
  size_t cap_ = 0;
};

bool is_identifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// "foo<int>" -> "foo", "basic_string[abi:cxx11]" -> "basic_string", "~Library" -> "Library".
std::string_view plain_name(std::string_view s) {
  if (s.starts_with("~")) s.remove_prefix(1);
  const size_t cut = s.find_first_of("<[");
  return s.substr(0, cut);
}

// The Itanium <source-name> spelling of an identifier: "7Library".
std::string source_name(std::string_view id) { return std::to_string(id.size()) + std::string(id); }

// "a::b<c::d>::e" -> {"a", "b<c::d>", "e"}: splits at top-level "::".
std::vector<std::string_view> components(std::string_view q) {
  std::vector<std::string_view> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < q.size(); ++i) {
    const char c = q[i];
    if (c == '<' || c == '(' || c == '[') ++depth;
    else if ((c == '>' || c == ')' || c == ']') && depth > 0) --depth;
    else if (depth == 0 && c == ':' && i + 1 < q.size() && q[i + 1] == ':') {
      out.push_back(q.substr(start, i - start));
      start = i + 2;
      ++i;
    }
  }
  out.push_back(q.substr(start));
  return out;
}

struct Query {
  std::string mangled;
  std::string qualified;
  std::string key;                        // the base name's <source-name>: every candidate spells it
  std::vector<std::string> scope_tokens;  // and the <source-name>s of its scopes
  std::set<std::pair<std::string, std::string>> found;  // (demangled, library)
};

// Calls f(token) for every "<digits><that many chars>" run in a mangled name:
// a superset of its <source-name>s, found without parsing.
template <class F>
void for_each_source_name(std::string_view s, F&& f) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i])) || (i > 0 && std::isdigit(static_cast<unsigned char>(s[i - 1]))))
      continue;
    size_t j = i, n = 0;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j])) && n < 100000) n = n * 10 + size_t(s[j++] - '0');
    if (n == 0 || n > s.size() - j) continue;
    f(s.substr(i, (j - i) + n));
  }
}

}  // namespace

std::string qualified_function_name(const std::string& mangled) {
  PartialDemangler d;
  return d.parse(mangled) ? d.qualified() : std::string();
}

std::vector<std::vector<OtherSignature>> find_other_signatures(const std::vector<std::string>& mangled,
                                                               inputs::TorchInstall& torch, size_t limit) {
  std::vector<std::vector<OtherSignature>> out(mangled.size());
  PartialDemangler d;
  std::vector<Query> queries(mangled.size());
  std::unordered_map<std::string_view, std::vector<size_t>> by_key;  // views of queries[i].key
  for (size_t i = 0; i < mangled.size(); ++i) {
    Query& q = queries[i];
    q.mangled = mangled[i];
    if (!d.parse(q.mangled)) continue;
    q.qualified = d.qualified();
    std::vector<std::string_view> parts = components(q.qualified);
    std::string_view base = plain_name(parts.back());
    if (!is_identifier(base)) continue;  // operators: no name to look for
    q.key = source_name(base);
    parts.pop_back();
    for (auto p : parts)
      if (auto id = plain_name(p); is_identifier(id)) q.scope_tokens.push_back(source_name(id));
    by_key[q.key].push_back(i);
  }
  if (by_key.empty()) return out;

  // Candidates: exports spelling the base name and every scope name.
  std::vector<std::pair<std::string, std::pair<size_t, size_t>>> candidates;  // mangled, (query, library)
  for (size_t li = 0; li < torch.size(); ++li) {
    const inputs::TorchLibrary* lib = nullptr;
    try {
      lib = &torch.load(li);
    } catch (const InputError&) {
      continue;  // reported where the library is resolved against
    }
    auto consider = [&](std::string_view name, size_t qi) {
      const Query& q = queries[qi];
      if (name == q.mangled) return;
      for (const auto& t : q.scope_tokens)
        if (name.find(t) == std::string_view::npos) return;
      candidates.push_back({std::string(name), {qi, li}});
    };
    // A few functions to explain (the usual case): a substring search per
    // query is cheaper than splitting every name into its source names.
    const bool few = by_key.size() <= 8;
    for (const auto& sym : lib->exports.symbols()) {
      if (!sym.name.starts_with("_Z")) continue;
      if (few) {
        for (const auto& [key, which] : by_key)
          if (sym.name.find(key) != std::string_view::npos)
            for (size_t qi : which) consider(sym.name, qi);
        continue;
      }
      for_each_source_name(sym.name, [&](std::string_view token) {
        auto it = by_key.find(token);
        if (it == by_key.end()) return;
        for (size_t qi : it->second) consider(sym.name, qi);
      });
    }
  }
  for (const auto& [name, where] : candidates) {
    Query& q = queries[where.first];
    if (!d.parse(name) || d.qualified() != q.qualified) continue;
    const auto& lib = torch.library(where.second);
    q.found.insert({d.full(), lib.soname.empty() ? lib.names.front() : lib.soname});
  }
  for (size_t i = 0; i < queries.size(); ++i)
    for (const auto& [text, library] : queries[i].found) {
      if (out[i].size() >= limit) break;
      // Two libraries may define the same signature; one mention is enough.
      if (!out[i].empty() && out[i].back().demangled == text) continue;
      out[i].push_back({text, library});
    }
  return out;
}

}  // namespace torchabi::binary
