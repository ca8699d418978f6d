#!/usr/bin/env python3
"""Precomputes, at build time, what `torchabi --version` says of the rules
compiled into the binary: the newest PyTorch release the generated tables
name, the number of files and their digest. The same computation as
inputs/rules_release.cpp's describe_rules() (a test holds the two equal on
rules/): hashing the 1.6 MB of rules at run time made --version cost ~3 ms.

  rules_release.py RULES_DIR OUT.cpp
"""
import os
import re
import sys

EXTENSIONS = (".yaml", ".tsv", ".json", ".md")  # as cmake/embed_rules_script.cmake
MASK = (1 << 64) - 1


def fnv_add(h, data):
    for c in data:
        h = ((h ^ c) * 1099511628211) & MASK
    return ((h ^ 0xFF) * 1099511628211) & MASK


def named_release(content):
    best = None
    for line in content.split(b"\n"):
        if not line.startswith(b"#"):
            break
        line = line.decode("latin-1")
        at = line.find("PyTorch ")
        while at != -1:
            m = re.match(r"[0-9.]*", line[at + 8:])
            text = m.group(0).rstrip(".")
            parts = text.split(".")
            if text.count(".") >= 2 and len(parts) == 3 and all(p.isdigit() for p in parts):
                v = tuple(int(p) for p in parts)
                if best is None or best < v:
                    best = v
            at = line.find("PyTorch ", at + 1)
    return best


def main():
    rules, out = sys.argv[1], sys.argv[2]
    files = []
    for root, _, names in os.walk(rules):
        for n in names:
            if n.endswith(EXTENSIONS):
                files.append(os.path.relpath(os.path.join(root, n), rules).replace(os.sep, "/"))
    files.sort(key=lambda p: p.encode())
    h = 14695981039346656037
    newest = None
    for rel in files:
        with open(os.path.join(rules, rel), "rb") as f:
            content = f.read()
        h = fnv_add(h, rel.encode())
        h = fnv_add(h, content)
        if rel.endswith(".tsv"):
            v = named_release(content)
            if v and (newest is None or newest < v):
                newest = v
    derived = "PyTorch %d.%d.%d" % newest if newest else ""
    text = (
        "// Generated from rules/ by cmake/rules_release.py. Do not edit.\n"
        '#include "inputs/rules_release.h"\n'
        "namespace torchabi::inputs {\n"
        "const RulesRelease& embedded_rules_release() {\n"
        '  static const RulesRelease r{"embedded rules", "%s", %d, "%016x"};\n'
        "  return r;\n"
        "}\n"
        "}  // namespace torchabi::inputs\n" % (derived, len(files), h))
    with open(out + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(out + ".tmp", out)


if __name__ == "__main__":
    main()
