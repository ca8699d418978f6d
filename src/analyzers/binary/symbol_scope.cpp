#include "analyzers/binary/symbol_scope.h"

#include <cstdlib>
#include <memory>
#include <vector>

#include <llvm/Demangle/ItaniumDemangle.h>

namespace torchabi::binary {

// Named, not anonymous: ScopeDemangler::Impl (declared in the header) holds a
// Parser, and a member whose type has internal linkage is what
// -Wsubobject-linkage warns about when this file is compiled in a unity batch.
namespace scope_demangling {

using llvm::itanium_demangle::Node;

// Bump allocator for demangler nodes. Blocks survive reset(), so after the
// first few symbols parsing allocates nothing. Nodes are never destroyed
// individually (the demangler's nodes are trivially discardable).
class NodeArena {
public:
  void reset() {
    block_ = 0;
    used_ = 0;
  }
  void* allocate(size_t n) {
    n = (n + 15) & ~size_t(15);
    while (block_ < blocks_.size()) {
      if (blocks_[block_].size - used_ >= n) {
        void* p = blocks_[block_].data.get() + used_;
        used_ += n;
        return p;
      }
      ++block_;
      used_ = 0;
    }
    const size_t size = std::max(n, kBlock);
    blocks_.push_back({std::unique_ptr<std::byte[]>(new std::byte[size]), size});
    block_ = blocks_.size() - 1;
    used_ = n;
    return blocks_.back().data.get();
  }
  template <typename T, typename... Args>
  T* makeNode(Args&&... args) {
    return new (allocate(sizeof(T))) T(std::forward<Args>(args)...);
  }
  void* allocateNodeArray(size_t n) { return allocate(sizeof(Node*) * n); }

private:
  static constexpr size_t kBlock = 64 * 1024;
  struct Block {
    std::unique_ptr<std::byte[]> data;
    size_t size;
  };
  std::vector<Block> blocks_;
  size_t block_ = 0;
  size_t used_ = 0;
};

using Parser = llvm::itanium_demangle::ManglingParser<NodeArena>;

}  // namespace scope_demangling

namespace {

using llvm::itanium_demangle::Node;
using scope_demangling::Parser;

// Demangler ASTs are DAGs built from the input; malformed input could nest
// deeply. Every walk below is bounded.
constexpr int kMaxSteps = 64;

std::string print(const Node* n) {
  llvm::itanium_demangle::OutputBuffer ob;
  n->print(ob);
  std::string s(ob.getBuffer() ? ob.getBuffer() : "", ob.getCurrentPosition());
  std::free(ob.getBuffer());
  return s;
}

// The node naming what the symbol is about: a function's or variable's name,
// the class of a vtable/typeinfo, the target of a thunk or guard variable.
const Node* entity_of(const Node* n) {
  using namespace llvm::itanium_demangle;
  for (int step = 0; n && step < kMaxSteps; ++step) {
    const Node* next = nullptr;
    switch (n->getKind()) {
      case Node::KFunctionEncoding: return static_cast<const FunctionEncoding*>(n)->getName();
      case Node::KDotSuffix: static_cast<const DotSuffix*>(n)->match([&](const Node* p, std::string_view) { next = p; }); break;
      case Node::KSpecialName: static_cast<const SpecialName*>(n)->match([&](std::string_view, const Node* c) { next = c; }); break;
      case Node::KCtorVtableSpecialName:
        static_cast<const CtorVtableSpecialName*>(n)->match([&](const Node* a, const Node*) { next = a; });
        break;
      case Node::KQualType: next = static_cast<const QualType*>(n)->getChild(); break;
      case Node::KPointerType: next = static_cast<const PointerType*>(n)->getPointee(); break;
      case Node::KReferenceType:
        static_cast<const ReferenceType*>(n)->match([&](const Node* p, ReferenceKind) { next = p; });
        break;
      default: return n;
    }
    n = next;
  }
  return nullptr;
}

void append_components(const Node* n, std::string& out, int depth);

void append_component(std::string_view c, std::string& out) {
  if (!out.empty()) out += "::";
  out += c;
}

// The scopes enclosing the entity named by `n`, e.g. "c10::detail" for
// c10::detail::torchCheckFail. Template arguments are left out: they are not
// scopes, and printing them (often hundreds of characters) is most of the cost.
void append_context(const Node* n, std::string& out, int depth) {
  using namespace llvm::itanium_demangle;
  for (int step = 0; n && step < kMaxSteps && depth <= kMaxSteps; ++step) {
    switch (n->getKind()) {
      case Node::KAbiTagAttr: n = static_cast<const AbiTagAttr*>(n)->Base; break;
      case Node::KNameWithTemplateArgs: n = static_cast<const NameWithTemplateArgs*>(n)->Name; break;
      case Node::KModuleEntity: n = static_cast<const ModuleEntity*>(n)->Name; break;
      case Node::KGlobalQualifiedName: {
        const Node* child = nullptr;
        static_cast<const GlobalQualifiedName*>(n)->match([&](const Node* c) { child = c; });
        n = child;
        break;
      }
      case Node::KNestedName: return append_components(static_cast<const NestedName*>(n)->Qual, out, depth + 1);
      case Node::KMemberLikeFriendName:
        return append_components(static_cast<const MemberLikeFriendName*>(n)->Qual, out, depth + 1);
      // A local entity lives inside its enclosing function: that function's
      // qualified name, then the entity's own scopes inside it
      // ("c10::foo::'lambda'()" for the call operator of a lambda in c10::foo<int>()).
      case Node::KLocalName: {
        const auto* local = static_cast<const LocalName*>(n);
        append_components(entity_of(local->Encoding), out, depth + 1);
        n = local->Entity;
        break;
      }
      default: return;
    }
  }
}

// Appends the qualified name of `n` (scopes and name, no template arguments).
void append_components(const Node* n, std::string& out, int depth) {
  using namespace llvm::itanium_demangle;
  for (int step = 0; n && step < kMaxSteps && depth <= kMaxSteps; ++step) {
    switch (n->getKind()) {
      case Node::KAbiTagAttr: n = static_cast<const AbiTagAttr*>(n)->Base; break;
      case Node::KNameWithTemplateArgs: n = static_cast<const NameWithTemplateArgs*>(n)->Name; break;
      case Node::KModuleEntity: n = static_cast<const ModuleEntity*>(n)->Name; break;
      case Node::KNameType: return append_component(static_cast<const NameType*>(n)->getName(), out);
      case Node::KNestedName: {
        const auto* nested = static_cast<const NestedName*>(n);
        append_components(nested->Qual, out, depth + 1);
        n = nested->Name;
        break;
      }
      case Node::KLocalName: {
        const auto* local = static_cast<const LocalName*>(n);
        append_components(entity_of(local->Encoding), out, depth + 1);
        n = local->Entity;
        break;
      }
      // Anything else (std::string substitutions, lambdas, unnamed types) is
      // one component, printed as the demangler would.
      default: return append_component(print(n), out);
    }
  }
}

// Whether the innermost name of `n` carries template arguments.
bool has_template_args(const Node* n) {
  using namespace llvm::itanium_demangle;
  for (int step = 0; n && step < kMaxSteps; ++step) {
    switch (n->getKind()) {
      case Node::KAbiTagAttr: n = static_cast<const AbiTagAttr*>(n)->Base; break;
      case Node::KNestedName: n = static_cast<const NestedName*>(n)->Name; break;
      case Node::KNameWithTemplateArgs: return true;
      default: return false;
    }
  }
  return false;
}

// The local name `n` is, or is nested in (a member of a local class).
const llvm::itanium_demangle::LocalName* local_of(const Node* n) {
  using namespace llvm::itanium_demangle;
  for (int step = 0; n && step < kMaxSteps; ++step) {
    switch (n->getKind()) {
      case Node::KAbiTagAttr: n = static_cast<const AbiTagAttr*>(n)->Base; break;
      case Node::KNameWithTemplateArgs: n = static_cast<const NameWithTemplateArgs*>(n)->Name; break;
      case Node::KNestedName: n = static_cast<const NestedName*>(n)->Qual; break;
      case Node::KLocalName: return static_cast<const LocalName*>(n);
      default: return nullptr;
    }
  }
  return nullptr;
}

}  // namespace

struct ScopeDemangler::Impl {
  scope_demangling::Parser parser{nullptr, nullptr};
};

ScopeDemangler::ScopeDemangler() : impl_(std::make_unique<Impl>()) {}
ScopeDemangler::~ScopeDemangler() = default;

SymbolScope ScopeDemangler::analyse(std::string_view mangled, bool want_text) {
  SymbolScope out;
  // Only symbols are analysed: without "_Z" the parser would read a bare type ("i" is int).
  if (!mangled.starts_with("_Z")) return out;
  impl_->parser.reset(mangled.data(), mangled.data() + mangled.size());
  const Node* root = impl_->parser.parse();
  if (!root) return out;
  out.demangled = true;
  if (const Node* entity = entity_of(root)) {
    append_context(entity, out.context, 0);
    append_components(entity, out.qualified, 0);
    out.is_template_instance = has_template_args(entity);
    if (const auto* local = local_of(entity)) out.enclosing_function = print(local->Encoding);
  }
  if (want_text) out.text = print(root);
  return out;
}

std::string ScopeDemangler::demangle(std::string_view mangled) {
  SymbolScope s = analyse(mangled, true);
  return s.demangled ? s.text : std::string(mangled);
}

}  // namespace torchabi::binary
