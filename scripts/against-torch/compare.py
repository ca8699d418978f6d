#!/usr/bin/env python3
"""Compares `torchabi run` with real PyTorch, for scripts/test-against-torch.sh.

  compare.py --torchabi BIN --manifest M.json --torch-results R.json --work DIR

For every extension of the manifest, real PyTorch's results (torch_runner.py)
become the expectations of a case file: the outputs it returned (dtype, shape,
strides, values) or "an error". `torchabi run` then runs the same .so with
that file, and every case it does not pass is a disagreement, printed with
both sides. What the extension registered (ops, schemas, dispatch keys) and
whether it loaded at all are compared too. Ends with 'N passed, M failed'.
"""
import argparse
import json
import os
import re
import subprocess
import sys

import yaml

# Ops whose outputs hold uninitialised memory: only dtype, shape and strides compare.
UNINITIALISED = re.compile(r"::(empty\.memory_format|empty_like|empty_strided|new_empty)$")


def tensor_spec(out, with_values=True):
    spec = {"dtype": out["dtype"], "shape": out["shape"], "strides": out["strides"]}
    if with_values and "values" in out:
        spec["values"] = [float(v) if isinstance(v, str) else v for v in out["values"]]
    return spec


def expected_output(out, with_values):
    kind = out["kind"]
    if kind == "tensor":
        return tensor_spec(out, with_values)
    if kind == "list":
        return [expected_output(x, with_values) for x in out["items"]]
    if kind == "none":
        return None
    v = out["value"]
    return float(v) if isinstance(v, str) and kind == "float" else v


def summarize(out):
    kind = out["kind"]
    if kind == "tensor":
        vals = out.get("values")
        shown = "" if vals is None else " " + json.dumps(vals[:12]) + ("..." if len(vals) > 12 else "")
        return f"{out['dtype']}{out['shape']} strides {out['strides']}{shown}"
    if kind == "list":
        return "[" + ", ".join(summarize(x) for x in out["items"]) + "]"
    return json.dumps(out.get("value"))


def torch_side(rec):
    if rec["outcome"] == "ok":
        return "returned " + "; ".join(summarize(o) for o in rec.get("outputs", [])) if rec.get("outputs") else "returned"
    if rec["outcome"] == "error":
        return "raised " + rec.get("error", "")
    return rec["outcome"] + (": " + rec["error"] if rec.get("error") else "")


# How torch prints what a schema spells by name (enum defaults as their codes, DeviceIndex as int).
SPELLINGS = [(r"\bDeviceIndex\b", "int"), (r"=contiguous_format\b", "=0"), (r"=preserve_format\b", "=1"),
             (r"=channels_last\b", "=2"), (r"=channels_last_3d\b", "=3"), (r"=strided\b", "=0")]


def normalize_schema(s):
    s = re.sub(r"^[\w]+::", "", s.strip())
    for pattern, repl in SPELLINGS:
        s = re.sub(pattern, repl, s)
    s = re.sub(r"\s+", "", s)
    s = re.sub(r"=(-?\d+)\.(?=[,)])", r"=\1", s)   # 1. -> 1
    s = re.sub(r"=(-?\d+)\.0(?=[,)])", r"=\1", s)  # 1.0 -> 1
    return s


class Report:
    def __init__(self):
        self.passed = 0
        self.failed = []

    def ok(self):
        self.passed += 1

    def fail(self, ext, what, torch_says, torchabi_says):
        self.failed.append(ext)
        print(f"DISAGREE {ext}: {what}")
        print(f"    real PyTorch: {torch_says}")
        print(f"    torchabi:     {torchabi_says}")


# Arguments added to every `torchabi run` (third_party.py: --root ROOT).
EXTRA_RUN_ARGS = []

# The findings that say the extension did not load into the reference runtime.
LOAD_RULES = {"runtime-load-failed", "runtime-missing-symbol", "runtime-c-runtime-too-old", "runtime-missing-library",
              "runtime-unresolved-symbol"}


def run_torchabi(binary, so, cases, out_json, env, extra=()):
    cmd = [binary, "run", *EXTRA_RUN_ARGS, *extra, so, "--format", "json", "-o", out_json]
    if cases:
        cmd[2:2] = ["--cases", cases]
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode not in (0, 1) or not os.path.exists(out_json):
        return None, (p.stderr.strip() or p.stdout.strip() or f"exit status {p.returncode}")
    with open(out_json) as f:
        return json.load(f), None


def compare_extension(ext, torch_rec, binary, work, report):
    # "label": a name of its own where libraries share a file name (third_party.py).
    name = ext.get("label") or os.path.basename(ext["so"])
    env = dict(os.environ, **{k: os.path.join(work, v) for k, v in ext.get("env", {}).items()})
    ext = dict(ext, so=os.path.join(work, ext["so"]), cases=ext.get("cases") and os.path.join(work, ext["cases"]))
    cases_doc = None
    expect_path = None
    if ext.get("cases") and torch_rec["load"]["ok"]:
        with open(ext["cases"]) as f:
            cases_doc = yaml.safe_load(f)
        by_name = {c["name"]: c for c in torch_rec["cases"]}
        out_cases = []
        for c in cases_doc.get("cases") or []:
            rec = by_name.get(c["name"])
            if rec is None:
                continue
            # bad_* fixtures expect what their defect breaks; the others must hold in real torch.
            if rec.get("expectation") and not name.startswith("bad_"):
                report.fail(name, f"case '{c['name']}': the case file's expectation does not hold in real PyTorch",
                            rec["expectation"], "(not compared)")
            new = {"name": c["name"], "op": c["op"], "inputs": c.get("inputs")}
            if new["inputs"] is None:
                del new["inputs"]
            if rec["outcome"] == "ok":
                with_values = not UNINITIALISED.search(c["op"])
                new["expect"] = {"outputs": [expected_output(o, with_values) for o in rec["outputs"]]}
            elif rec["outcome"] == "error":
                new["expect"] = {"error": ""}
            out_cases.append(new)
        expect_path = os.path.join(work, name + ".expect.yaml")
        with open(expect_path, "w") as f:
            yaml.safe_dump({"cases": out_cases}, f, default_flow_style=None, sort_keys=False, width=200)

    # "run_args": what this extension needs beyond the others (third_party.py: --preload LIB).
    extra = [a if not a.startswith("@") else os.path.join(work, a[1:]) for a in ext.get("run_args", [])]
    result, err = run_torchabi(binary, ext["so"], expect_path, os.path.join(work, name + ".torchabi.json"), env,
                               extra)
    if result is None:
        report.fail(name, "torchabi could not run it", torch_rec["load"], err)
        return
    subject = result["subjects"][0] if result.get("subjects") else {}
    facts = dict(subject.get("facts", {}) if isinstance(subject.get("facts"), dict) else
                 [(k, v) for k, v in subject.get("facts", [])])
    findings = result.get("findings", [])

    # Loading. Where libtorch crashes while loading (a second STABLE_TORCH_LIBRARY
    # goes on with a handle that was never set), torchabi names the cause instead.
    load_findings = [f for f in findings if f["rule"] in LOAD_RULES
                     or (f["rule"] == "runtime-bad-registration" and f.get("severity") == "error")]
    torch_loaded = torch_rec["load"]["ok"]
    if torch_loaded == (not load_findings):
        report.ok()
    else:
        report.fail(name, "loading", "loaded" if torch_loaded else "failed to load: " + torch_rec["load"].get("error", ""),
                    "; ".join(f["message"] for f in load_findings) or "loaded")

    # Registrations: every op real torch has, with its schema and dispatch keys.
    torchabi_ops = {}
    for k, v in facts.items():
        if k.startswith("op "):
            m = re.match(r"(.*) \[(.*)\]$", v)
            schema, keys = (m.group(1), m.group(2)) if m else (v, "")
            keys = [x.strip() for x in keys.split(",") if x.strip() and x.strip() != "no kernel"]
            torchabi_ops[k[3:]] = (schema, sorted(keys))
    for op, info in sorted(torch_rec["ops"].items()):
        mine = torchabi_ops.get(op)
        if mine is None:
            report.fail(name, f"op {op}", f"{info['schema']} {info['keys']}", "not registered")
        elif normalize_schema(mine[0]) != normalize_schema(info["schema"]):
            report.fail(name, f"schema of {op}", info["schema"], mine[0])
        elif mine[1] != info["keys"]:
            report.fail(name, f"dispatch keys of {op}", info["keys"], mine[1])
        else:
            report.ok()
    for op in sorted(set(torchabi_ops) - set(torch_rec["ops"])):
        if torch_loaded and not load_findings:
            report.fail(name, f"op {op}", "not registered", torchabi_ops[op][0])

    # Cases.
    if not cases_doc:
        return
    for rec in torch_rec["cases"]:
        status = facts.get("case " + rec["name"], "not run")
        mine = [f for f in findings if f["message"].startswith(f"case '{rec['name']}': ")]
        if rec["outcome"] in ("crash", "timeout"):
            agree = status in ("crashed", "timed out")
        elif rec["outcome"] == "error":
            # A kernel that throws a non-std exception fails its case in torchabi
            # (runtime-non-std-exception) while real torch raises all the same.
            agree = status == "passed" or (status == "failed" and mine and all(
                f["rule"] == "runtime-non-std-exception" for f in mine))
        else:
            # The opcheck-class findings are compared with real opcheck (opcheck.py),
            # not with a plain call, which never checks the schema's effects.
            agree = status == "passed" or (status == "failed" and mine and all(
                f["rule"] in SCHEMA_EFFECT_RULES for f in mine))
        if rec["outcome"] == "error" and agree and not python_error_agrees(name, rec, facts, report):
            continue
        if agree:
            report.ok()
        else:
            says = "; ".join(f["message"][len(rec["name"]) + 9:] + "".join(" | " + n for n in f.get("notes", []))
                             for f in mine) or status
            report.fail(name, f"case '{rec['name']}'", torch_side(rec), says)


SCHEMA_EFFECT_RULES = {"runtime-undeclared-mutation", "runtime-undeclared-alias", "runtime-returns-input",
                       "runtime-alias-not-aliasing"}


# Extensions whose errors are the kernels' own messages (not ATen's, whose
# wording the reference runtime does not copy): their messages must match too.
EXACT_MESSAGES = {"bad_throws_kinds"}


def python_error_agrees(ext, rec, facts, report):
    """The Python exception torchabi says a caller gets (its fact "python error
    CASE") against the one real torch raised: the type always, the message for
    EXACT_MESSAGES. Reports a disagreement and returns False when they differ."""
    mine = facts.get("python error " + rec["name"])
    theirs = f"{rec.get('error_type', '?')}: {rec.get('error_message', '')}".replace("\n", " ")
    if mine is None:
        # Errors raised before any kernel ran (argument parsing, a missing kernel) have no fact.
        return True
    my_type, _, my_message = mine.partition(": ")
    same = my_type == rec.get("error_type") and (
        ext.removesuffix(".so") not in EXACT_MESSAGES or my_message == theirs.partition(": ")[2])
    if not same:
        report.fail(ext, f"case '{rec['name']}': the Python exception", theirs, mine)
    return same


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchabi", required=True)
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--torch-results", required=True)
    ap.add_argument("--work", required=True, help="the manifest's directory: its paths are relative to it")
    a = ap.parse_args()
    with open(a.manifest) as f:
        manifest = json.load(f)
    with open(a.torch_results) as f:
        results = json.load(f)
    report = Report()
    for ext, rec in zip(manifest["extensions"], results):
        compare_extension(ext, rec, a.torchabi, a.work, report)
    bad = sorted(set(report.failed))
    if bad:
        print(f"disagreements in: {', '.join(bad)}")
    print(f"against-torch: {report.passed} passed, {len(report.failed)} failed")
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
