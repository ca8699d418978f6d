"""Reads a Python build file (a setup.py, a module that calls
torch.utils.cpp_extension.load) without running it, with CPython's own parser,
and prints the arguments of the calls torchabi asks for as one JSON document.

torchabi's project mode (src/inputs/project/python_literals.cpp) embeds this
file and runs

    python -I -S -B read_python_build.py SOURCE OUT FILE_AS_NAMED DIR CALLEE...

SOURCE holds the text, OUT receives the JSON, FILE_AS_NAMED is the path it is reported under (and
the value of __file__), DIR is the directory globs and relative paths are
read in, CALLEE the last components of the calls wanted (CppExtension,
CUDAExtension; load, load_inline).

Nothing of the project is imported or executed: the text goes through
ast.parse only, and this file follows what a build file computes as far as it
is determined by the text and the project's files: literals, names bound to
them (also through if/else whose test it can decide, for loops over known
lists, functions that return what it can compute), list/dict/tuple
operations, + * % on numbers and strings, f-strings and str.format,
os.path and pathlib joins, glob over DIR. Anything else (an environment
variable, a call into torch, a condition on the machine) is an unresolved
value that carries its line and why, so that the caller can say what it could
not read instead of guessing.

Output in OUT (ensure_ascii JSON, one document):
  {"calls": [{"callee": "cpp_extension.CUDAExtension", "line": 12,
              "args": [V, ...], "kwargs": [["name", V], ...], "note": ""}],
   "given": ["CUDA is available (...)", ...]}
  {"error": {"line": 3, "message": "invalid syntax"}}
where V is {"k": "s"|"i"|"b"|"n"|"L"|"D"|"u", "l": line, ...}: "s" a string
(key "s"), "i" an integer ("i"), "b" a boolean ("b"), "n" None, "L" a list or
tuple ("items"), "D" a dict ("entries": [[K, V], ...]), "u" unresolved
("why"). Exit status 0 in both cases; 2 on bad usage.
"""

import ast
import fnmatch
import json
import os
import posixpath
import re
import sys
import warnings

MAX_ITERATIONS = 10000  # loop bodies followed per file
MAX_CALL_DEPTH = 8  # nested calls of the file's own functions
MAX_STEPS = 5000  # statements followed per file before the file's functions are no longer called
MAX_INT_BITS = 4096
MAX_SEQUENCE = 1 << 20


class Unresolved:
    """A value computed when the file runs."""

    def __init__(self, why, line):
        self.why = why
        self.line = line



class CalleeRef:
    """A name that stands for one of the wanted callees (an import alias,
    `Extension = CUDAExtension`)."""

    def __init__(self, dotted):
        self.dotted = dotted


    def __eq__(self, other):
        return isinstance(other, CalleeRef) and other.dotted == self.dotted

    __hash__ = object.__hash__


class CondCallee:
    """`A if test else B`, A and B wanted callees: which one is called is
    decided when the file runs."""

    def __init__(self, choices, test, line):
        self.choices = choices  # dotted names
        self.test = test
        self.line = line



class Function:
    def __init__(self, node, scope):
        self.node = node
        self.scope = scope  # the names it sees: its module's, or the enclosing function's (live, as a closure)



class Signal(Exception):
    pass


class Break(Signal):
    pass


class Continue(Signal):
    pass


class Return(Signal):
    def __init__(self, value):
        Signal.__init__(self)
        self.value = value


def too_wide(fmt):
    """A format whose width alone would make a huge string ('%0999999999d')."""
    return isinstance(fmt, str) and re.search(r"[0-9]{5,}", fmt) is not None


def first_unresolved(v):
    if isinstance(v, Unresolved):
        return v
    if isinstance(v, (list, tuple)):
        for i in v:
            u = first_unresolved(i)
            if u:
                return u
    if isinstance(v, dict):
        for k, i in v.items():
            u = first_unresolved(k) or first_unresolved(i)
            if u:
                return u
    return None


def plain(v):
    """A value Python itself can compute with: no unresolved part, no reference."""
    return first_unresolved(v) is None and not isinstance(v, (CalleeRef, CondCallee, Function))


def describe(node):
    try:
        text = ast.unparse(node)  # 3.9+
    except Exception:
        text = type(node).__name__
    return text if len(text) <= 60 else text[:57] + "..."


def dotted_name(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def constant_of(node):
    """(True, value) for a literal node of any Python version's AST."""
    if isinstance(node, ast.Constant):
        return True, node.value
    for name, attr in (("Str", "s"), ("Num", "n"), ("Bytes", "s"), ("NameConstant", "value")):
        cls = getattr(ast, name, None)
        if cls is not None and type(node) is cls:  # Python < 3.8
            return True, getattr(node, attr)
    return False, None


def glob_in(root, pattern, recursive):
    """The regular files matching `pattern` below `root`, as glob_files.cpp
    matches them (fnmatch per component, hidden names only when named, '**'
    any number of directories without following links); None outside root."""
    if not recursive:
        pattern = pattern.replace("**", "*")
    full = posixpath.normpath(pattern if pattern.startswith("/") else posixpath.join(root, pattern))
    rel = posixpath.relpath(full, root) if full.startswith("/") else full
    if rel == "." or rel.startswith(".."):
        return None
    parts = [p for p in rel.split("/") if p not in ("", ".")]
    out = set()

    def walk(d, i):
        if i == len(parts):
            return
        part, last = parts[i], i + 1 == len(parts)
        if part == "**":
            walk(d, i + 1)
            try:
                entries = sorted(os.listdir(d))
            except OSError:
                return
            for e in entries:
                p = os.path.join(d, e)
                if not e.startswith(".") and os.path.isdir(p) and not os.path.islink(p):
                    walk(p, i)
            return
        if not any(c in part for c in "*?["):
            p = os.path.join(d, part)
            if last and os.path.isfile(p):
                out.add(posixpath.normpath(p))
            elif not last and os.path.isdir(p):
                walk(p, i + 1)
            return
        try:
            entries = os.listdir(d)
        except OSError:
            return
        for e in entries:
            if e.startswith(".") and not part.startswith("."):
                continue
            if not fnmatch.fnmatchcase(e, part):
                continue
            p = os.path.join(d, e)
            if last and os.path.isfile(p):
                out.add(posixpath.normpath(p))
            elif not last and os.path.isdir(p):
                walk(p, i + 1)

    walk(root, 0)
    return sorted(out)


# What the file is read under: the machine torchabi's run of a setup.py
# emulates (record_setup.py): CUDA available, an environment cleared but for
# the CUDA variables. Each use is named in the output's "given" list.
CUDA_HOME = "/usr/local/cuda"
ENVIRONMENT = {"CUDA_HOME": CUDA_HOME, "CUDA_PATH": CUDA_HOME, "FORCE_CUDA": "1"}
GIVEN_CUDA = "CUDA is available (torch.cuda.is_available() is True, CUDA_HOME is %s)" % CUDA_HOME
GIVEN_ENVIRONMENT = "the environment has no variable but CUDA_HOME, CUDA_PATH and FORCE_CUDA=1"
GIVEN_LINUX = "the platform is Linux (sys.platform, os.name, platform.system())"
PLATFORM_NAMES = {"sys.platform": "linux", "os.name": "posix"}

PATH_TYPES = {"Path", "PurePath", "PosixPath", "PurePosixPath"}
PATH_MODULES = {"os.path", "path", "osp", "posixpath"}


class Reader:
    def __init__(self, file, root, callees):
        self.file = file
        self.root = root
        self.callees = set(callees)
        self.calls = []
        self.seen = set()  # call nodes recorded
        self.recorded = set()  # (call node, loop iterations it was recorded in)
        self.context = []  # the loop iterations being followed
        self.iterations = 0
        self.steps = 0
        self.depth = 0
        self.globals = {}
        self.functions = []  # defined, in order
        self.called = set()  # functions run at least once
        self.given = []  # what was assumed of the machine (GIVEN_*), in order
        self.returns = []  # per function being followed: values returned under a run-time condition

    # ---- values ----

    def assume(self, what):
        if what not in self.given:
            self.given.append(what)

    def abspath(self, p):
        return p if p.startswith("/") else posixpath.normpath(posixpath.join(self.root, p))

    def inside(self, p):
        a = self.abspath(p)
        return a == self.root or a.startswith(self.root.rstrip("/") + "/")

    def name(self, node, env):
        if node.id in env:
            return env[node.id]
        if node.id == "__file__":
            return self.file
        if node.id in ("True", "False", "None"):
            return {"True": True, "False": False, "None": None}[node.id]
        if node.id in self.callees:
            return CalleeRef(node.id)
        return Unresolved("'%s' is set at run time" % node.id, node.lineno)

    def ev(self, node, env):
        try:
            return self.ev_inner(node, env)
        except RecursionError:
            return Unresolved("an expression nested too deeply", getattr(node, "lineno", 0))

    def ev_inner(self, node, env):
        line = getattr(node, "lineno", 0)
        ok, c = constant_of(node)
        if ok:
            if isinstance(c, bool) or c is None or isinstance(c, (int, str)):
                return c
            if isinstance(c, float):
                return Unresolved("a floating-point number", line)
            return Unresolved("a %s literal" % type(c).__name__, line)
        if isinstance(node, ast.Name):
            return self.name(node, env)
        if isinstance(node, ast.JoinedStr):
            return self.fstring(node, env)
        if isinstance(node, ast.Attribute):
            return self.attribute(node, env)
        if isinstance(node, (ast.List, ast.Tuple)):
            items = []
            for e in node.elts:
                if isinstance(e, ast.Starred):
                    v = self.ev(e.value, env)
                    if isinstance(v, (list, tuple)):
                        items.extend(v)
                    else:
                        items.append(v if isinstance(v, Unresolved) else Unresolved("unpacking", line))
                else:
                    items.append(self.ev(e, env))
            return items
        if isinstance(node, ast.Dict):
            out = {}
            for k, v in zip(node.keys, node.values):
                if k is None:
                    spread = self.ev(v, env)
                    if isinstance(spread, dict):
                        out.update(spread)
                    else:
                        out[Unresolved("dict unpacking", line)] = spread
                    continue
                key = self.ev(k, env)
                if isinstance(key, list):
                    key = Unresolved("a key that is a tuple", line)
                out[key] = self.ev(v, env)
            return out
        if isinstance(node, ast.Set):
            return Unresolved("a set", line)
        if isinstance(node, ast.BinOp):
            return self.binop(node.op, self.ev(node.left, env), self.ev(node.right, env), line)
        if isinstance(node, ast.UnaryOp):
            v = self.ev(node.operand, env)
            if not plain(v):
                return v if isinstance(v, Unresolved) else Unresolved("a unary operator", line)
            return self.python(lambda: {ast.Not: lambda x: not x, ast.USub: lambda x: -x, ast.UAdd: lambda x: +x,
                                        ast.Invert: lambda x: ~x}[type(node.op)](v), line, "a unary operator")
        if isinstance(node, ast.BoolOp):
            return self.boolop(node, env)
        if isinstance(node, ast.Compare):
            return self.compare(node, env)
        if isinstance(node, ast.IfExp):
            return self.ifexp(node, env)
        if isinstance(node, ast.Subscript):
            return self.subscript(node, env)
        if isinstance(node, ast.Call):
            return self.call(node, env)
        if isinstance(node, ast.ListComp):
            return self.comprehension(node, env)
        if isinstance(node, (ast.GeneratorExp, ast.SetComp, ast.DictComp)):
            return Unresolved("a comprehension", line)
        if isinstance(node, ast.Lambda):
            return Unresolved("a lambda", line)
        if isinstance(node, getattr(ast, "NamedExpr", ())):
            v = self.ev(node.value, env)
            env[node.target.id] = v
            return v
        return Unresolved("%s (%s)" % (type(node).__name__, describe(node)), line)

    def python(self, compute, line, what):
        """`compute` run by Python itself on plain values; what it cannot do
        (TypeError, a result too large) is unresolved."""
        try:
            r = compute()
        except Exception as e:
            return Unresolved("%s: %s" % (what, type(e).__name__), line)
        if isinstance(r, int) and not isinstance(r, bool) and r.bit_length() > MAX_INT_BITS:
            return Unresolved("%s: an integer too large" % what, line)
        if isinstance(r, (str, list, tuple)) and len(r) > MAX_SEQUENCE:
            return Unresolved("%s: a value too large" % what, line)
        if isinstance(r, tuple):
            r = list(r)
        return r

    def binop(self, op, a, b, line):
        for v in (a, b):
            if isinstance(v, Unresolved):
                return v
        if not plain(a) or not plain(b):
            # Lists and dicts with unresolved entries still concatenate.
            if not (isinstance(a, (list, dict)) and isinstance(b, (list, dict, int))) and \
                    not (isinstance(a, int) and isinstance(b, list)):
                return Unresolved("an operator on a function or class", line)
        if isinstance(op, ast.Div) and isinstance(a, str) and isinstance(b, str):
            return posixpath.join(a, b)  # pathlib's '/': paths are read as their strings
        if isinstance(op, ast.Div):
            return Unresolved("'/' on these operands", line)  # floats are not followed
        if isinstance(op, (ast.Mult, ast.LShift, ast.Pow)):
            n = b if isinstance(b, int) else a if isinstance(a, int) else 0
            if isinstance(op, ast.Pow) and isinstance(b, int) and abs(b) > 1024:
                return Unresolved("'**' with a large exponent", line)
            if isinstance(op, ast.LShift) and isinstance(b, int) and b > MAX_INT_BITS:
                return Unresolved("'<<' by a large amount", line)
            if isinstance(op, ast.Mult) and isinstance(n, int) and not (isinstance(a, int) and isinstance(b, int)):
                size = len(a if not isinstance(a, int) else b)
                if n * max(size, 1) > MAX_SEQUENCE:
                    return Unresolved("a repetition too large", line)
        ops = {ast.Add: lambda x, y: x + y, ast.Sub: lambda x, y: x - y, ast.Mult: lambda x, y: x * y,
               ast.FloorDiv: lambda x, y: x // y, ast.Mod: lambda x, y: x % y, ast.Pow: lambda x, y: x ** y,
               ast.LShift: lambda x, y: x << y, ast.RShift: lambda x, y: x >> y, ast.BitOr: lambda x, y: x | y,
               ast.BitXor: lambda x, y: x ^ y, ast.BitAnd: lambda x, y: x & y}
        f = ops.get(type(op))
        if isinstance(op, ast.Mod) and too_wide(a):
            return Unresolved("a format too wide", line)
        if isinstance(op, ast.Mod) and isinstance(a, str) and isinstance(b, list):
            b = tuple(b)  # tuples are read as lists; '%' takes its values from a tuple
        if f is None:
            return Unresolved("the operator %s" % type(op).__name__, line)
        if isinstance(a, dict) or isinstance(b, dict):
            if not isinstance(op, ast.BitOr):
                return Unresolved("an operator on a dict", line)
        r = self.python(lambda: f(a, b), line, "'%s' on these operands" % type(op).__name__)
        if isinstance(r, float):
            return Unresolved("a floating-point number", line)
        return r

    def boolop(self, node, env):
        result = None
        for i, e in enumerate(node.values):
            v = self.ev(e, env)
            if not plain(v):
                return v if isinstance(v, Unresolved) else Unresolved("'and'/'or' on a function or class", node.lineno)
            result = v
            if isinstance(node.op, ast.And) and not v:
                return v
            if isinstance(node.op, ast.Or) and v:
                return v
        return result

    def compare(self, node, env):
        left = self.ev(node.left, env)
        ops = {ast.Eq: lambda x, y: x == y, ast.NotEq: lambda x, y: x != y, ast.Lt: lambda x, y: x < y,
               ast.LtE: lambda x, y: x <= y, ast.Gt: lambda x, y: x > y, ast.GtE: lambda x, y: x >= y,
               ast.Is: lambda x, y: x is y if x is None or y is None else x == y,
               ast.IsNot: lambda x, y: x is not y if x is None or y is None else x != y,
               ast.In: lambda x, y: x in y, ast.NotIn: lambda x, y: x not in y}
        for op, e in zip(node.ops, node.comparators):
            right = self.ev(e, env)
            for v in (left, right):
                if isinstance(v, Unresolved):
                    return v
                if not plain(v):
                    return Unresolved("a comparison with a function or class", node.lineno)
            r = self.python(lambda: ops[type(op)](left, right), node.lineno, "a comparison")
            if not isinstance(r, bool) or not r:
                return r
            left = right
        return True

    def ifexp(self, node, env):
        test = self.ev(node.test, env)
        if plain(test):
            return self.ev(node.body if test else node.orelse, env)
        a, b = self.ev(node.body, env), self.ev(node.orelse, env)
        refs = []
        for v in (a, b):
            if isinstance(v, CalleeRef):
                refs.append(v.dotted)
            elif isinstance(v, CondCallee):
                refs.extend(v.choices)
        if len(refs) >= 2 and all(isinstance(v, (CalleeRef, CondCallee)) for v in (a, b)):
            return CondCallee(refs, describe(node.test), node.lineno)
        return Unresolved("a conditional expression", node.lineno)

    def attribute(self, node, env):
        dotted = dotted_name(node)
        if dotted is not None:
            if dotted in env:
                return env[dotted]
            head = dotted.split(".")[0]
            if head not in env:  # a module attribute: os.sep, sys.platform, torch.version.cuda
                if node.attr in self.callees:
                    return CalleeRef(dotted)
                if dotted == "os.environ":
                    self.assume(GIVEN_ENVIRONMENT)
                    return dict(ENVIRONMENT)
                if dotted in PLATFORM_NAMES:
                    self.assume(GIVEN_LINUX)
                    return PLATFORM_NAMES[dotted]
                if node.attr == "CUDA_HOME" and "cpp_extension" in dotted:
                    self.assume(GIVEN_CUDA)
                    return CUDA_HOME
                if dotted in ("os.sep", "os.path.sep"):
                    return "/"
                if dotted in ("os.curdir", "os.path.curdir"):
                    return "."
                return Unresolved("'%s' is set at run time" % dotted, node.lineno)
        base = self.ev(node.value, env)
        if isinstance(base, Unresolved):
            return base
        if isinstance(base, str):
            if node.attr == "parent":
                return posixpath.dirname(base.rstrip("/")) or "."
            if node.attr == "name":
                return posixpath.basename(base)
            if node.attr == "stem":
                return posixpath.splitext(posixpath.basename(base))[0]
            if node.attr == "suffix":
                return posixpath.splitext(base)[1]
        return Unresolved("the attribute .%s" % node.attr, node.lineno)

    def subscript(self, node, env):
        base = self.ev(node.value, env)
        index_node = node.slice
        if type(index_node).__name__ == "Index":  # Python < 3.9
            index_node = index_node.value
        if isinstance(index_node, ast.Slice):
            parts = [self.ev(p, env) if p is not None else None for p in (index_node.lower, index_node.upper, index_node.step)]
            if not plain(base) or not all(plain(p) for p in parts):
                return first_unresolved([base] + parts) or Unresolved("a slice", node.lineno)
            return self.python(lambda: base[slice(*parts)], node.lineno, "a slice")
        index = self.ev(index_node, env)
        if isinstance(base, Unresolved):
            return base
        if isinstance(index, Unresolved):
            return index
        if isinstance(base, dict) and not isinstance(index, list):
            if index in base:
                return base[index]
            if dotted_name(node.value) == "os.environ":
                return Unresolved("the environment variable %s, not set when torchabi reads the file" % index,
                                  node.lineno)
            return Unresolved("a key the dict does not have", node.lineno)
        if isinstance(base, (list, str)) and isinstance(index, int):
            return self.python(lambda: base[index], node.lineno, "a subscript")
        return Unresolved("a subscript", node.lineno)

    def fstring(self, node, env):
        out = []
        for part in node.values:
            ok, c = constant_of(part)
            if ok:
                out.append(c)
                continue
            v = self.ev(part.value, env)
            if not plain(v):
                return v if isinstance(v, Unresolved) else Unresolved("an f-string field", node.lineno)
            spec = ""
            if part.format_spec is not None:
                spec = self.fstring(part.format_spec, env)
                if not isinstance(spec, str):
                    return spec
                if too_wide(spec):
                    return Unresolved("a format too wide", node.lineno)
            conv = {-1: lambda x: x, 115: str, 114: repr, 97: ascii}.get(part.conversion)
            if conv is None:
                return Unresolved("an f-string conversion", node.lineno)
            s = self.python(lambda: format(conv(v), spec), node.lineno, "an f-string field")
            if not isinstance(s, str):
                return s
            out.append(s)
        return "".join(out)

    def comprehension(self, node, env):
        line = node.lineno
        if len(node.generators) != 1:
            return Unresolved("a comprehension", line)
        g = node.generators[0]
        seq = self.ev(g.iter, env)
        if not isinstance(seq, (list, str)) or getattr(g, "is_async", 0):
            return Unresolved("a comprehension", line)
        out = []
        for item in seq:
            self.iterations += 1
            if self.iterations > MAX_ITERATIONS:
                return Unresolved("a comprehension over too many items", line)
            local = dict(env)
            self.bind(g.target, item, local, line)
            keep = True
            for cond in g.ifs:
                t = self.ev(cond, local)
                if not plain(t):
                    return Unresolved("a comprehension whose condition is decided at run time", line)
                keep = keep and bool(t)
            if keep:
                self.context.append((id(node), len(out)))
                try:
                    out.append(self.ev(node.elt, local))
                finally:
                    self.context.pop()
        return out

    # ---- calls ----

    def args_of(self, node, env, lines=False):
        """The positional and keyword arguments of a call; with `lines`, each
        as (value, line where it is written)."""
        args, kwargs = [], []
        for a in node.args:
            if isinstance(a, ast.Starred):
                v = self.ev(a.value, env)
                if isinstance(v, list):
                    args.extend((i, a.lineno) for i in v)
                else:
                    args.append((Unresolved("arguments unpacked with * or **", a.lineno), a.lineno))
            else:
                args.append((self.ev(a, env), a.lineno))
        for k in node.keywords:
            v = self.ev(k.value, env)
            if k.arg is None:
                if isinstance(v, dict) and all(isinstance(x, str) for x in v):
                    kwargs.extend((name, (i, k.value.lineno)) for name, i in v.items())
                else:
                    args.append((Unresolved("arguments unpacked with * or **", k.value.lineno), k.value.lineno))
            else:
                kwargs.append((k.arg, (v, k.value.lineno)))
        if lines:
            return args, kwargs
        return [v for v, _ in args], [(name, v) for name, (v, _) in kwargs]

    def record(self, node, callee, env, note=""):
        key = (id(node), tuple(self.context))
        if key in self.recorded:
            return
        self.recorded.add(key)
        self.seen.add(id(node))
        args, kwargs = self.args_of(node, env, lines=True)
        self.calls.append({"callee": callee, "line": node.lineno, "note": note,
                           "args": [value_json(v, l) for v, l in args],
                           "kwargs": [[k, value_json(v, l)] for k, (v, l) in kwargs]})

    def call(self, node, env):
        line = node.lineno
        dotted = dotted_name(node.func)
        head = dotted.split(".")[0] if dotted else None
        if dotted is None:
            func = self.ev(node.func, env)  # Path(x).glob(...), "".join(...), f()()
        elif isinstance(node.func, ast.Name):
            func = self.name(node.func, env)
        elif dotted in env:
            func = env[dotted]
        elif head in env or head == "__file__":
            func = None  # a method of a value of this file
        elif node.func.attr in self.callees:
            func = CalleeRef(dotted)  # torch.utils.cpp_extension.CUDAExtension
        else:
            func = None  # a function of a module: os.path.join, glob.glob
        if isinstance(func, CalleeRef):
            self.record(node, func.dotted, env)
            return Unresolved("what %s() returns" % func.dotted, line)
        if isinstance(func, CondCallee):
            chosen = next((c for c in func.choices if c.endswith("CUDAExtension")), func.choices[0])
            note = ""
            if len(set(func.choices)) > 1:
                note = ("the extension class is %s depending on %s (line %d): read as %s, the class a build on a "
                        "machine with CUDA takes" % (" or ".join(sorted(set(func.choices))), func.test, func.line,
                                                     chosen))
            self.record(node, chosen, env, note)
            return Unresolved("what %s() returns" % chosen, line)
        if isinstance(func, Function):
            return self.run_function(func, node, env)
        if isinstance(node.func, ast.Attribute) and (dotted is None or head in env or head == "__file__" or
                                                     dotted.startswith("os.environ.")):
            return self.method(node, env)
        if dotted is not None and head not in env and dotted.endswith("cuda.is_available"):
            self.assume(GIVEN_CUDA)
            return True
        if dotted == "platform.system" and head not in env and not node.args:
            self.assume(GIVEN_LINUX)
            return "Linux"
        if dotted is None and isinstance(func, Unresolved):
            return func
        args, kwargs = self.args_of(node, env)
        r = self.builtin(dotted or "", args, dict(kwargs), line)
        if r is not None:
            return r
        if dotted in ("os.getenv", "getenv") and args and isinstance(args[0], str):
            self.assume(GIVEN_ENVIRONMENT)
            return ENVIRONMENT.get(args[0], args[1] if len(args) > 1 else dict(kwargs).get("default"))
        for a in args + [v for _, v in kwargs]:
            if isinstance(a, Unresolved):
                return a
        return Unresolved("a call to %s()" % (dotted or "a computed function"), line)

    def builtin(self, callee, args, kwargs, line):
        strs = all(isinstance(a, str) for a in args)
        last = callee.rsplit(".", 1)[-1]
        module = callee.rsplit(".", 1)[0] if "." in callee else ""
        if (last in PATH_TYPES and module in ("", "pathlib")) and strs and not kwargs:
            return posixpath.join(*args) if args else "."
        if module in PATH_MODULES and strs and args:
            if last == "join":
                return posixpath.join(*args)
            if last == "relpath" and len(args) == 2:
                return posixpath.relpath(self.abspath(args[0]), self.abspath(args[1]))
            if len(args) == 1:
                p = args[0]
                simple = {"dirname": posixpath.dirname, "basename": posixpath.basename, "normpath": posixpath.normpath,
                          "relpath": lambda x: posixpath.relpath(self.abspath(x), self.root),
                          "abspath": self.abspath, "realpath": self.abspath,
                          "splitext": lambda x: list(posixpath.splitext(x))}
                if last in simple:
                    return simple[last](p)
                if last in ("exists", "isfile", "isdir"):
                    if not self.inside(p):
                        return Unresolved("whether %s exists outside the project" % p, line)
                    test = {"exists": os.path.exists, "isfile": os.path.isfile, "isdir": os.path.isdir}[last]
                    return test(self.abspath(p))
        if callee in ("glob.glob", "glob", "glob.iglob", "iglob") and args and isinstance(args[0], str):
            rec = kwargs.get("recursive", False)
            return self.glob(args[0], rec is True, line)
        if callee in ("sorted", "list", "tuple") and len(args) == 1 and isinstance(args[0], (list, str, dict)):
            items = list(args[0])
            if callee == "sorted" and plain(items):
                return self.python(lambda: sorted(items), line, "sorted()")
            return items
        if callee == "len" and len(args) == 1 and plain(args[0]) and isinstance(args[0], (list, str, dict)):
            return len(args[0])
        if callee in ("str", "int", "hex", "bool", "repr", "abs", "min", "max") and args and plain(args) and \
                plain(list(kwargs.values())):
            f = {"str": str, "int": int, "hex": hex, "bool": bool, "repr": repr, "abs": abs, "min": min,
                 "max": max}[callee]
            r = self.python(lambda: f(*args, **kwargs), line, "%s()" % callee)
            return Unresolved("a floating-point number", line) if isinstance(r, float) else r
        if callee == "dict" and not args and plain(list(kwargs.values())):
            return dict(kwargs)
        return None

    def glob(self, pattern, recursive, line):
        found = glob_in(self.root, pattern, recursive)
        if found is None:
            return Unresolved("a glob outside the project directory", line)
        if pattern.startswith("/"):
            return found
        return [posixpath.relpath(f, self.root) for f in found]

    def method(self, node, env):
        """`x.m(...)`: str and path methods, and the list/dict methods that
        change a value bound to a name (its binding changes too)."""
        line = node.lineno
        m = node.func.attr
        self_v = self.ev(node.func.value, env)
        args, kwargs = self.args_of(node, env)
        if isinstance(self_v, Unresolved):
            return self_v
        if isinstance(self_v, list):
            if m == "append" and len(args) == 1:
                self_v.append(args[0])
                return None
            if m == "extend" and len(args) == 1:
                if isinstance(args[0], (list, str)):
                    self_v.extend(args[0])
                else:
                    self_v.append(args[0] if isinstance(args[0], Unresolved) else Unresolved("extend()", line))
                return None
            if m == "insert" and len(args) == 2 and isinstance(args[0], int):
                self_v.insert(args[0], args[1])
                return None
            if m in ("remove", "index", "count") and len(args) == 1 and plain(args[0]):
                return self.python(lambda: getattr(self_v, m)(args[0]), line, "list.%s()" % m)
            if m == "copy" and not args:
                return list(self_v)
        if isinstance(self_v, dict):
            if m == "get" and 1 <= len(args) <= 2 and plain(args[0]):
                return self_v.get(args[0], args[1] if len(args) == 2 else None)
            if m == "update" and len(args) <= 1 and (not args or isinstance(args[0], dict)):
                if args:
                    self_v.update(args[0])
                self_v.update(kwargs)
                return None
            if m == "setdefault" and 1 <= len(args) <= 2 and plain(args[0]):
                return self_v.setdefault(args[0], args[1] if len(args) == 2 else None)
            if m in ("keys", "values", "items") and not args:
                return [list(i) if isinstance(i, tuple) else i for i in getattr(self_v, m)()]
            if m == "copy" and not args:
                return dict(self_v)
        if isinstance(self_v, str):
            if m in ("resolve", "absolute") and not args:
                return self.abspath(self_v)
            if m in ("as_posix", "__fspath__") and not args:
                return self_v
            if m == "joinpath" and all(isinstance(a, str) for a in args):
                return posixpath.join(self_v, *args)
            if m in ("glob", "rglob") and len(args) == 1 and isinstance(args[0], str):
                pattern = args[0] if m == "glob" else "**/" + args[0]
                found = glob_in(self.root, posixpath.join(self_v, pattern), True)
                if found is None:
                    return Unresolved("a glob outside the project directory", line)
                if self_v.startswith("/"):
                    return found
                return [posixpath.relpath(f, self.root) for f in found]
            if m in ("exists", "is_file", "is_dir") and not args:
                return self.builtin("os.path." + {"exists": "exists", "is_file": "isfile", "is_dir": "isdir"}[m],
                                    [self_v], {}, line)
            if m in ("join", "format", "replace", "strip", "lstrip", "rstrip", "split", "rsplit", "lower", "upper",
                     "startswith", "endswith", "splitlines", "with_suffix", "with_name", "relative_to") and \
                    plain(args) and plain([v for _, v in kwargs]):
                if m == "relative_to" and len(args) == 1 and isinstance(args[0], str):
                    base = args[0].rstrip("/") or "/"
                    if self_v == base or self_v.startswith(base + "/") or not base.startswith("/"):
                        return posixpath.relpath(self_v, base)
                    return Unresolved("relative_to() of a path not below it", line)
                if m == "with_suffix" and len(args) == 1:
                    return posixpath.splitext(self_v)[0] + args[0]
                if m == "format" and too_wide(self_v):
                    return Unresolved("a format too wide", line)
                if m == "with_name" and len(args) == 1:
                    return posixpath.join(posixpath.dirname(self_v), args[0])
                return self.python(lambda: getattr(self_v, m)(*args, **dict(kwargs)), line, "str.%s()" % m)
            if m in ("join", "format"):
                for a in args + [v for _, v in kwargs]:
                    u = first_unresolved(a)
                    if u:
                        return u
        return Unresolved("the method .%s()" % m, line)

    def run_function(self, fn, node, env):
        line = node.lineno
        f = fn.node
        if self.depth >= MAX_CALL_DEPTH:
            return Unresolved("a call to %s() nested too deeply" % f.name, line)
        if self.steps > MAX_STEPS:  # functions calling functions: what they return is not followed further
            return Unresolved("a call to %s() (the file does more than torchabi follows)" % f.name, line)
        self.called.add(id(f))
        args, kwargs = self.args_of(node, env)
        self.depth += 1
        try:
            return self.body_of(fn, args, dict(kwargs), line)
        except RecursionError:
            return Unresolved("a call to %s() nested too deeply" % f.name, line)
        finally:
            self.depth -= 1

    def body_of(self, fn, args, kwargs, line):
        """What function `fn` returns for these arguments (None: unknown ones
        are unresolved), its calls recorded on the way."""
        f = fn.node
        local = dict(fn.scope)
        params = [a.arg for a in getattr(f.args, "posonlyargs", []) + f.args.args]
        defaults = f.args.defaults
        unknown = args is None
        args = args or []
        kwargs = kwargs or {}
        for i, p in enumerate(params):
            d = len(params) - len(defaults)
            if unknown:  # line 0: reported at the line of the value that uses it
                local[p] = Unresolved("the parameter %s of %s(), which nothing here calls" % (p, f.name), 0)
            elif i < len(args):
                local[p] = args[i]
            elif p in kwargs:
                local[p] = kwargs[p]
            elif i >= d:
                local[p] = self.ev(defaults[i - d], fn.scope)
            else:
                local[p] = Unresolved("the argument %s of %s()" % (p, f.name), line)
        for a, default in zip(f.args.kwonlyargs, f.args.kw_defaults):
            if a.arg in kwargs and not unknown:
                local[a.arg] = kwargs[a.arg]
            elif default is not None and not unknown:
                local[a.arg] = self.ev(default, fn.scope)
            else:
                local[a.arg] = Unresolved("the argument %s of %s()" % (a.arg, f.name), line)
        if f.args.vararg:
            local[f.args.vararg.arg] = Unresolved("the arguments *%s of %s()" % (f.args.vararg.arg, f.name), line) \
                if unknown else args[len(params):]
        if f.args.kwarg:
            local[f.args.kwarg.arg] = Unresolved("the arguments **%s of %s()" % (f.args.kwarg.arg, f.name), line) \
                if unknown else {k: v for k, v in kwargs.items() if k not in params}
        self.returns.append([])
        try:
            self.block(f.body, local)
            value = None
        except Return as r:
            value = r.value
        except Signal:
            value = None
        finally:
            partial = self.returns.pop()
        # A return under a condition decided at run time: either value.
        return merge(partial + [value], f.lineno, "what %s() returns" % f.name) if partial else value

    # ---- statements ----

    def bind(self, target, value, env, line):
        if isinstance(target, ast.Name):
            env[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            names = target.elts
            if isinstance(value, (list, str)) and len(value) == len(names) and \
                    not any(isinstance(n, ast.Starred) for n in names):
                for n, v in zip(names, value):
                    self.bind(n, v, env, line)
            else:
                for n in names:
                    n = n.value if isinstance(n, ast.Starred) else n
                    for name in ast.walk(n):
                        if isinstance(name, ast.Name):
                            env[name.id] = Unresolved("'%s' is unpacked at run time" % name.id, line)
        elif isinstance(target, ast.Subscript):
            base = self.ev(target.value, env)
            index_node = target.slice
            if type(index_node).__name__ == "Index":
                index_node = index_node.value
            key = self.ev(index_node, env)
            if isinstance(base, dict) and plain(key) and not isinstance(key, list):
                base[key] = value
            elif isinstance(base, list) and isinstance(key, int) and -len(base) <= key < len(base):
                base[key] = value
            elif isinstance(base, dict):
                base[Unresolved("a key computed at run time", line)] = value
        elif isinstance(target, ast.Starred):
            self.bind(target.value, Unresolved("unpacking", line), env, line)
        # attributes (self.x = ...) are state of objects this reader does not follow

    def find_calls(self, node, env):
        """The wanted calls in the expressions of one statement (nested
        statements are walked by block())."""
        for child in ast.walk(node):
            if isinstance(child, ast.Call) and id(child) not in self.seen:
                dotted = dotted_name(child.func)
                target = dotted is not None and dotted.rsplit(".", 1)[-1] in self.callees
                if not target and isinstance(child.func, ast.Name) and child.func.id in env:
                    target = isinstance(env[child.func.id], (CalleeRef, CondCallee))
                if target:
                    self.ev(child, env)

    def expressions(self, stmt):
        """The expression children of a statement, not its nested bodies."""
        for field, value in ast.iter_fields(stmt):
            if field in ("body", "orelse", "finalbody", "handlers", "cases"):
                continue
            if isinstance(value, ast.AST):
                yield value
            elif isinstance(value, list):
                for v in value:
                    if isinstance(v, ast.AST) and not isinstance(v, ast.stmt):
                        yield v

    def block(self, stmts, env):
        for s in stmts:
            self.statement(s, env)

    def branches(self, alternatives, env, line):
        """Blocks of which one runs, which one decided at run time: each is
        read (its calls found) on a copy of `env`; a name bound to the same
        value by all is bound, one bound by only some takes the value they
        give (when it is used later, one of them ran), one bound differently
        keeps what they share (merge())."""
        results = []
        for stmts in alternatives:
            local = {k: clone(v) for k, v in env.items()}
            try:
                self.block(stmts, local)
            except Return as r:
                local[RETURN] = r.value
            except Signal:
                pass
            results.append(local)
        names = set()
        for r in results:
            names.update(r)
        returned = [r[RETURN] for r in results if RETURN in r]
        for n in names:
            if n == RETURN:
                continue
            values = [r.get(n, env.get(n, _MISSING)) for r in results]
            if all(same(v, env.get(n, _MISSING)) for v in values):
                continue
            env[n] = merge([v for v in values if v is not _MISSING], line, "'%s'" % n)
        if returned:
            if len(returned) == len(results):
                raise Return(merge(returned, line, "what the function returns"))
            if self.returns:  # some branches returned: the others go on
                self.returns[-1].extend(returned)

    def statement(self, s, env):
        line = getattr(s, "lineno", 0)
        self.steps += 1
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for d in s.decorator_list:
                self.find_calls(d, env)
            if isinstance(s, ast.ClassDef):
                self.block(s.body, dict(env))  # its methods are read at the end; the class itself is not followed
                env[s.name] = Unresolved("'%s' is a class" % s.name, line)
                return
            env[s.name] = Function(s, env)
            self.functions.append(env[s.name])  # read at the end if nothing calls it
            return
        if isinstance(s, ast.Assign):
            value = self.ev(s.value, env)
            for t in s.targets:
                self.bind(t, value, env, line)
            self.find_calls(s, env)
            return
        if isinstance(s, ast.AnnAssign):
            if s.value is not None:
                self.bind(s.target, self.ev(s.value, env), env, line)
                self.find_calls(s, env)
            return
        if isinstance(s, ast.AugAssign):
            self.augassign(s, env)
            self.find_calls(s, env)
            return
        if isinstance(s, (ast.Import, ast.ImportFrom)):
            for a in s.names:
                local = (a.asname or a.name).split(".")[0] if isinstance(s, ast.Import) else (a.asname or a.name)
                if isinstance(s, ast.ImportFrom) and a.name in self.callees:
                    # Under another name (load as jit): the qualified name, which
                    # says whose it is wherever it is called.
                    qualified = a.asname and a.asname != a.name and s.module and not s.level
                    env[local] = CalleeRef(s.module + "." + a.name if qualified else a.name)
                elif isinstance(s, ast.ImportFrom) and a.name == "CUDA_HOME" and "cpp_extension" in (s.module or ""):
                    self.assume(GIVEN_CUDA)
                    env[local] = CUDA_HOME
                elif local in env:
                    del env[local]  # now a module or an imported name: not a value of this file
            return
        if isinstance(s, ast.Expr):
            self.ev(s.value, env)
            self.find_calls(s, env)
            return
        if isinstance(s, ast.If):
            test = self.ev(s.test, env)
            self.find_calls(s.test, env)
            if plain(test):
                self.block(s.body if test else s.orelse, env)
            else:
                self.branches([s.body, s.orelse], env, line)
            return
        if isinstance(s, (ast.For, ast.AsyncFor)):
            self.loop(s, env)
            return
        if isinstance(s, ast.While):
            self.find_calls(s.test, env)
            self.branches([s.body + s.orelse, []], env, line)
            return
        if isinstance(s, (ast.With, ast.AsyncWith)):
            for item in s.items:
                self.find_calls(item.context_expr, env)
                if item.optional_vars is not None:
                    self.bind(item.optional_vars, Unresolved("what a with statement gives", line), env, line)
            self.block(s.body, env)
            return
        if isinstance(s, ast.Try) or type(s).__name__ == "TryStar":
            handlers = []
            for h in s.handlers:
                if h.name:
                    env[h.name] = Unresolved("the exception caught at line %d" % h.lineno, h.lineno)
                handlers.append(h.body)
            # The body runs; one of the handlers runs if it raises: which is
            # decided when the file runs, unless there is no handler.
            if handlers:
                self.branches([s.body + s.orelse] + handlers, env, line)
            else:
                self.block(s.body + s.orelse, env)
            self.block(s.finalbody, env)
            return
        if type(s).__name__ == "Match":
            self.find_calls(s.subject, env)
            self.branches([c.body for c in s.cases], env, line)
            return
        if isinstance(s, ast.Return):
            value = self.ev(s.value, env) if s.value is not None else None
            self.find_calls(s, env)
            raise Return(value)
        if isinstance(s, ast.Break):
            raise Break()
        if isinstance(s, ast.Continue):
            raise Continue()
        if isinstance(s, ast.Delete):
            for t in s.targets:
                if isinstance(t, ast.Name):
                    env.pop(t.id, None)
            return
        for e in self.expressions(s):  # raise, assert, global, ...
            self.find_calls(e, env)

    def read(self, tree):
        """The module top to bottom; then each function nothing called, with
        its arguments unknown, so that the calls in it are found too."""
        try:
            self.block(tree.body, self.globals)
        except (Signal, RecursionError):
            pass  # a return at module level is Python's error; what was read stands
        i = 0
        while i < len(self.functions):  # functions defined inside these are appended
            f = self.functions[i]
            i += 1
            if id(f.node) in self.called:
                continue
            try:
                self.body_of(f, None, None, f.node.lineno)
            except (Signal, RecursionError):
                pass
        self.calls.sort(key=lambda c: c["line"])

    def augassign(self, s, env):
        line = s.lineno
        if isinstance(s.target, ast.Name):
            current = self.name(s.target, env)
        elif isinstance(s.target, ast.Subscript):
            current = self.subscript(s.target, env)
        else:
            return
        value = self.ev(s.value, env)
        if isinstance(current, list) and isinstance(s.op, ast.Add) and not isinstance(current, Unresolved):
            if isinstance(value, (list, str)):
                current.extend(value)  # in place, as list += does
                result = current
            else:
                result = value if isinstance(value, Unresolved) else Unresolved("'+=' on these values", line)
        else:
            result = self.binop(s.op, current, value, line)
        self.bind(s.target, result, env, line)

    def loop(self, s, env):
        line = s.lineno
        seq = self.ev(s.iter, env)
        self.find_calls(s.iter, env)
        if isinstance(seq, dict):
            seq = list(seq)
        if isinstance(seq, (list, str)) and self.iterations + len(seq) <= MAX_ITERATIONS:
            self.iterations += len(seq)
            broke = False
            for i, item in enumerate(seq):
                self.bind(s.target, item, env, line)
                self.context.append((id(s), i))
                try:
                    self.block(s.body, env)
                except Break:
                    broke = True
                    break
                except Continue:
                    continue
                finally:
                    self.context.pop()
            if not broke:
                self.block(s.orelse, env)
            return
        why = seq if isinstance(seq, Unresolved) else Unresolved("the loop at line %d" % line, line)
        body_env = env
        self.bind(s.target, Unresolved("the loop variable of line %d (%s)" % (line, why.why), line), body_env, line)
        self.branches([s.body + s.orelse, []], env, line)


_MISSING = object()
RETURN = "\0return"  # where branches() keeps what a branch returned


def clone(v):
    """A copy of the lists and dicts in `v` (a branch must not change what
    the others see); everything else is immutable here."""
    if isinstance(v, list):
        return [clone(i) for i in v]
    if isinstance(v, dict):
        return {k: clone(i) for k, i in v.items()}
    return v


def merge(values, line, what):
    """One value for the values a name has after branches decided at run
    time: theirs when they agree; extension classes: either (CondCallee);
    lists: the entries they share, then an unresolved one; dicts: key by
    key; anything else unresolved."""
    distinct = []
    for v in values:
        if not any(same(v, d) for d in distinct):
            distinct.append(v)
    if len(distinct) == 1:
        return distinct[0]
    why = "%s depends on the condition at line %d" % (what, line)
    if all(isinstance(d, (CalleeRef, CondCallee)) for d in distinct):
        choices = []
        for d in distinct:
            choices.extend(d.choices if isinstance(d, CondCallee) else [d.dotted])
        return CondCallee(choices, "the condition", line)
    if all(isinstance(d, list) for d in distinct):
        shared = []
        for items in zip(*distinct):
            if not all(same(items[0], i) for i in items[1:]):
                break
            shared.append(items[0])
        return shared + [Unresolved(why, line)]
    if all(isinstance(d, dict) for d in distinct):
        out = {}
        for k in distinct[0]:
            if all(k in d for d in distinct):
                out[k] = merge([d[k] for d in distinct], line, what)
        if any(k not in out for d in distinct for k in d):
            out[Unresolved(why, line)] = Unresolved(why, line)
        return out
    return Unresolved(why, line)


def same(a, b):
    if a is b:
        return True
    if isinstance(a, Unresolved) or isinstance(b, Unresolved):
        return False
    if isinstance(a, CondCallee) or isinstance(b, CondCallee):
        return False
    if isinstance(a, Function) or isinstance(b, Function):
        return a is b
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return len(a) == len(b) and all(k in b and same(v, b[k]) for k, v in a.items())
    try:
        return bool(a == b)
    except Exception:
        return False


def text(s):
    """A string as JSON can carry it (lone surrogates of undecodable bytes replaced)."""
    return s.encode("utf-8", "replace").decode("utf-8")


def value_json(v, line):
    if isinstance(v, Unresolved):
        return {"k": "u", "why": text(v.why), "l": v.line or line}
    if isinstance(v, bool):
        return {"k": "b", "b": v, "l": line}
    if v is None:
        return {"k": "n", "l": line}
    if isinstance(v, int):
        if -(1 << 63) <= v < (1 << 63):
            return {"k": "i", "i": v, "l": line}
        return {"k": "u", "why": "an integer too large", "l": line}
    if isinstance(v, str):
        return {"k": "s", "s": text(v), "l": line}
    if isinstance(v, (list, tuple)):
        return {"k": "L", "items": [value_json(i, line) for i in v], "l": line}
    if isinstance(v, dict):
        return {"k": "D", "entries": [[value_json(k, line), value_json(i, line)] for k, i in v.items()], "l": line}
    if isinstance(v, (CalleeRef, CondCallee)):
        return {"k": "u", "why": "an extension class", "l": line}
    if isinstance(v, Function):
        return {"k": "u", "why": "the function %s" % v.node.name, "l": line}
    return {"k": "u", "why": "a value of type %s" % type(v).__name__, "l": line}


def main(argv):
    if len(argv) < 5:
        sys.stderr.write("usage: read_python_build.py SOURCE OUT FILE DIR CALLEE...\n")
        return 2
    source, out, file, root = argv[0], argv[1], argv[2], posixpath.normpath(argv[3])
    with open(out, "w") as f:
        return read(source, f, file, root, argv[4:])


def read(source, output, file, root, callees):
    with open(source, "rb") as f:
        data = f.read()
    version = "Python %d.%d.%d" % sys.version_info[:3]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes: SyntaxWarning, not our concern
            tree = ast.parse(data, filename=file)
    except SyntaxError as e:
        message = e.msg or "invalid syntax"
        output.write(json.dumps({"error": {"line": e.lineno or 0, "message": "%s (the syntax of %s, which read "
                                               "it; if the file is written for a newer Python, choose one with "
                                               "--python)" % (message, version)}}))
        return 0
    except (ValueError, MemoryError, RecursionError) as e:  # null bytes, nesting too deep for the parser
        output.write(json.dumps({"error": {"line": 0, "message": "%s cannot parse it (%s)" % (
            version, str(e) or type(e).__name__)}}))
        return 0
    r = Reader(file, root, callees)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4000))
    r.read(tree)
    output.write(json.dumps({"calls": r.calls, "given": r.given}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
