"""What a project's Python registers for its operators, read with CPython's
own parser: nothing here imports, compiles or runs the project's code (only
ast.parse), so it is safe outside the sandbox.

Usage: python3 -c "$(this file)" ROOT...
Prints one JSON object (see python_op_model.h for the fields):
fake kernels (register_fake, impl_abstract, Meta / CompositeImplicitAutograd
impls), autograd (register_autograd with its backward and setup_context),
kernels (register_kernel), ops defined from Python (define, custom_op), and
torch.ops.NS.OP references, each with the op's name resolved when it is a
literal or built from module-level string constants, and the registered
function's parameters.
"""
import ast
import json
import os
import sys

MAX_FILES = 20000
MAX_BYTES = 2 << 20
SKIP_DIRS = {"tests", "test", "testing", "build", "dist", "site-packages", "node_modules", "__pycache__",
             "venv", "env", "third_party", "3rdparty"}
KEYWORDS = ("library", "torch.ops", "register_fake", "impl_abstract", "custom_op", "register_autograd")

FAKE_APIS = {"register_fake", "impl_abstract", "register_abstract"}
FAKE_KEYS = {"meta", "compositeimplicitautograd"}


def skipped_dir(path, name):
    if name.startswith(".") or name in SKIP_DIRS or name.startswith("build") or name.startswith("cmake-build"):
        return True
    return os.path.exists(os.path.join(path, name, "pyvenv.cfg"))


# setup.py builds the package and is not part of it: a project whose only
# Python is its setup.py keeps its op registrations elsewhere.
def skipped_file(name):
    return name.startswith("test_") or name.endswith("_test.py") or name in ("conftest.py", "setup.py")


def python_files(roots):
    seen = set()
    for root in roots:
        if os.path.isfile(root):
            candidates = [root] if root.endswith(".py") else []
        else:
            candidates = []
            for here, dirs, files in os.walk(root):
                dirs[:] = sorted(d for d in dirs if not skipped_dir(here, d))
                candidates += [os.path.join(here, f) for f in sorted(files)
                               if f.endswith(".py") and not skipped_file(f)]
        for path in candidates:
            real = os.path.realpath(path)
            if real in seen:
                continue
            seen.add(real)
            yield path
            if len(seen) >= MAX_FILES:
                return


def text_of(node):
    try:
        return ast.unparse(node)
    except Exception:  # Python < 3.9
        return type(node).__name__


def dotted(node):
    """'torch.library.register_fake' for an attribute chain of names, else ''."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""


def torch_ops_name(node):
    """'ns::op' (or 'ns::op.overload') for torch.ops.ns.op[.overload], else None."""
    name = dotted(node)
    parts = name.split(".")
    if len(parts) >= 4 and parts[0] == "torch" and parts[1] == "ops":
        op = parts[2] + "::" + parts[3]
        if len(parts) == 5 and parts[4] != "default":
            op += "." + parts[4]
        return op if len(parts) <= 5 else None
    return None


class Module:
    def __init__(self, path, tree):
        self.path = path
        self.tree = tree
        self.consts = {}      # NAME -> str, module level
        self.imports = {}     # local name -> (module text, imported name)
        self.functions = {}   # module-level def name -> FunctionDef
        self.libraries = {}   # NAME -> namespace of torch.library.Library("ns", ...)
        self.custom_ops = {}  # function name -> op, for @custom_op-decorated functions


class Scanner:
    def __init__(self):
        self.modules = []
        self.unparsed = []  # files without a registration keyword
        self.out = {"files": 0, "registrations": [], "op_refs": [], "errors": []}

    # ---- constants -----------------------------------------------------------

    @staticmethod
    def import_candidates(module, source, level):
        """Paths `from SOURCE import ...` (with `level` leading dots) may name, best first."""
        if level > 0:
            base = os.path.dirname(module.path)
            for _ in range(level - 1):
                base = os.path.dirname(base)
            rel = source.replace(".", os.sep) if source else ""
            target = os.path.join(base, rel) if rel else base
            return [os.path.normpath(target + ".py"), os.path.normpath(os.path.join(target, "__init__.py"))]
        return []

    def imported_const(self, module, name, depth):
        if name not in module.imports or depth > 3:
            return None
        source, original, level = module.imports[name]
        candidates = self.import_candidates(module, source, level)
        stem = source.split(".")[-1] if source else ""
        for other in self.modules + self.lazy_modules(candidates, stem):
            path = os.path.normpath(other.path)
            base = os.path.basename(path)
            parent = os.path.basename(os.path.dirname(path))
            if candidates:
                if path not in candidates:
                    continue
            elif not stem or not (base == stem + ".py" or (base == "__init__.py" and parent == stem)):
                continue
            value = self.const(other, original, depth + 1)
            if value is not None:
                return value
        return None

    def lazy_modules(self, candidates, stem):
        """Modules without any registration keyword, parsed only when a constant is imported from them."""
        out = []
        for path in list(self.unparsed):
            base = os.path.basename(path)
            parent = os.path.basename(os.path.dirname(path))
            if (os.path.normpath(path) in candidates if candidates else
                    stem and (base == stem + ".py" or (base == "__init__.py" and parent == stem))):
                self.unparsed.remove(path)
                try:
                    with open(path, "rb") as f:
                        module = Module(path, ast.parse(f.read(), filename=path))
                except (OSError, SyntaxError, ValueError):
                    continue
                self.collect(module)
                self.modules.append(module)
                out.append(module)
        return out

    def const(self, module, name, depth=0):
        if name in module.consts:
            return module.consts[name]
        return self.imported_const(module, name, depth)

    def string(self, module, node, depth=0):
        """The value of a string expression built from literals and constants, or None."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name):
            return self.const(module, node.id, depth)
        if isinstance(node, ast.JoinedStr):
            out = ""
            for part in node.values:
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    out += part.value
                elif isinstance(part, ast.FormattedValue) and part.format_spec is None and part.conversion in (-1, 115):
                    value = self.string(module, part.value, depth)
                    if value is None:
                        return None
                    out += value
                else:
                    return None
            return out
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self.string(module, node.left, depth), self.string(module, node.right, depth)
            return None if left is None or right is None else left + right
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            fmt = self.string(module, node.left, depth)
            args = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
            values = [self.string(module, a, depth) for a in args]
            if fmt is None or None in values or fmt.count("%s") != len(values):
                return None
            return fmt % tuple(values)
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format"
                and not node.keywords):
            fmt = self.string(module, node.func.value, depth)
            values = [self.string(module, a, depth) for a in node.args]
            if fmt is None or None in values:
                return None
            try:
                return fmt.format(*values)
            except (IndexError, KeyError, ValueError):
                return None
        return None

    def op_name(self, module, node):
        """(resolved 'ns::op[.overload]' or '', the expression as written)."""
        written = text_of(node)
        op = torch_ops_name(node)
        if op is None and isinstance(node, ast.Name) and node.id in module.custom_ops:
            op = module.custom_ops[node.id]
        if op is None:
            op = self.string(module, node) or ""
        if op.endswith(".default"):
            op = op[: -len(".default")]
        return op, written

    # ---- functions -----------------------------------------------------------

    def function(self, module, node):
        if isinstance(node, ast.Name) and node.id in module.functions:
            node = module.functions[node.id]
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return None
        a = node.args
        params = []
        positional = list(getattr(a, "posonlyargs", [])) + list(a.args)
        defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
        for arg, default in zip(positional, defaults):
            params.append(self.param(arg, default, False))
        for arg, default in zip(a.kwonlyargs, a.kw_defaults):
            params.append(self.param(arg, default, True))
        fn = {
            "name": getattr(node, "name", "<lambda>"),
            "line": node.lineno,
            "col": node.col_offset + 1,
            "params": params,
            "varargs": a.vararg is not None,
            "varkw": a.kwarg is not None,
        }
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            fn["line"] = self.def_line(node)
            fn["returns"] = self.returned_tuples(node)
        return fn

    @staticmethod
    def def_line(node):
        # the `def` line, not its first decorator (3.8+ reports the def's line)
        return node.lineno

    @staticmethod
    def param(arg, default, keyword_only):
        p = {"name": arg.arg, "keyword_only": keyword_only}
        if default is not None:
            p["default"] = text_of(default)
        if arg.annotation is not None:
            p["annotation"] = text_of(arg.annotation)
        return p

    @staticmethod
    def returned_tuples(node):
        """Lengths of the tuples its own return statements return (-1: not a tuple literal)."""
        lengths = []
        stack = list(node.body)
        while stack:
            n = stack.pop()
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                continue
            if isinstance(n, ast.Return):
                lengths.append(len(n.value.elts) if isinstance(n.value, ast.Tuple) else -1)
            stack.extend(ast.iter_child_nodes(n))
        return lengths

    # ---- registrations -------------------------------------------------------

    def record(self, module, kind, api, node, op_node, op_override=None, **extra):
        op, written = self.op_name(module, op_node) if op_node is not None else ("", "")
        if op_override is not None:
            op = op_override
        entry = {"kind": kind, "api": api, "op": op, "op_text": written, "file": module.path,
                 "line": node.lineno, "col": node.col_offset + 1}
        entry.update({k: v for k, v in extra.items() if v is not None})
        self.out["registrations"].append(entry)
        return entry

    @staticmethod
    def arg(call, index, keyword):
        if index is not None and len(call.args) > index:
            return call.args[index]
        for k in call.keywords:
            if k.arg == keyword:
                return k.value
        return None

    def keys_of(self, module, node):
        if node is None:
            return ""
        if isinstance(node, (ast.List, ast.Tuple)):
            return ",".join(self.string(module, e) or "?" for e in node.elts)
        return self.string(module, node) or "?"

    def library_call(self, module, call, decorated):
        """A call of a torch.library API (or of one of its methods on a Library or custom op);
        `decorated`: the def it decorates."""
        callee = dotted(call.func)
        last = callee.split(".")[-1] if callee else ""
        owner = callee.rsplit(".", 1)[0] if "." in callee else ""
        if not last:
            return
        fn_arg = lambda i, kw="func": decorated if decorated is not None else self.arg(call, i, kw)  # noqa: E731
        # methods of a custom op object: @myop.register_fake, myop.register_autograd(...)
        if owner in module.custom_ops:
            op = module.custom_ops[owner]
            if last == "register_fake":
                self.record(module, "fake", callee, call, None, op, function=self.fn(module, fn_arg(0, "fn")))
            elif last == "register_autograd":
                self.record(module, "autograd", callee, call, None, op,
                            backward=self.fn(module, self.arg(call, 0, "backward")),
                            setup_context=self.fn(module, self.arg(call, None, "setup_context")))
            elif last == "register_kernel":
                self.record(module, "kernel", callee, call, None, op,
                            key=self.keys_of(module, self.arg(call, 0, "device_types")),
                            function=self.fn(module, fn_arg(1)))
            return
        if owner in module.libraries:  # lib.impl("op", fn, "Meta") / lib.define("op(...) -> ...")
            ns = module.libraries[owner]
            name = self.string(module, self.arg(call, 0, "op_name" if last == "impl" else "schema") or ast.Constant(None))
            if last == "impl":
                key = self.keys_of(module, self.arg(call, 2, "dispatch_key"))
                op = self.qualify(ns, name)
                self.record(module, "meta" if key.lower() in FAKE_KEYS else "kernel", callee, call, None, op,
                            key=key, function=self.fn(module, self.arg(call, 1, "fn")))
            elif last == "define" and name is not None:
                self.record(module, "define", callee, call, None, self.qualify(ns, name.split("(")[0]),
                            schema=name, namespace=ns)
            elif last == "_register_fake":
                self.record(module, "fake", callee, call, None, self.qualify(ns, name),
                            function=self.fn(module, self.arg(call, 1, "fn")))
            return
        if owner not in ("torch.library", "library", ""):
            return
        if last in FAKE_APIS:
            self.record(module, "fake", callee, call, self.arg(call, 0, "op"), function=self.fn(module, fn_arg(1)))
        elif last == "register_autograd":
            self.record(module, "autograd", callee, call, self.arg(call, 0, "op"),
                        backward=self.fn(module, self.arg(call, 1, "backward")),
                        setup_context=self.fn(module, self.arg(call, None, "setup_context")))
        elif last == "register_kernel":
            self.record(module, "kernel", callee, call, self.arg(call, 0, "op"),
                        key=self.keys_of(module, self.arg(call, 1, "device_types")), function=self.fn(module, fn_arg(2)))
        elif last == "impl":
            first = self.arg(call, 0, "qualname")
            if isinstance(first, ast.Name) and first.id in module.libraries:  # impl(lib, "op", "Meta")
                name = self.string(module, self.arg(call, 1, "name") or ast.Constant(None))
                key = self.keys_of(module, self.arg(call, 2, "dispatch_key"))
                op = self.qualify(module.libraries[first.id], name)
                self.record(module, "meta" if key.lower() in FAKE_KEYS else "kernel", callee, call, None, op,
                            key=key, function=self.fn(module, decorated))
            else:
                key = self.keys_of(module, self.arg(call, 1, "types"))
                self.record(module, "meta" if key.lower() in FAKE_KEYS else "kernel", callee, call, first,
                            key=key, function=self.fn(module, fn_arg(2)))
        elif last == "define":
            schema = self.string(module, self.arg(call, 0, "qualname") or ast.Constant(None))
            if schema is not None and "::" in schema.split("(")[0]:
                rest = self.string(module, self.arg(call, 1, "schema") or ast.Constant(None))
                full = schema + rest if rest is not None and "(" not in schema else schema
                self.record(module, "define", callee, call, None, schema.split("(")[0], schema=full)
        elif last == "custom_op" and decorated is not None:
            entry = self.record(module, "custom_op", callee, call, self.arg(call, 0, "name"),
                                function=self.fn(module, decorated))
            if entry["op"]:
                module.custom_ops[decorated.name] = entry["op"]

    @staticmethod
    def qualify(ns, name):
        if name is None or (not ns and "::" not in name):
            return ""
        return name if "::" in name else ns + "::" + name

    def fn(self, module, node):
        return None if node is None else self.function(module, node)

    # ---- module walk ---------------------------------------------------------

    def collect(self, module):
        for node in module.tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                name = node.targets[0].id
                value = self.string(module, node.value)
                if value is not None:
                    module.consts[name] = value
                lib = self.library_object(module, node.value)
                if lib is not None:
                    module.libraries[name] = lib
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
                value = self.string(module, node.value)
                if value is not None:
                    module.consts[node.target.id] = value
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                module.functions.setdefault(node.name, node)
            elif isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    module.imports[alias.asname or alias.name] = (node.module or "", alias.name, node.level or 0)

    def library_object(self, module, node):
        if isinstance(node, ast.Call) and dotted(node.func).split(".")[-1] == "Library" and node.args:
            return self.string(module, node.args[0]) or ""
        return None

    def visit(self, module):
        for node in ast.walk(module.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for dec in node.decorator_list:
                    if isinstance(dec, ast.Call):
                        self.library_call(module, dec, node)
                    elif dotted(dec):  # @myop.register_fake without arguments
                        call = ast.Call(func=dec, args=[], keywords=[])
                        ast.copy_location(call, dec)
                        self.library_call(module, call, node)
        decorators = set()
        for node in ast.walk(module.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                decorators.update(id(d) for d in node.decorator_list)
        for node in ast.walk(module.tree):
            if isinstance(node, ast.Call) and id(node) not in decorators:
                if isinstance(node.func, ast.Call) and id(node.func) not in decorators and node.args:
                    # register_fake("ns::op")(fn): the inner call decorates fn
                    target = node.args[0]
                    fn = module.functions.get(target.id) if isinstance(target, ast.Name) else target
                    if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                        decorators.add(id(node.func))
                        self.library_call(module, node.func, fn)
                        continue
                if isinstance(node.func, ast.Attribute) or isinstance(node.func, ast.Name):
                    self.library_call(module, node, None)
            if isinstance(node, ast.Attribute):
                op = torch_ops_name(node)
                if op and not isinstance(getattr(node, "_parent_attr", None), ast.Attribute):
                    self.out["op_refs"].append({"op": op, "file": module.path, "line": node.lineno})

    def run(self, roots):
        for path in python_files(roots):
            try:
                if os.path.getsize(path) > MAX_BYTES:
                    continue
                with open(path, "rb") as f:
                    data = f.read()
            except OSError:
                continue
            self.out["files"] += 1
            text = data.decode("utf-8", "replace")
            if not any(k in text for k in KEYWORDS):
                self.unparsed.append(path)
                continue
            try:
                tree = ast.parse(data, filename=path)
            except (SyntaxError, ValueError) as e:
                self.out["errors"].append({"file": path, "line": getattr(e, "lineno", 0) or 0, "message": str(e)})
                continue
            for parent in ast.walk(tree):
                for child in ast.iter_child_nodes(parent):
                    if isinstance(child, ast.Attribute):
                        child._parent_attr = parent
            self.modules.append(Module(path, tree))
        self.lazy = set(self.unparsed)
        for module in list(self.modules):
            self.collect(module)
        for module in list(self.modules):
            if module.path not in self.lazy:
                self.visit(module)
        # torch.ops.ns.op.overload is seen once per attribute level: keep the longest per place
        refs = {}
        for r in self.out["op_refs"]:
            refs.setdefault((r["file"], r["line"], r["op"].split(".")[0]), r)
        self.out["op_refs"] = list(refs.values())
        return self.out


if __name__ == "__main__":
    sys.stdout.write(json.dumps(Scanner().run(sys.argv[1:])))
    sys.stdout.write("\n")
