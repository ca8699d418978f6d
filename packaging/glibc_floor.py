#!/usr/bin/env python3
"""Brings an ELF file's glibc symbol-version needs down to an older glibc
(the wheel's manylinux policy: 2.28), in place.

  glibc_floor.py --max 2.28 --reference SYSROOT_LIB_DIR --compat libtorchabi-glibc-compat.so FILE...
  glibc_floor.py --max 2.28 --check FILE...      (only report; exit 1 when a file needs more:
      a newer GLIBC_, or a libstdc++/libgcc_s version that the libstdc++.so.6/
      libgcc_s.so.1 among FILEs in the same directory, or, when there is none,
      the policy's systems do not define)

Debian builds against its own, newer glibc, so a library's references carry
that glibc's versions: pthread_create@GLIBC_2.34 (the version under which
2.34 moved it from libpthread into libc), stat@GLIBC_2.33 (a real function
since 2.33, a header inline before), exp@GLIBC_2.29 (new error handling),
arc4random@GLIBC_2.36 (new). For every reference to a GLIBC_ version newer
than --max this makes the reference unversioned (its .gnu.version entry
becomes 1, "global") and removes the now unused version from the needs
(.gnu.version_r). The dynamic linker binds an unversioned reference to the
oldest version of the symbol the loaded glibc defines (its base version), or
to its only version: pthread_create of glibc 2.28's libpthread, or of a new
glibc's libc (the same function under its old name), the old exp, the
stat of a glibc that has one.

Each re-pointed symbol must then be defined on the old glibc: the tool looks
it up in --reference (the old glibc's libraries, scripts/fetch-glibc-sysroot.sh,
glibc 2.31: a version <= --max there existed in --max already) and adds the
library that defines it as a needed library when the file does not name it
(libpthread.so.0, libdl.so.2, librt.so.1: merged into libc in 2.34, still
there as empty stubs after); a symbol the old glibc does not have at all
(arc4random, mallinfo2, __libc_single_threaded, the 2.33 stat functions) must
be exported by --compat (packaging/glibc_compat/compat.c), which becomes a
needed library. Anything else fails, naming the symbol. Needed libraries are
added with patchelf; the version tables are edited in place (no size change).

Prints one line per file: what was re-pointed where.
"""
import argparse
import os
import struct
import subprocess
import sys

SHT_DYNSYM, SHT_DYNAMIC = 11, 6
SHT_VERDEF, SHT_VERNEED, SHT_VERSYM = 0x6FFFFFFD, 0x6FFFFFFE, 0x6FFFFFFF
DT_NEEDED, DT_VERNEEDNUM = 1, 0x6FFFFFFF


class Elf:
    """The dynamic symbol and version tables of an ELF64 little-endian file."""

    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            self.data = bytearray(f.read())
        d = self.data
        if d[:4] != b"\x7fELF" or d[4] != 2 or d[5] != 1:
            raise ValueError("%s: not a 64-bit little-endian ELF file" % path)
        shoff, = struct.unpack_from("<Q", d, 0x28)
        shentsize, shnum, _ = struct.unpack_from("<HHH", d, 0x3A)
        self.sections = {}
        for i in range(shnum):
            name, typ, flags, addr, off, size, link, info, align, entsize = struct.unpack_from(
                "<IIQQQQIIQQ", d, shoff + i * shentsize)
            self.sections.setdefault(typ, (off, size, link, info, i, shoff + i * shentsize))
        if SHT_DYNSYM not in self.sections:
            raise ValueError("%s: no dynamic symbol table" % path)
        off, size, link, _, _, _ = self.sections[SHT_DYNSYM]
        self.dynstr_off = struct.unpack_from("<Q", d, shoff + link * shentsize + 0x18)[0]
        self.symbols = []  # (name, shndx)
        for i in range(size // 24):
            st_name, info, other, shndx = struct.unpack_from("<IBBH", d, off + i * 24)
            self.symbols.append((self.string(st_name), shndx))

    def string(self, offset):
        end = self.data.index(b"\0", self.dynstr_off + offset)
        return self.data[self.dynstr_off + offset:end].decode()

    def versym_offset(self):
        return self.sections[SHT_VERSYM][0] if SHT_VERSYM in self.sections else None

    def versym(self, i):
        return struct.unpack_from("<H", self.data, self.versym_offset() + 2 * i)[0]

    def needs(self):
        """[(verneed offset, file, [(aux offset, version name, index)])]"""
        out = []
        if SHT_VERNEED not in self.sections:
            return out
        off, _, _, count, _, _ = self.sections[SHT_VERNEED]
        vn = off
        for _ in range(count):
            _, cnt, vfile, aux, nxt = struct.unpack_from("<HHIII", self.data, vn)
            auxes = []
            a = vn + aux
            for _ in range(cnt):
                _, _, other, name, anext = struct.unpack_from("<IHHII", self.data, a)
                auxes.append((a, self.string(name), other))
                if anext == 0:
                    break
                a += anext
            out.append((vn, self.string(vfile), auxes))
            if nxt == 0:
                break
            vn += nxt
        return out

    def definitions(self):
        """{index: version name} of the versions this file defines."""
        out = {}
        if SHT_VERDEF not in self.sections:
            return out
        off, _, _, count, _, _ = self.sections[SHT_VERDEF]
        vd = off
        for _ in range(count):
            _, _, ndx, _, _, aux, nxt = struct.unpack_from("<HHHHIII", self.data, vd)
            out[ndx] = self.string(struct.unpack_from("<I", self.data, vd + aux)[0])
            if nxt == 0:
                break
            vd += nxt
        return out

    def needed(self):
        off, size, _, _, _, _ = self.sections[SHT_DYNAMIC]
        out = []
        for i in range(size // 16):
            tag, val = struct.unpack_from("<qQ", self.data, off + 16 * i)
            if tag == 0:
                break
            if tag == DT_NEEDED:
                out.append(self.string(val))
        return out

    def save(self):
        tmp = self.path + ".floor"
        with open(tmp, "wb") as f:
            f.write(self.data)
        os.chmod(tmp, os.stat(self.path).st_mode & 0o7777)
        os.replace(tmp, self.path)


def glibc_version(name):
    """(2, 34) for GLIBC_2.34, None for anything else (GLIBC_PRIVATE, GLIBCXX_...)."""
    if not name.startswith("GLIBC_"):
        return None
    try:
        return tuple(int(x) for x in name[6:].split("."))
    except ValueError:
        return None


def too_new(elf, limit):
    """[(symbol index, name, version)] of the references to a GLIBC_ version above limit."""
    if elf.versym_offset() is None:
        return []
    newer = {}
    for _, _, auxes in elf.needs():
        for _, name, index in auxes:
            v = glibc_version(name)
            if v and v > limit:
                newer[index] = name
    out = []
    for i, (name, shndx) in enumerate(elf.symbols):
        idx = elf.versym(i) & 0x7FFF
        if shndx == 0 and idx in newer:
            out.append((i, name, newer[idx]))
    return out


def reference_symbols(libdir, limit):
    """{symbol: soname} of what the old glibc defines at a version <= limit,
    in the version an unversioned reference binds to (its base version, or
    its only one)."""
    out = {}
    for soname in ("libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2", "librt.so.1", "libutil.so.1"):
        path = os.path.join(libdir, soname)
        if not os.path.exists(path):
            sys.exit("glibc_floor: %s is missing (scripts/fetch-glibc-sysroot.sh)" % path)
        elf = Elf(path)
        names = elf.definitions()
        versions = {}
        for i, (name, shndx) in enumerate(elf.symbols):
            if shndx != 0 and name:
                versions.setdefault(name, []).append(elf.versym(i))
        for name, vs in versions.items():
            # ld.so takes a definition of index 1 or 2 (the base version) at
            # once, else the only one that is not hidden.
            base = min(v & 0x7FFF for v in vs)
            visible = [v for v in vs if not v & 0x8000]
            chosen = base if base <= 2 or len(visible) != 1 else visible[0] & 0x7FFF
            v = glibc_version(names.get(chosen, ""))
            if v and v <= limit and name not in out:
                out[name] = soname
    return out


def floor(path, limit, reference, compat_soname, compat_exports):
    elf = Elf(path)
    refs = too_new(elf, limit)
    if not refs:
        return "%s: nothing newer than GLIBC_%s" % (path, ".".join(map(str, limit)))
    add, where, missing = [], {}, []
    for _, name, version in refs:
        lib = reference.get(name) or (compat_soname if name in compat_exports else None)
        if lib is None:
            missing.append("%s@%s" % (name, version))
            continue
        where.setdefault(lib, []).append(name)
        if lib not in elf.needed() and lib not in add:
            add.append(lib)
    if missing:
        sys.exit("glibc_floor: %s: neither glibc %s nor %s defines %s" % (
            path, ".".join(map(str, limit)), compat_soname, ", ".join(sorted(missing))))
    for lib in add:
        subprocess.run(["patchelf", "--add-needed", lib, path], check=True)
    if add:
        elf = Elf(path)  # patchelf moved the tables
        refs = too_new(elf, limit)
    for i, _, _ in refs:
        struct.pack_into("<H", elf.data, elf.versym_offset() + 2 * i, 1)
    # Unlink the versions nothing references any more.
    for vn, vfile, auxes in elf.needs():
        keep = [a for a in auxes if not (glibc_version(a[1]) and glibc_version(a[1]) > limit)]
        if len(keep) == len(auxes):
            continue
        if not keep:
            sys.exit("glibc_floor: %s: every version it needs of %s is newer than %s" % (path, vfile, limit))
        for k, (a, _, _) in enumerate(keep):
            nxt = keep[k + 1][0] - a if k + 1 < len(keep) else 0
            struct.pack_into("<I", elf.data, a + 12, nxt)
        struct.pack_into("<H", elf.data, vn + 2, len(keep))  # vn_cnt
        struct.pack_into("<I", elf.data, vn + 8, keep[0][0] - vn)  # vn_aux
    elf.save()
    return "%s: %s" % (path, "; ".join("%s from %s" % (", ".join(sorted(set(n))), lib) for lib, n in sorted(where.items())))


# What manylinux_2_28's systems (AlmaLinux 8: GCC 8's libstdc++ and libgcc_s)
# define, for the versions a file may need of a library the wheel does not ship.
POLICY_DEFINES = {"GLIBCXX": (3, 4, 25), "CXXABI": (1, 3, 11), "GCC": (7, 0, 0)}


def dotted(name, prefix):
    try:
        return tuple(int(x) for x in name[len(prefix) + 1:].split("."))
    except ValueError:
        return None


def check(path, limit, shipped):
    """The versions `path` needs that a manylinux system of glibc `limit` may
    lack: GLIBC_ newer than limit; of libstdc++ and libgcc_s, one the copy in
    `shipped` ({(directory, soname): defined version names}) next to the file
    (where RUNPATH $ORIGIN finds it) does not define, or, where there is no
    copy next to it, newer than the policy's systems have."""
    elf = Elf(path)
    worst = []
    for _, vfile, auxes in elf.needs():
        for _, name, _ in auxes:
            v = glibc_version(name)
            if v and v > limit:
                worst.append(name)
                continue
            prefix = name.split("_")[0]
            if prefix not in POLICY_DEFINES or vfile not in ("libstdc++.so.6", "libgcc_s.so.1"):
                continue
            copy = shipped.get((os.path.dirname(os.path.abspath(path)), vfile))
            if copy is not None:
                if name not in copy:
                    worst.append("%s (of %s, which the wheel ships without it)" % (name, vfile))
            elif (dotted(name, prefix) or (0,)) > POLICY_DEFINES[prefix]:
                worst.append("%s (of %s, which the wheel does not ship)" % (name, vfile))
    return sorted(set(worst))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max", required=True, help="the newest glibc the files may need, e.g. 2.28")
    ap.add_argument("--reference", help="the old glibc's library directory")
    ap.add_argument("--compat", help="the compat library (its soname is added where needed)")
    ap.add_argument("--check", action="store_true", help="only report the files needing a newer glibc")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    limit = tuple(int(x) for x in a.max.split("."))
    if a.check:
        bad = 0
        shipped = {}
        for f in a.files:
            if os.path.basename(f) in ("libstdc++.so.6", "libgcc_s.so.1"):
                key = (os.path.dirname(os.path.abspath(f)), os.path.basename(f))
                shipped[key] = set(Elf(f).definitions().values())
        for f in a.files:
            try:
                worst = check(f, limit, shipped)
            except ValueError:
                continue
            if worst:
                bad = 1
                print("%s needs %s" % (f, " ".join(worst)))
        return bad
    if not a.reference or not a.compat:
        ap.error("--reference and --compat are needed unless --check")
    reference = reference_symbols(a.reference, limit)
    compat = Elf(a.compat)
    exports = {n for n, shndx in compat.symbols if shndx != 0 and n}
    soname = os.path.basename(a.compat)
    for f in a.files:
        print(floor(f, limit, reference, soname, exports))
    return 0


if __name__ == "__main__":
    sys.exit(main())
