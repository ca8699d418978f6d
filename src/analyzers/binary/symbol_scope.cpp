#include "analyzers/binary/symbol_scope.h"

#include <cstdlib>
#include <memory>
#include <vector>

#include <llvm/Demangle/ItaniumDemangle.h>

namespace torchabi::binary {

namespace {

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

std::string qualified_name(const Node* name, int depth);

// The scopes enclosing `name`, printed ("c10::detail"), without the name itself.
std::string context_of(const Node* n, int depth) {
  using namespace llvm::itanium_demangle;
  if (depth > kMaxSteps) return {};
  for (int step = 0; n && step < kMaxSteps; ++step) {
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
      case Node::KNestedName: return print(static_cast<const NestedName*>(n)->Qual);
      case Node::KMemberLikeFriendName: return print(static_cast<const MemberLikeFriendName*>(n)->Qual);
      // A local entity lives inside its enclosing function: that function's
      // qualified name is its context ("c10::foo<int>" for a lambda in it).
      case Node::KLocalName: return qualified_name(entity_of(static_cast<const LocalName*>(n)->Encoding), depth + 1);
      default: return {};
    }
  }
  return {};
}

// A name with its scopes but without return type or parameters.
std::string qualified_name(const Node* n, int depth) {
  using namespace llvm::itanium_demangle;
  if (!n || depth > kMaxSteps) return {};
  if (n->getKind() == Node::KLocalName) {
    const auto* local = static_cast<const LocalName*>(n);
    return qualified_name(entity_of(local->Encoding), depth + 1) + "::" + print(local->Entity);
  }
  return print(n);
}

}  // namespace

struct ScopeDemangler::Impl {
  Parser parser{nullptr, nullptr};
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
  if (const Node* entity = entity_of(root)) out.context = context_of(entity, 0);
  if (want_text) out.text = print(root);
  return out;
}

std::string ScopeDemangler::demangle(std::string_view mangled) {
  SymbolScope s = analyse(mangled, true);
  return s.demangled ? s.text : std::string(mangled);
}

}  // namespace torchabi::binary
