"""Compares what record_setup.py recorded with real torch (--real DIR) and
with its stand-in cpp_extension (--standin DIR): every FIXTURE-PLATFORM.json
of both. Paths are compared relative to each run's project copy; the real
run's include directories may add torch's own and the stand-in CUDA
toolkit's. Prints each disagreement and 'N agree, M disagree'; exit 1 on any.
"""
import argparse
import json
import os
import sys

FIELDS = ("name", "kind", "sources", "define_macros", "undef_macros", "extra_compile_args", "py_limited_api",
          "line")


def load(path):
    with open(path) as f:
        return json.load(f)


def relative(doc, paths):
    return [os.path.relpath(p, doc["project"]) if p.startswith(doc["project"] + os.sep) else p for p in paths]


def project_includes(doc, ext):
    """The extension's include directories that are not torch's or CUDA's."""
    torch = set((doc.get("torch") or {}).get("include_paths") or [])
    cuda = doc["cuda_home"] + os.sep
    return relative(doc, [i for i in ext["include_dirs"] if i not in torch and not i.startswith(cuda)])


def compare(real, standin, what):
    problems = []
    if not real.get("torch"):
        problems.append(f"{what}: the real run did not import torch")
    if real["build_ext"] != standin["build_ext"]:
        problems.append(f"{what}: build_ext {real['build_ext']!r} vs {standin['build_ext']!r}")
    if [r["text"] for r in real["requirements"]] != [r["text"] for r in standin["requirements"]]:
        problems.append(f"{what}: requirements {real['requirements']} vs {standin['requirements']}")
    rs, ss = real["extensions"], standin["extensions"]
    if [e["name"] for e in rs] != [e["name"] for e in ss]:
        return problems + [f"{what}: extensions {[e['name'] for e in rs]} vs {[e['name'] for e in ss]}"]
    for r, s in zip(rs, ss):
        for field in FIELDS:
            a, b = r[field], s[field]
            if field == "sources":
                a, b = relative(real, a), relative(standin, b)
            if a != b:
                problems.append(f"{what} {r['name']} {field}: real {a!r}, stand-in {b!r}")
        a, b = project_includes(real, r), project_includes(standin, s)
        if a != b:
            problems.append(f"{what} {r['name']} include_dirs: real {a!r}, stand-in {b!r}")
        torch = (real.get("torch") or {}).get("include_paths") or []
        if r["kind"] != "Extension" and not all(t in r["include_dirs"] for t in torch):
            problems.append(f"{what} {r['name']}: real cpp_extension did not add torch's include paths")
    return problems


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--real", required=True)
    p.add_argument("--standin", required=True)
    p.add_argument("--fixtures", nargs="+", required=True)
    p.add_argument("--platforms", nargs="+", required=True)
    args = p.parse_args()
    agree = disagree = 0
    for f in args.fixtures:
        for plat in args.platforms:
            name = f"{f}-{plat}.json"
            what = f"{f} ({plat})"
            try:
                problems = compare(load(os.path.join(args.real, name)), load(os.path.join(args.standin, name)), what)
            except (OSError, ValueError) as e:
                problems = [f"{what}: {e}"]
            for line in problems:
                print("  " + line)
            if problems:
                disagree += 1
            else:
                agree += 1
                print(f"  {what}: agree")
    print(f"{agree} agree, {disagree} disagree")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
