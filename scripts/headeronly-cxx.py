#!/usr/bin/env python3
"""Regenerates rules/api/headeronly_cxx.tsv: the C++ entities PyTorch's
header-only headers (torch/headeronly/**) define outside the namespaces that
are stable by name (torch::headeronly, torch::stable).

  scripts/headeronly-cxx.py [--torch-include DIR] [-o OUT]

Why: stable vs unstable is decided by where a declaration lives, not by how
its namespace is spelled. torch/headeronly defines c10::ScalarType,
c10::toString(ScalarType), c10::Half, c10::BFloat16, ... in namespace c10,
next to c10 code that is not header-only (c10::toString(Backend) is declared
in c10/core/Backend.h). `torchabi audit` sees only mangled names: it needs to
know which c10:: symbols are header-only (a weak copy an extension exports
is not a leak of unstable code, an import is not an unstable import), and
`lint` needs the names when the AST is incomplete.

How: clang++-19 parses one translation unit including every header of
torch/headeronly that compiles on its own on this host, and dumps its AST as
JSON (-ast-dump=json, filtered to each namespace root of
rules/api/namespaces.yaml). Every declaration located in torch/headeronly is
kept: functions and variables with their mangled name (exact for overloads),
class and enum definitions, function templates, enumerators and aliases by
qualified name.

Columns: name, kind (function, function-template, variable, type,
enumerator, alias, using-namespace), header (include-relative), mangled
(functions and variables; the nominated namespace of a using-namespace row,
whose name is the namespace holding the directive: `namespace at { using
namespace c10; }` makes every header-only c10:: name reachable as at::;
"-" otherwise). The output is committed: torchabi needs neither
clang nor the headers at run time.
"""
import argparse
import json
import pathlib
import re
import subprocess
import sys
import tempfile

root = pathlib.Path(__file__).resolve().parent.parent
CLANG = "clang++-19"


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--torch-include", default=str(root / "build/torch-sid/root/usr/include"),
                    help="a PyTorch include directory (default: %(default)s)")
    ap.add_argument("-o", "--output", default=str(root / "rules/api/headeronly_cxx.tsv"))
    return ap.parse_args()


def namespace_roots():
    """The unstable namespace roots of rules/api/namespaces.yaml, and the stable prefixes."""
    text = (root / "rules/api/namespaces.yaml").read_text()
    section, unstable, stable = None, [], []
    for line in text.splitlines():
        if re.match(r"^stable:", line):
            section = stable
        elif re.match(r"^unstable:", line):
            section = unstable
        m = re.match(r"^\s*-\s*name:\s*(\S+)", line)
        if m and section is not None:
            section.append(m.group(1).strip("'\""))
    return unstable, stable


def compiles_alone(include, header):
    with tempfile.NamedTemporaryFile("w", suffix=".cpp") as f:
        f.write(f"#include <{header}>\n")
        f.flush()
        r = subprocess.run([CLANG, "-std=c++17", "-fsyntax-only", "-I", include, f.name],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return r.returncode == 0


def json_values(text):
    """The JSON values clang prints one after another (one per filtered declaration)."""
    dec = json.JSONDecoder()
    i = 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return
        value, i = dec.raw_decode(text, i)
        yield value


class Walker:
    """Walks one dumped declaration. Clang writes a location's file only when it
    differs from the previous location printed, so the file is tracked in
    document order."""

    def __init__(self, include, stable_prefixes, rows, namespaces, directives):
        self.include = include.rstrip("/") + "/"
        self.stable = stable_prefixes
        self.rows = rows
        self.namespaces = namespaces  # qualified names of every namespace seen
        self.directives = directives  # (scope, namespace as written, header), resolved once every namespace is known
        self.file = None

    def loc(self, loc):
        if not loc:
            return self.file
        if "spellingLoc" in loc or "expansionLoc" in loc:
            self.loc(loc.get("spellingLoc"))
            return self.loc(loc.get("expansionLoc"))
        if "file" in loc:
            self.file = loc["file"]
        return self.file

    def header_of(self, path):
        if not path:
            return None
        path = str(pathlib.Path(path).resolve())
        if not path.startswith(self.include):
            return None
        rel = path[len(self.include):]
        return rel if rel.startswith("torch/headeronly/") else None

    def add(self, name, kind, header, mangled="-"):
        if any(name == p or name.startswith(p + "::") for p in self.stable):
            return
        self.rows.add((name, kind, header, mangled))

    def walk(self, node, scope):
        file = self.loc(node.get("loc"))
        rng = node.get("range", {})
        self.loc(rng.get("begin"))
        self.loc(rng.get("end"))
        kind, name, inner = node.get("kind"), node.get("name"), node.get("inner", [])
        if kind == "NamespaceDecl":
            self.namespaces.add("::".join(scope + [name or "(anonymous namespace)"]))
            for c in inner:
                self.walk(c, scope + [name or "(anonymous namespace)"])
            return
        if kind == "LinkageSpecDecl":
            for c in inner:
                self.walk(c, scope)
            return
        header = self.header_of(file)
        if kind == "UsingDirectiveDecl" and header and scope:
            # Declaration ids differ between clang runs (one per namespace root), so
            # the nominated namespace is read as written: `using namespace c10::cuda;`.
            begin, end = rng.get("begin", {}), rng.get("end", {})
            if "offset" in begin and "offset" in end:
                text = pathlib.Path(file).read_bytes()[begin["offset"]:end["offset"] + end.get("tokLen", 0)].decode()
                m = re.fullmatch(r"using\s+namespace\s+((?:::)?[\w:]+)", text.strip())
                if m:
                    self.directives.append((scope, m.group(1), header))
            return
        if not header or node.get("isImplicit") or not name:
            return self.skip_children(node)
        qualified = "::".join(scope + [name])
        if kind == "FunctionDecl":
            defined = node.get("inline") or node.get("constexpr") or \
                any(c.get("kind") == "CompoundStmt" for c in inner)
            if defined and node.get("mangledName"):
                self.add(qualified, "function", header, node["mangledName"])
        elif kind == "FunctionTemplateDecl":
            self.add(qualified, "function-template", header)
        elif kind == "VarDecl":
            if node.get("mangledName"):
                self.add(qualified, "variable", header, node["mangledName"])
        elif kind in ("TypeAliasDecl", "TypedefDecl", "TypeAliasTemplateDecl"):
            self.add(qualified, "alias", header)
        elif kind == "EnumDecl":
            constants = [c["name"] for c in inner if c.get("kind") == "EnumConstantDecl"]
            if constants:
                self.add(qualified, "type", header)
            for c in constants:
                self.add(qualified + "::" + c, "enumerator", header)
                if not node.get("scopedEnumTag"):
                    self.add("::".join(scope + [c]), "enumerator", header)
        elif kind == "ClassTemplateDecl":
            # The templated class and its specializations, under the same name.
            for c in inner:
                self.walk(c, scope)
            return
        elif kind in ("CXXRecordDecl", "ClassTemplateSpecializationDecl", "ClassTemplatePartialSpecializationDecl"):
            if node.get("completeDefinition"):
                self.add(qualified, "type", header)
            # Members are matched through their class; nested types and aliases are recorded.
            for c in inner:
                if c.get("kind") in ("CXXRecordDecl", "ClassTemplateDecl", "EnumDecl", "TypeAliasDecl",
                                     "TypedefDecl") and c.get("name") != name:
                    self.walk(c, scope + [name])
                else:
                    self.skip(c)
            return
        self.skip_children(node)

    def skip_children(self, node):
        for c in node.get("inner", []):
            self.skip(c)

    def skip(self, node):
        """Keeps the file tracking right through a subtree that is not recorded."""
        self.loc(node.get("loc"))
        rng = node.get("range", {})
        self.loc(rng.get("begin"))
        self.loc(rng.get("end"))
        for c in node.get("inner", []):
            self.skip(c)


def main():
    a = parse_args()
    include = str(pathlib.Path(a.torch_include).resolve())
    headeronly = pathlib.Path(include) / "torch/headeronly"
    if not headeronly.is_dir():
        sys.exit(f"{include}: no torch/headeronly directory (run scripts/fetch-torch.sh)")
    headers = sorted(str(p.relative_to(include)) for p in headeronly.rglob("*.h"))
    usable = [h for h in headers if compiles_alone(include, h)]
    for h in sorted(set(headers) - set(usable)):
        print(f"skipped (does not compile alone on this host): {h}", file=sys.stderr)
    unstable, stable = namespace_roots()
    rows, namespaces, directives = set(), set(), []
    with tempfile.NamedTemporaryFile("w", suffix=".cpp") as tu:
        tu.write("".join(f"#include <{h}>\n" for h in usable))
        tu.flush()
        for ns in unstable:
            out = subprocess.run([CLANG, "-std=c++17", "-fsyntax-only", "-I", include, "-Xclang", "-ast-dump=json",
                                  "-Xclang", f"-ast-dump-filter={ns}", tu.name],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, check=True).stdout
            for value in json_values(out):
                # The filter is a substring match; only the namespace itself is walked.
                if value.get("kind") != "NamespaceDecl" or value.get("name") != ns:
                    continue
                Walker(include, stable, rows, namespaces, directives).walk(value, [])
    for scope, written, header in directives:
        # Name lookup of the written name from the directive's scope outwards.
        candidates = [written[2:]] if written.startswith("::") else \
            ["::".join(scope[:k] + [written]) for k in range(len(scope), -1, -1)]
        target = next((c for c in candidates if c in namespaces), None)
        if target:
            rows.add(("::".join(scope), "using-namespace", header, target))
    version = ""
    vh = pathlib.Path(include) / "torch/headeronly/version.h"
    parts = [re.search(rf"#define\s+TORCH_VERSION_{p}\s+(\d+)", vh.read_text()) if vh.exists() else None
             for p in ("MAJOR", "MINOR", "PATCH")]
    if all(parts):
        version = " (PyTorch " + ".".join(m.group(1) for m in parts) + ")"
    shown = pathlib.Path(a.torch_include).resolve()
    shown = shown.relative_to(root) if shown.is_relative_to(root) else shown
    with open(a.output, "w") as f:
        f.write("# C++ entities defined in torch/headeronly/** outside torch::headeronly and torch::stable\n")
        f.write(f"# Generated by scripts/headeronly-cxx.py from {shown}{version}; do not edit.\n")
        f.write("name\tkind\theader\tmangled\n")
        for r in sorted(rows):
            f.write("\t".join(r) + "\n")
    kinds = {}
    for r in rows:
        kinds[r[1]] = kinds.get(r[1], 0) + 1
    print(f"{a.output}: {len(rows)} entities from {len(usable)} headers: " +
          ", ".join(f"{v} {k}" for k, v in sorted(kinds.items())), file=sys.stderr)


if __name__ == "__main__":
    main()
