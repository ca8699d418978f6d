#!/usr/bin/env python3
"""Differential test: `torchabi schema` accepts exactly the schemas PyTorch's
own parser (torch._C.parse_schema, from Debian's python3-torch) accepts.

The corpus is every func: of native_functions.yaml, mutated with a fixed seed
(insertions, deletions and replacements of schema tokens). Schemas are parsed
by PyTorch in a forked child each, because its parser crashes on some inputs;
those are left out. Exit 77 (skipped) when torch or the YAML is missing.

  torch_parser_agreement.py TORCHABI NATIVE_FUNCTIONS_YAML [COUNT]
"""
import json
import os
import random
import subprocess
import sys

def main():
    torchabi, yaml_path = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 600
    try:
        import torch
        import yaml
    except ImportError:
        print("SKIP: python3-torch or python3-yaml is not installed")
        return 77
    if not os.path.exists(yaml_path):
        print(f"SKIP: {yaml_path} is not present")
        return 77
    funcs = [e["func"] for e in yaml.safe_load(open(yaml_path)) if isinstance(e, dict) and "func" in e]
    pieces = ["(", ")", "[", "]", "?", "!", "*", "=", ",", "->", "...", "::", ".", "|", "a", "None", "True",
              "1", "-1", "1.5", "Tensor", "int", "[]", "[1]", "(a!)", "(a -> *)", " ", "x", "Mean", "float",
              "Dimname", "t", "", "2j", "0x1", "in", "Scalar?", "Dict(str, Tensor)"]
    rng = random.Random(20240615)
    corpus = []
    while len(corpus) < count:
        s = rng.choice(funcs)
        for _ in range(rng.randint(1, 3)):
            pos = rng.randint(0, len(s))
            op = rng.random()
            if op < 0.4:
                s = s[:pos] + rng.choice(pieces) + s[pos:]
            elif op < 0.8:
                s = s[:pos] + s[pos + rng.randint(1, 4):]
            else:
                s = s[:pos] + rng.choice(pieces) + s[pos + rng.randint(1, 4):]
        # Newer releases than python3-torch accept dtype names as ScalarType
        # defaults and torchabi follows them; leave such schemas out.
        if "\n" in s or "'" in s or '"' in s or "=float32" in s:
            continue
        corpus.append(s)

    def torch_accepts(schema):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            try:
                torch._C.parse_schema(schema)
                os.write(w, b"1")
            except Exception:
                os.write(w, b"0")
            os._exit(0)
        os.close(w)
        out = os.read(r, 1)
        os.close(r)
        os.waitpid(pid, 0)
        return None if not out else out == b"1"

    expected = [torch_accepts(s) for s in corpus]
    got = []
    for i in range(0, len(corpus), 200):
        batch = corpus[i:i + 200]
        p = subprocess.run([torchabi, "schema", "--namespace", "aten", "--format", "json", "--", *batch],
                           capture_output=True, text=True)
        subjects = json.loads(p.stdout)["subjects"]
        if len(subjects) != len(batch):
            print(f"torchabi reported {len(subjects)} subjects for {len(batch)} schemas: {p.stderr}")
            return 1
        got += [s["verdict"] == "VALID" for s in subjects]

    compared = disagreements = 0
    for schema, want, have in zip(corpus, expected, got):
        if want is None:
            continue  # PyTorch crashed on it
        compared += 1
        if want != have:
            disagreements += 1
            print(f"{'PyTorch accepts' if want else 'PyTorch rejects'}, torchabi {'accepts' if have else 'rejects'}: {schema}")
    print(f"{compared} schemas compared with torch {torch.__version__}, {disagreements} disagreements")
    return 1 if disagreements or compared < count // 2 else 0

if __name__ == "__main__":
    sys.exit(main())
