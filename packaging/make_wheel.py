#!/usr/bin/env python3
"""Writes the torchabi wheel from a staged package tree (scripts/build-wheel.sh
stages it): the dist-info (METADATA, WHEEL, RECORD with the
sha256 and size of every file) and the zip, with Python's zipfile alone.

  make_wheel.py --stage DIR --version X.Y.Z --tag py3-none-manylinux_2_36_x86_64
                --readme README.md --out dist/

DIR holds the importable package `torchabi/` and the program,
torchabi-X.Y.Z.data/scripts/torchabi, which pip installs into the environment's
scripts directory as the `torchabi` command (files keep their modes: the
executable bit of the program and of the libraries survives pip install). The
wheel is reproducible: entries sorted, timestamps from SOURCE_DATE_EPOCH
(default 2020-01-01). Prints the wheel's path.
"""
import argparse
import base64
import hashlib
import os
import sys
import time
import zipfile

NAME = "torchabi"
SUMMARY = "Checks PyTorch C++/CUDA extensions against the LibTorch stable ABI"


def record_hash(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def metadata(version, readme):
    head = [
        "Metadata-Version: 2.1",
        "Name: " + NAME,
        "Version: " + version,
        "Summary: " + SUMMARY,
        "Requires-Python: >=3.9",
        "Keywords: pytorch,abi,stable-abi,linter,c++,cuda",
        "Classifier: Environment :: Console",
        "Classifier: Operating System :: POSIX :: Linux",
        "Classifier: Programming Language :: C++",
        "Classifier: Topic :: Software Development :: Quality Assurance",
        "Description-Content-Type: text/markdown",
    ]
    return "\n".join(head) + "\n\n" + readme


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stage", required=True)
    ap.add_argument("--version", required=True)
    ap.add_argument("--tag", required=True)
    ap.add_argument("--readme", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()

    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "1577836800"))
    stamp = time.gmtime(max(epoch, 315532800))[:6]  # zip cannot hold dates before 1980
    dist_info = "%s-%s.dist-info" % (NAME, a.version)
    with open(a.readme, encoding="utf-8") as f:
        readme = f.read()

    files = []  # (archive name, bytes, mode)
    for root, dirs, names in os.walk(a.stage):
        dirs.sort()
        for n in sorted(names):
            path = os.path.join(root, n)
            if os.path.islink(path):
                sys.exit("make_wheel: %s is a symbolic link (wheels hold files only)" % path)
            with open(path, "rb") as f:
                data = f.read()
            files.append((os.path.relpath(path, a.stage).replace(os.sep, "/"), data, os.stat(path).st_mode & 0o777))
    script = "%s-%s.data/scripts/%s" % (NAME, a.version, NAME)
    if not any(n == script for n, _, _ in files):
        sys.exit("make_wheel: %s has no %s" % (a.stage, script))

    wheel = "\n".join([
        "Wheel-Version: 1.0",
        "Generator: torchabi packaging/make_wheel.py",
        "Root-Is-Purelib: false",
        "Tag: " + a.tag,
    ]) + "\n"
    # No console_scripts entry point: the command is the program itself.
    for name, text in (("METADATA", metadata(a.version, readme)), ("WHEEL", wheel)):
        files.append(("%s/%s" % (dist_info, name), text.encode("utf-8"), 0o644))
    record_name = dist_info + "/RECORD"
    record = "".join("%s,%s,%d\n" % (n, record_hash(d), len(d)) for n, d, _ in files) + record_name + ",,\n"
    files.append((record_name, record.encode("utf-8"), 0o644))

    os.makedirs(a.out, exist_ok=True)
    out = os.path.join(a.out, "%s-%s-%s.whl" % (NAME, a.version, a.tag))
    tmp = out + ".partial"
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, data, mode in files:
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix: the mode above is read
            z.writestr(info, data)
    os.replace(tmp, out)
    print(out)


if __name__ == "__main__":
    main()
