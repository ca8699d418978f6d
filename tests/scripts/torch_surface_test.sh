#!/usr/bin/env bash
# rules/project/torch_surface.json (the stand-in torch's module surface) against
# the newest real torch Debian ships (scripts/fetch-torch.sh unpacks it under the
# build tree): the committed file must name every name the real modules define,
# with the same literal values, so that a newer upload that adds names fails here
# until scripts/gen-torch-surface.py is run again. Skips (77) without the packages.
#   torch_surface_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1
build=$2
pkg="$build/torch-sid/root/usr/lib/python3/dist-packages/torch"
[ -f "$pkg/utils/cpp_extension.py" ] || { echo "skipped: $pkg not fetched (scripts/fetch-torch.sh)"; exit 77; }
fresh=$(mktemp)
trap 'rm -f "$fresh"' EXIT
python3 "$src/scripts/gen-torch-surface.py" "$pkg" >"$fresh"
python3 - "$src/rules/project/torch_surface.json" "$fresh" <<'PY'
import json, sys
committed, fresh = (json.load(open(p)) for p in sys.argv[1:3])
missing = []
for module, names in fresh["modules"].items():
    have = committed["modules"].get(module, {})
    for name, entry in names.items():
        if name not in have:
            missing.append(f"{module}.{name} (new)")
        elif entry.get("value") != have[name].get("value"):
            missing.append(f"{module}.{name} (value changed)")
if missing:
    print("torch_surface.json is out of date with the real torch (run scripts/gen-torch-surface.py):")
    for m in missing[:40]:
        print("  " + m)
    sys.exit(1)
count = sum(len(v) for v in fresh["modules"].values())
print(f"torch surface: {count} names of torch {fresh['torch_version']} covered")
PY
