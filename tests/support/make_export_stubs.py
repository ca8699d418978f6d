#!/usr/bin/env python3
"""Builds export stubs of shared libraries, for checking torchabi against the
real dynamic linker where the real libraries cannot be loaded (Debian sid's
libtorch needs a newer glibc and libraries bookworm does not have).

A stub has the soname, the DT_NEEDED entries (among the stubbed libraries)
and every exported dynamic symbol, with its type and GNU version, of the
library it stands for, and no code worth running: functions return 0. The
exports are read with binutils' readelf, independently of torchabi, so the
dynamic linker resolving an extension against the stubs is a check of
torchabi's own reading.

    make_export_stubs.py OUT_DIR LIB[=ALIAS[,ALIAS...]]...

Each LIB becomes OUT_DIR/<its soname>; each ALIAS is a symlink to it (to
stand in under another name, e.g. libtorch_cpu.so.1.13=... for an extension
linked against another release). Needs readelf and cc.
"""
import os
import re
import subprocess
import sys

SYM = re.compile(r"^\s*\d+:\s+[0-9a-f]+\s+\d+\s+(\w+)\s+(\w+)\s+(\w+)\s+(\S+)\s+(\S+)")


def readelf(args, lib):
    return subprocess.run(["readelf", "-W"] + args + [lib], check=True, capture_output=True, text=True).stdout


def dynamic(lib):
    needed, soname = [], None
    for line in readelf(["-d"], lib).splitlines():
        m = re.search(r"\((NEEDED|SONAME)\).*\[(.*)\]", line)
        if m and m.group(1) == "NEEDED":
            needed.append(m.group(2))
        elif m:
            soname = m.group(2)
    return needed, soname or os.path.basename(lib)


def exports(lib):
    """(name, type, version, default) of every exported definition."""
    out = []
    for line in readelf(["--dyn-syms"], lib).splitlines():
        m = SYM.match(line)
        if not m:
            continue
        typ, bind, vis, ndx, name = m.groups()
        if ndx == "UND" or bind not in ("GLOBAL", "WEAK", "UNIQUE") or vis not in ("DEFAULT", "PROTECTED"):
            continue
        version, default = None, True
        if "@@" in name:
            name, version = name.split("@@", 1)
        elif "@" in name:
            name, version = name.split("@", 1)
            default = False
        # readelf prints " (n)" after versioned names in some releases.
        version = version.split(" ")[0] if version else None
        out.append((name, typ, version, default))
    return out


def assembly(symbols):
    # Every function is an alias of one "return 0", every object of one
    # zeroed word: the dynamic linker only needs the names to exist.
    kinds = {"OBJECT": ("__stub_object", "@object"), "TLS": ("__stub_tls", "@tls_object")}
    lines = ["\t.text", "__stub_function:", "\txorl %eax, %eax", "\tret",
             "\t.data", "__stub_object: .quad 0",
             "\t.section .tbss,\"awT\",@nobits", "__stub_tls: .zero 8", "\t.text"]
    for i, (name, typ, version, default) in enumerate(symbols):
        target, kind = kinds.get(typ, ("__stub_function", "@function"))
        if version and not default:
            local = f"__stub_hidden_{i}"
            lines += [f"\t.set {local}, {target}", f'\t.symver {local}, "{name}@{version}"']
        else:
            lines += [f'\t.globl "{name}"', f'\t.set "{name}", {target}', f'\t.type "{name}", {kind}']
    return "\n".join(lines) + "\n"


def version_script(symbols):
    by_version = {}
    for name, _, version, default in symbols:
        if version and default:
            by_version.setdefault(version, []).append(name)
    if not by_version:
        return None
    return "".join(f'{v} {{ global: {"; ".join(chr(34) + n + chr(34) for n in names)}; }};\n'
                   for v, names in by_version.items())


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    specs = []
    for arg in argv[2:]:
        lib, _, aliases = arg.partition("=")
        needed, soname = dynamic(lib)
        specs.append((lib, soname, needed, [a for a in aliases.split(",") if a]))
    sonames = {s[1] for s in specs}
    # Dependencies first, so each stub can be linked against the stubs it needs.
    done = set()
    while len(done) < len(specs):
        progress = False
        for lib, soname, needed, aliases in specs:
            deps = [n for n in needed if n in sonames]
            if soname in done or any(d not in done for d in deps):
                continue
            symbols = exports(lib)
            base = os.path.join(out, soname)
            with open(base + ".s", "w") as f:
                f.write(assembly(symbols))
            cmd = ["cc", "-shared", "-nostdlib", "-o", base, base + ".s", "-Wl,-soname," + soname,
                   "-Wl,--no-as-needed", "-L" + out] + ["-l:" + d for d in deps]
            script = version_script(symbols)
            if script:
                with open(base + ".map", "w") as f:
                    f.write(script)
                cmd.append("-Wl,--version-script=" + base + ".map")
            subprocess.run(cmd, check=True)
            for a in aliases:
                link = os.path.join(out, a)
                if os.path.lexists(link):
                    os.remove(link)
                os.symlink(soname, link)
            done.add(soname)
            progress = True
        if not progress:
            print("make_export_stubs: circular DT_NEEDED among " + ", ".join(sorted(sonames - done)), file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
