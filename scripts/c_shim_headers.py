"""Reads PyTorch's C shim headers the way the preprocessor and a C++ compiler
would, for scripts/build-rules.py: every function declared with C linkage and
every type they use, each with the preprocessor conditions around it.

What a declaration's conditions mean is worked out, not pattern-matched: the
#if/#ifdef/#elif/#else nesting is tracked exactly, every #if expression is
parsed as a C constant expression (TORCH_VERSION_X_Y_Z and friends expanded
from the tree's own version headers), and then evaluated for every value of
TORCH_FEATURE_VERSION that can make a difference. So `>=`, `<`, `#else`
branches and nested build-configuration guards (USE_CUDA, AT_MKLDNN_ENABLED())
all come out right, whatever their spelling.

Standard library only: the script runs wherever python3 does.
"""
import itertools
import pathlib
import re

# Headers that hold the C shim, relative to the include directory. Any header in
# these directories with an `extern "C"` block is read, so a new c_shim_<x>.h or
# c/shim_<x>.h in a future release is picked up without editing this list.
SHIM_GLOBS = [
    "torch/csrc/inductor/aoti_torch/c/*.h",
    "torch/csrc/inductor/aoti_torch/generated/c_shim_*.h",
    "torch/csrc/stable/c/*.h",
]
# Where TORCH_VERSION_X_Y_Z and TORCH_FEATURE_VERSION are defined.
VERSION_HEADERS = ["torch/headeronly/version.h", "torch/csrc/stable/version.h"]

# Macros that decorate a declaration without being part of its C prototype.
DECORATION = {"AOTI_TORCH_EXPORT", "extern", "inline", "static", "C10_API", "TORCH_API", "AOTI_API"}
# Words that are a type (or part of one) when they end a parameter: never a name.
TYPE_WORDS = {"void", "bool", "char", "short", "int", "long", "float", "double", "signed", "unsigned",
              "const", "volatile", "struct", "enum", "union", "size_t"}


class HeaderError(Exception):
    pass


# ---------------------------------------------------------------- lexing

def strip_comments(text):
    """Comments become spaces (newlines kept, so line numbers stay right);
    string and character literals are left intact."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                raise HeaderError("unterminated comment")
            out.append("".join("\n" if ch == "\n" else " " for ch in text[i:j + 2]))
            i = j + 2
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def logical_lines(text):
    """(line number, text) with backslash-newline continuations joined."""
    lines, buf, start = [], "", None
    for no, line in enumerate(strip_comments(text).split("\n"), 1):
        if start is None:
            start = no
        if line.endswith("\\"):
            buf += line[:-1] + " "
            continue
        lines.append((start, buf + line))
        buf, start = "", None
    if start is not None:
        lines.append((start, buf))
    return lines


TOKEN = re.compile(r"""\s*(?:
    (?P<str>"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')
  | (?P<num>\d[\w.]*)
  | (?P<id>[A-Za-z_]\w*)
  | (?P<op>::|&&|\|\||==|!=|>=|<=|<<|>>|->|\.\.\.|[()\[\]{};,<>*&=!~+\-/%^|?:.\#])
)""", re.X)


def tokens_of(text):
    out, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise HeaderError("cannot read '%s'" % text[pos:pos + 20])
        out.append(m.group(m.lastgroup))
        pos = m.end()
    return out


# ------------------------------------------------ #if expressions

class Expr:
    """A parsed #if expression. Leaves: ('num', n), ('ver',) for
    TORCH_FEATURE_VERSION, ('atom', name) for a build-configuration macro
    (USE_CUDA, AT_MKLDNN_ENABLED()) whose value the headers do not fix."""

    BINARY = [["||"], ["&&"], ["|"], ["^"], ["&"], ["==", "!="], ["<", ">", "<=", ">="], ["<<", ">>"],
              ["+", "-"], ["*", "/", "%"]]

    def __init__(self, toks, macros, where, expanding=()):
        self.toks, self.pos, self.macros, self.where = toks, 0, macros, where
        self.expanding = expanding  # macros being expanded: a macro never expands inside itself

    @classmethod
    def parse(cls, text, macros, where, expanding=()):
        p = cls(tokens_of(text), macros, where, expanding)
        node = p.conditional()
        if p.pos != len(p.toks):
            p.fail("unexpected '%s'" % p.toks[p.pos])
        return node

    def fail(self, msg):
        raise HeaderError("%s: #if %s: %s" % (self.where, " ".join(self.toks), msg))

    def peek(self):
        return self.toks[self.pos] if self.pos < len(self.toks) else None

    def take(self, want=None):
        t = self.peek()
        if t is None or (want is not None and t != want):
            self.fail("expected '%s'" % (want or "more"))
        self.pos += 1
        return t

    def conditional(self):
        c = self.binary(0)
        if self.peek() == "?":
            self.take()
            a = self.conditional()
            self.take(":")
            return ("?", c, a, self.conditional())
        return c

    def binary(self, level):
        if level == len(self.BINARY):
            return self.unary()
        node = self.binary(level + 1)
        while self.peek() in self.BINARY[level]:
            op = self.take()
            node = (op, node, self.binary(level + 1))
        return node

    def unary(self):
        t = self.take()
        if t in ("!", "~", "-", "+"):
            return ("u" + t, self.unary())
        if t == "(":
            node = self.conditional()
            self.take(")")
            return node
        if t[0].isdigit():
            m = re.fullmatch(r"(0[xX][0-9a-fA-F]+|\d+)[uUlL]*", t)
            if not m:
                self.fail("not an integer: " + t)
            return ("num", int(m.group(1), 0))
        if t == "defined":
            paren = self.peek() == "("
            if paren:
                self.take()
            name = self.take()
            if paren:
                self.take(")")
            return self.defined(name)
        if re.fullmatch(r"[A-Za-z_]\w*", t):
            if self.peek() == "(":  # a function-like macro: AT_MKLDNN_ENABLED()
                depth, args = 0, []
                while True:
                    a = self.take()
                    depth += a == "("
                    depth -= a == ")"
                    args.append(a)
                    if depth == 0:
                        break
                return ("atom", t + "".join(args))
            return self.identifier(t)
        self.fail("unexpected '%s'" % t)

    def defined(self, name):
        if name == "__cplusplus" or name in self.macros or name == "TORCH_FEATURE_VERSION":
            return ("num", 1)  # extensions are C++ and include the version headers
        return ("atom", name)

    def identifier(self, name):
        if name == "__cplusplus":
            return ("num", 201703)
        if name == "TORCH_FEATURE_VERSION":
            return ("ver",)
        if name in self.macros and name not in self.expanding:
            return Expr.parse(self.macros[name], self.macros, self.where, self.expanding + (name,))
        return ("atom", name)


def evaluate(node, ver, atoms):
    kind = node[0]
    if kind == "num":
        return node[1]
    if kind == "ver":
        return ver
    if kind == "atom":
        return atoms[node[1]]
    if kind == "?":
        return evaluate(node[2] if evaluate(node[1], ver, atoms) else node[3], ver, atoms)
    if kind.startswith("u"):
        v = evaluate(node[1], ver, atoms)
        return {"u!": lambda: int(not v), "u~": lambda: ~v, "u-": lambda: -v, "u+": lambda: v}[kind]()
    a = evaluate(node[1], ver, atoms)
    if kind == "&&":
        return int(bool(a) and bool(evaluate(node[2], ver, atoms)))
    if kind == "||":
        return int(bool(a) or bool(evaluate(node[2], ver, atoms)))
    b = evaluate(node[2], ver, atoms)
    ops = {"|": a | b, "^": a ^ b, "&": a & b, "==": int(a == b), "!=": int(a != b), "<": int(a < b),
           ">": int(a > b), "<=": int(a <= b), ">=": int(a >= b), "+": a + b, "-": a - b, "*": a * b}
    if kind in ops:
        return ops[kind]
    if kind in ("<<", ">>"):
        return a << b if kind == "<<" else a >> b
    if b == 0:
        raise HeaderError("division by zero in #if")
    return a // b if kind == "/" else a % b


def subnodes(node):
    yield node
    for child in node[1:]:
        if isinstance(child, tuple):
            yield from subnodes(child)


def leaves(node, kind):
    return (n for n in subnodes(node) if n[0] == kind)


def constants_compared_with_version(node):
    """The values TORCH_FEATURE_VERSION is compared with (after expansion)."""
    for n in subnodes(node):
        if n[0] in ("==", "!=", "<", ">", "<=", ">=") and ("ver",) in (n[1], n[2]):
            yield evaluate(n[2] if n[1] == ("ver",) else n[1], 0, _AllFalse())


class _AllFalse(dict):
    def __missing__(self, key):
        return 0


# ------------------------------------------------ conditions of a declaration

class Condition:
    """The conjunction of the #if branches a declaration sits in."""

    def __init__(self, terms):
        self.terms = tuple(terms)  # Expr trees, each must be non-zero

    def holds(self, ver, atoms):
        return all(evaluate(t, ver, atoms) for t in self.terms)

    def atoms(self):
        return sorted({a[1] for t in self.terms for a in leaves(t, "atom")})

    def versions_to_try(self):
        """0 (older than any versioned API), every constant compared with the
        version, and one past each (for `>` and `<=`)."""
        vals = {0}
        for t in self.terms:
            for c in constants_compared_with_version(t):
                if c > 0:
                    vals.update((c, c + 1))
        return sorted(vals)

    def analyse(self):
        """(first feature version at which the declaration is visible, the first
        later one at which it is hidden again or None, the build configurations
        it needs there as a list of (atom, value) alternatives' common part and
        a full description). None when no version and configuration reach it."""
        names = self.atoms()
        assignments = [dict(zip(names, bits)) for bits in itertools.product((1, 0), repeat=len(names))]
        since, until = None, None
        for v in self.versions_to_try():
            ok = [a for a in assignments if self.holds(v, a)]
            if since is None and ok:
                since, configs = v, ok
            elif since is not None and not ok:
                until = v
                break
        if since is None:
            return None
        return since, until, describe_configs(names, configs)


def describe_configs(names, configs):
    """The build configurations (atom -> 0/1 assignments) as one expression:
    "" for any, "A && !B" when they are exactly the ones fixing some atoms,
    otherwise a disjunction of them."""
    if len(configs) == 2 ** len(names):
        return ""
    fixed = [n for n in names if len({c[n] for c in configs}) == 1]
    lit = lambda n, v: n if v else "!" + n
    if len(configs) == 2 ** (len(names) - len(fixed)):
        return " && ".join(lit(n, configs[0][n]) for n in fixed)
    return " || ".join("(" + " && ".join(lit(n, c[n]) for n in names) + ")" for c in configs)


def version_of(value):
    return (value >> 56, (value >> 48) & 0xFF, (value >> 40) & 0xFF)


# ------------------------------------------------ the preprocessor walk

def read_macros(include_dir):
    """Object-like macros of the version headers, name -> replacement text.
    Both branches of an #ifdef are kept; TORCH_FEATURE_VERSION is handled as
    the variable it is and never expanded."""
    macros = {}
    for rel in VERSION_HEADERS:
        path = include_dir / rel
        if not path.is_file():
            continue
        for _, line in logical_lines(path.read_text(encoding="utf-8")):
            m = re.match(r"\s*#\s*define\s+([A-Za-z_]\w*)(?!\()\s*(.*)$", line)
            if m and m.group(1) != "TORCH_FEATURE_VERSION" and not m.group(2).lstrip().startswith('"'):
                macros.setdefault(m.group(1), m.group(2).strip() or "1")
    return macros


def walk(path, rel, macros):
    """Tokens of the header's code with the Condition in force at each."""
    lines = logical_lines(path.read_text(encoding="utf-8"))
    stack = []  # per open #if: {"prior": [exprs of earlier branches], "term": expr or None (always true)}
    tokens = []
    directives = [(i, re.match(r"\s*#\s*(\w*)\s*(.*)$", l)) for i, (_, l) in enumerate(lines)]

    def condition():
        terms = []
        for f in stack:
            terms += [("u!", p) for p in f["prior"]]
            if f["term"] is not None:
                terms.append(f["term"])
        return Condition(terms)

    cond = condition()
    for idx, (no, line) in enumerate(lines):
        where = "%s:%d" % (rel, no)
        m = directives[idx][1]
        if not m:
            for t in tokens_of(line):
                tokens.append((t, cond, where))
            continue
        word, rest = m.group(1), m.group(2).strip()
        if word in ("if", "ifdef", "ifndef"):
            if word == "if":
                term = Expr.parse(rest, macros, where)
            else:
                name = rest.split()[0]
                term = Expr(["defined", name], macros, where).defined(name)
                if word == "ifndef":
                    term = ("u!", term)
                    # An include guard: #ifndef X directly followed by #define X.
                    nxt = next((d for d in directives[idx + 1:] if d[1]), None)
                    if nxt and nxt[1].group(1) == "define" and nxt[1].group(2).split()[:1] == [name]:
                        term = None
            stack.append({"prior": [], "term": term})
        elif word in ("elif", "else"):
            if not stack:
                raise HeaderError(where + ": #%s without #if" % word)
            f = stack[-1]
            # An earlier branch that always holds (an include guard, #else) leaves none for this one.
            f["prior"] = f["prior"] + [f["term"] if f["term"] is not None else ("num", 1)]
            f["term"] = Expr.parse(rest, macros, where) if word == "elif" else None
        elif word == "endif":
            if not stack:
                raise HeaderError(where + ": #endif without #if")
            stack.pop()
        # #define, #include, #pragma, #error, #undef: nothing to declare.
        cond = condition()
    if stack:
        raise HeaderError(rel + ": unterminated #if")
    return tokens


# ------------------------------------------------ declarations

def matching(toks, i, open_, close):
    depth = 0
    for j in range(i, len(toks)):
        depth += toks[j] == open_
        depth -= toks[j] == close
        if depth == 0:
            return j
    raise HeaderError("unbalanced '%s'" % open_)


def strip_attributes(toks):
    out, i = [], 0
    while i < len(toks):
        if toks[i] == "[" and i + 1 < len(toks) and toks[i + 1] == "[":
            i = matching(toks, i, "[", "]") + 1
        elif toks[i] == "__attribute__":
            i = matching(toks, i + 1, "(", ")") + 1
        else:
            out.append(toks[i])
            i += 1
    return out


def render(toks):
    """Tokens of a type as the catalog spells it: "const int64_t * sizes",
    "c10::complex<float> *", "int64_t ** ret"."""
    out = ""
    for t in toks:
        if out:
            a = out[-1]
            glue = (t in (",", ")", "]", ">", "::", "<", "[") or out.endswith("::") or a in "(<[" or
                    (a == "*" and t in ("*", ")")) or (a == ")" and t == "("))
            if not glue:
                out += " "
        out += t
    return out


def split_commas(toks):
    parts, cur, depth = [], [], 0
    for t in toks:
        depth += t in ("(", "<", "[")
        depth -= t in (")", ">", "]")
        if t == "," and depth == 0:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    if cur:
        parts.append(cur)
    return parts


def is_identifier(t):
    return re.fullmatch(r"[A-Za-z_]\w*", t) is not None


def param_name(toks):
    """Index of the parameter's name in `toks`, or None when it is unnamed."""
    if len(toks) < 2 or not is_identifier(toks[-1]) or toks[-1] in TYPE_WORDS:
        return None
    before = [t for t in toks[:-1] if t not in ("const", "volatile", "struct", "enum", "union")]
    return len(toks) - 1 if before else None


def render_param(toks, keep_name=True):
    toks = [t for t in toks]
    if "=" in toks:  # a default argument is no part of the ABI
        toks = toks[:toks.index("=")]
    # A function pointer: R (*name)(A...) -> "R (*)(A...) name", its parameters unnamed.
    for k in range(len(toks) - 4):
        if toks[k] == "(" and toks[k + 1] == "*" and toks[k + 3] == ")" and toks[k + 4] == "(":
            close = matching(toks, k + 4, "(", ")")
            inner = [render_param(p, keep_name=False) for p in split_commas(toks[k + 5:close])]
            inner = [] if inner == ["void"] else inner
            text = render(toks[:k]) + " (*)(" + ", ".join(inner) + ")"
            return text + (" " + toks[k + 2] if keep_name else "")
    n = param_name(toks)
    if n is not None and not keep_name:
        toks = toks[:n]
    return render(toks)


class Declaration:
    def __init__(self, name, kind, header, where, condition, prototype="-", exported=False, split=False):
        self.name, self.kind, self.header, self.where = name, kind, header, where
        self.condition, self.prototype, self.exported = condition, prototype, exported
        # Part of the declaration lies in other #if branches than its name
        # (a parameter added under a guard): one prototype cannot say that.
        self.split = split


def declarations(tokens, rel):
    """Functions with C linkage and the types at file or extern "C" scope."""
    out, scopes, stmt, i = [], [], [], 0
    while i < len(tokens):
        t = tokens[i][0]
        if t == "{":
            head = [x[0] for x in stmt]
            if head == ["extern", '"C"']:
                scopes.append("C")
                stmt = []
            elif head[:1] == ["namespace"] or head[:2] == ["inline", "namespace"]:
                scopes.append("namespace")
                stmt = []
            else:  # a body: function, struct, enum, initialiser
                depth = 0
                while i < len(tokens):
                    depth += tokens[i][0] == "{"
                    depth -= tokens[i][0] == "}"
                    if depth == 0:
                        break
                    i += 1
                is_function = "(" in head and head[0] not in ("struct", "enum", "union", "class", "typedef")
                stmt = [] if is_function else stmt + [("{...}",) + tokens[i][1:]]
        elif t == "}":
            if scopes:
                scopes.pop()
            stmt = []
        elif t == ";":
            if stmt:
                d = declaration(stmt, scopes, rel)
                if d:
                    out.append(d)
            stmt = []
        else:
            stmt.append(tokens[i])
        i += 1
    return out


def declaration(stmt, scopes, rel):
    if "namespace" in scopes:
        return None  # C++ names: mangled, never part of the C shim
    toks = strip_attributes([s[0] for s in stmt])
    c_linkage = "C" in scopes
    if toks[:2] == ["extern", '"C"']:
        c_linkage, toks = True, toks[2:]
    if not toks or toks[0] in ("template", "static_assert") or toks[:2] == ["using", "namespace"]:
        return None
    first = stmt[0]
    # Types, each spelled as one canonical declaration ("struct X", "using X = T"):
    # struct X;  using X = T;  typedef T X;  typedef R (*X)(A...);
    if toks[0] == "using" and len(toks) > 3 and toks[2] == "=" and is_identifier(toks[1]):
        return Declaration(toks[1], "type", rel, first[2], first[1], "using %s = %s" % (toks[1], render(toks[3:])))
    if toks[0] == "typedef" and "{...}" not in toks:
        body = toks[1:]
        n = param_name(body)
        for k in range(len(body) - 3):
            if body[k] == "(" and body[k + 1] == "*" and is_identifier(body[k + 2]) and body[k + 3] == ")":
                n = k + 2
                break
        if n is None:
            return None
        return Declaration(body[n], "type", rel, first[2], first[1],
                           "using %s = %s" % (body[n], render_param(body, keep_name=False)))
    if toks[0] in ("struct", "union", "enum", "class") and len(toks) >= 2 and is_identifier(toks[1]) and \
            (len(toks) == 2 or toks[2] == "{...}"):
        return Declaration(toks[1], "type", rel, first[2], first[1], "%s %s" % (toks[0], toks[1]))
    # A function: the first '(' that follows an identifier.
    exported = "AOTI_TORCH_EXPORT" in toks
    for k, t in enumerate(toks):
        if t == "(":
            break
    else:
        return None  # a variable
    if k == 0 or not is_identifier(toks[k - 1]) or toks[k + 1:k + 2] == ["*"] or "=" in toks[:k]:
        return None  # a function pointer variable or an initialised object
    name = toks[k - 1]
    close = matching(toks, k, "(", ")")
    rest = toks[close + 1:]
    if rest and rest[:1] == ["="]:
        return None  # = delete / = default
    name_at = stmt[[s[0] for s in stmt].index(name)] if name in [s[0] for s in stmt] else first
    if not c_linkage:
        return Declaration(name, "cxx-function", rel, name_at[2], name_at[1], exported=exported)
    ret = render([x for x in toks[:k - 1] if x not in DECORATION and x != '"C"'])
    params = [render_param(p) for p in split_commas(toks[k + 1:close])]
    params = [] if params == ["void"] else params
    proto = "%s %s(%s)" % (ret, name, ", ".join(params))
    split = any(s[1].terms != name_at[1].terms for s in stmt)
    return Declaration(name, "function", rel, name_at[2], name_at[1], proto, exported, split)


def shim_headers(include_dir):
    seen = set()
    for pattern in SHIM_GLOBS:
        for path in sorted(include_dir.glob(pattern)):
            if path not in seen and re.search(r'extern\s+"C"', path.read_text(encoding="utf-8")):
                seen.add(path)
                yield path


def read_shim(include_dir):
    """Every declaration of the tree's C shim headers, in header order."""
    include_dir = pathlib.Path(include_dir)
    macros = read_macros(include_dir)
    if not any(k.startswith("TORCH_VERSION_") for k in macros):
        raise HeaderError("%s: no TORCH_VERSION_* macros in %s" % (include_dir, ", ".join(VERSION_HEADERS)))
    out = []
    for path in shim_headers(include_dir):
        rel = path.relative_to(include_dir).as_posix()
        try:
            out += declarations(walk(path, rel, macros), rel)
        except HeaderError as e:
            raise HeaderError("%s: %s" % (rel, e)) from None
    return out


def torch_release(include_dir):
    """(major, minor, patch) of the tree, from torch/headeronly/version.h."""
    text = (pathlib.Path(include_dir) / "torch/headeronly/version.h").read_text(encoding="utf-8")
    parts = [re.search(r"#\s*define\s+TORCH_VERSION_%s\s+(\d+)" % p, text) for p in ("MAJOR", "MINOR", "PATCH")]
    if not all(parts):
        raise HeaderError("torch/headeronly/version.h: no TORCH_VERSION_MAJOR/MINOR/PATCH")
    return tuple(int(p.group(1)) for p in parts)
