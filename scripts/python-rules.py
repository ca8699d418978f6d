#!/usr/bin/env python3
"""Writes rules/python/stable_abi.tsv and platform_policies.tsv from CPython's
and auditwheel's own files (see build-python-rules.sh, which fetches them).

stable_abi.tsv: one row per stable-ABI symbol (function or data) with the
range of CPython releases it joined in: added_min == added_max when the
documentation says ("Part of the Stable ABI since version 3.10", or no version:
the original 3.2 set); otherwise bounded by the oldest test_stable_abi_ctypes.py
that lists it and the newest that does not. `platform` names the feature
macro the symbol needs (MS_WINDOWS, HAVE_FORK, ...), empty for every build.
"""
import argparse
import ast
import glob
import html
import json
import re
import sys

ORIGINAL = (3, 2)  # the first release with a stable ABI (PEP 384)


def vtuple(s):
    return tuple(int(x) for x in s.split("."))


def vstr(t):
    return ".".join(str(x) for x in t)


def read_symbol_lists(path):
    """{name: feature macro or ''} from a generated test_stable_abi_ctypes.py."""
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    names = {}

    def strings(node):
        return [e.value for e in getattr(node, "elts", []) if isinstance(e, ast.Constant) and isinstance(e.value, str)]

    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "SYMBOL_NAMES" for t in node.targets):
            for n in strings(node.value):
                names[n] = ""
        elif isinstance(node, ast.If):
            # if feature_macros['MS_WINDOWS']: SYMBOL_NAMES += (...)
            test = node.test
            if not (isinstance(test, ast.Subscript) and isinstance(test.slice, ast.Constant)):
                continue
            macro = test.slice.value
            for stmt in node.body:
                if isinstance(stmt, ast.AugAssign) and getattr(stmt.target, "id", "") == "SYMBOL_NAMES":
                    for n in strings(stmt.value):
                        names.setdefault(n, macro)
    if not names:
        sys.exit(f"torchabi: {path}: no SYMBOL_NAMES (has CPython changed how it generates this test?)")
    return names


def read_doc_versions(docs):
    """{name: (major, minor)} from the "Part of the Stable ABI" notes of the C API pages."""
    out = {}
    entry = re.compile(r'<dt class="sig sig-object c" id="c\.([A-Za-z_][A-Za-z0-9_]*)">')
    for page in sorted(glob.glob(f"{docs}/*.html")):
        text = open(page, encoding="utf-8").read()
        parts = entry.split(text)
        for name, body in zip(parts[1::2], parts[2::2]):
            body = body.split("</dd>", 1)[0]
            note = re.search(r'<em class="stableabi">(.*?)</em>', body, re.S)
            if not note:
                continue
            words = html.unescape(re.sub(r"<[^>]+>", "", note.group(1)))
            if "Stable ABI" not in words:
                continue  # "Part of the Limited API" only: a macro or struct, no symbol
            since = re.search(r"since version (3\.\d+)", words)
            out[name] = vtuple(since.group(1)) if since else ORIGINAL
    if not out:
        sys.exit(f"torchabi: {docs}: no stable ABI notes found")
    return out


def stable_abi_rows(lists, docs):
    versions = sorted(lists)
    newest = lists[versions[-1]]
    rows = []
    for name in sorted(newest):
        listed = [v for v in versions if name in lists[v]]
        first = listed[0]
        before = [v for v in versions if v < first]
        lo = (before[-1][0], before[-1][1] + 1) if before else ORIGINAL
        hi = first
        if name in docs:
            # The documentation is CPython's own statement. An older test may
            # leave a symbol out (PyModule_Create2 is missing from 3.11's), so
            # only a note after the first listing is doubtful.
            d = docs[name]
            if d <= hi:
                lo = hi = d
            else:
                print(f"torchabi: {name}: documented since {vstr(d)}, but listed from {vstr(first)}:"
                      f" keeping the listed range", file=sys.stderr)
        rows.append((name, vstr(lo), vstr(hi), newest[name]))
    return rows


def numeric(v):
    return re.fullmatch(r"\d+(\.\d+)*", v) is not None


def policy_rows(policies):
    rows = []
    for fname in ("manylinux-policy.json", "musllinux-policy.json"):
        for p in json.load(open(f"{policies}/{fname}", encoding="utf-8")):
            if p["name"] == "linux":
                continue
            aliases = ",".join(p.get("aliases", []))
            for arch, namespaces in sorted(p["symbol_versions"].items()):
                if not namespaces:
                    rows.append((p["name"], aliases, arch, "-", "-", ""))
                for ns, vs in sorted(namespaces.items()):
                    nums = [v for v in vs if numeric(v)]
                    top = max(nums, key=vtuple) if nums else "-"
                    extras = ",".join(sorted(v for v in vs if not numeric(v)))
                    rows.append((p["name"], aliases, arch, ns, top, extras))
    return rows


def write_tsv(path, header_lines, columns, rows):
    with open(path, "w", encoding="utf-8") as f:
        for line in header_lines:
            f.write(f"# {line}\n")
        f.write("\t".join(columns) + "\n")
        for r in rows:
            f.write("\t".join(r) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--packages", required=True)
    ap.add_argument("--docs", required=True)
    ap.add_argument("--policies", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("testsuites", nargs="+", help="VERSION=path/to/test_stable_abi_ctypes.py")
    a = ap.parse_args()
    lists = {}
    for arg in a.testsuites:
        ver, path = arg.split("=", 1)
        lists[vtuple(ver)] = read_symbol_lists(path)
    packages = [l.strip() for l in open(a.packages, encoding="utf-8") if l.strip()]
    source = "Generated by scripts/build-python-rules.sh from Debian's " + ", ".join(packages)
    write_tsv(f"{a.out}/stable_abi.tsv",
              [source, "CPython's stable ABI: each symbol and the releases it may have joined in",
               "(added_min == added_max: documented; a range: bounded by the CPython releases listing it)."],
              ("symbol", "added_min", "added_max", "platform"), stable_abi_rows(lists, read_doc_versions(a.docs)))
    write_tsv(f"{a.out}/platform_policies.tsv",
              [source, "The highest symbol version of each namespace a manylinux/musllinux policy allows",
               "(extras: non-numeric versions also allowed; '-': the policy allows none)."],
              ("policy", "aliases", "arch", "namespace", "max", "extras"), policy_rows(a.policies))


if __name__ == "__main__":
    main()
