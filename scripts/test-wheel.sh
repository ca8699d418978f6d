#!/usr/bin/env bash
# The wheel, installed the way its users install it, on machines that have
# nothing of what built it. First its files, read here: none needs a glibc
# symbol version newer than 2.28, nor a libstdc++/libgcc_s version the wheel
# does not ship and manylinux_2_28's systems lack (packaging/glibc_floor.py
# --check; and the check fails on Debian's own libstdc++). Then for each Debian
# release (bookworm, the build machine's; trixie, newer; bullseye, glibc 2.31,
# the oldest the mirror serves: the wheel's glibc 2.28 build and its compat
# library at work), a bare chroot (mmdebstrap --variant=apt plus python3,
# python3-venv and pipx: no compiler, no -dev package, no libclang, no LLVM),
# a fresh venv in it, `pip install --no-index` of the wheel file, then the
# installed `torchabi` (the program itself in the venv's bin/) on fixtures:
# --version and the rules, audit of a .so, a wheel and a .conda, check of a
# repository (setup.py run, sources linted with the shipped libclang) and of a
# library, run of two extensions, migrate of the classic at::/c10:: sample;
# also installed with --prefix and run through a symbolic link (pipx's, uv's
# bin/). Exit codes and key lines are asserted; the last line is
# 'N passed, M failed'. Where a release's glibc is older than the wheel's tag,
# it asserts that pip refuses the wheel instead.
#
#   scripts/test-wheel.sh [--wheel FILE] [--suites "bookworm trixie bullseye"] [--rebuild-chroots]
#
# The wheel: FILE, else one built now from the build tree into
# build/wheel-test/ (scripts/build-wheel.sh). The chroots are cached in
# $TORCHABI_WHEEL_CHROOTS (default ~/.cache/torchabi), wheel-<suite>, about
# 200 MB each, built when missing (a few minutes each, with the network).
# Needs root (or sudo) for mmdebstrap and chroot, and mmdebstrap.
#
# Exit status: 0 all passed; 1 a check failed; 2 bad usage or no wheel;
# 3 this machine cannot build or enter the chroots (the reason on one line).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cache=${TORCHABI_WHEEL_CHROOTS:-$HOME/.cache/torchabi}
suites="bookworm trixie bullseye"
wheel=""
rebuild=0
while [ $# -gt 0 ]; do
  case "$1" in
    --wheel) wheel=$(realpath "$2"); shift ;;
    --suites) suites=$2; shift ;;
    --rebuild-chroots) rebuild=1 ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    *) echo "test-wheel.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
# shellcheck source=lib/chroot.sh
. "$root/scripts/lib/chroot.sh"
start=$(date +%s)
phase() { echo "== $* ($(($(date +%s) - start))s)"; }
[ -z "$chroot_sudo" ] || sudo -n true 2>/dev/null ||
  { echo "test-wheel.sh: needs root or password-less sudo (mmdebstrap, chroot)" >&2; exit 3; }

if [ -z "$wheel" ]; then
  phase "building the wheel from $build"
  rm -rf "$build/wheel-test"
  wheel=$("$root/scripts/build-wheel.sh" --out "$build/wheel-test" 2>"$build/wheel-test.log") ||
    { cat "$build/wheel-test.log" >&2; echo "test-wheel.sh: cannot build the wheel" >&2; exit 2; }
fi
[ -f "$wheel" ] || { echo "test-wheel.sh: no wheel $wheel" >&2; exit 2; }
phase "wheel: $(basename "$wheel") ($(du -m "$wheel" | cut -f1) MB)"

# Its files, read here: what each needs of glibc, libstdc++ and libgcc_s.
host_pass=0
host_fail=0
host_check() {  # NAME EXIT PATTERN -- COMMAND...
  local name=$1 want=$2 pat=$3 got=0
  shift 4
  "$@" >"$build/wheel-host-check.txt" 2>&1 || got=$?
  if [ "$got" = "$want" ] && { [ -z "$pat" ] || grep -qE -- "$pat" "$build/wheel-host-check.txt"; }; then
    host_pass=$((host_pass + 1)); echo "  ok   $name"
  else
    host_fail=$((host_fail + 1)); echo "  FAIL $name: exit $got (expected $want), output:"; sed 's/^/       | /' "$build/wheel-host-check.txt" | head -20
  fi
}
files=$build/wheel-files
rm -rf "$files"
python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$wheel" "$files"
mapfile -t elves < <(find "$files" -type f -exec sh -c 'head -c4 "$1" | grep -q "^.ELF" && echo "$1"' _ {} \; | sort)
floor_check=(python3 "$root/packaging/glibc_floor.py" --max 2.28 --check)
host_check "the wheel's ${#elves[@]} ELF files need nothing newer than glibc 2.28 or what they ship" 0 '' -- \
  "${floor_check[@]}" "${elves[@]}"
host_check "the check fires on a file built for a newer glibc (Debian's libstdc++)" 1 'GLIBC_2\.(29|3[0-9])' -- \
  "${floor_check[@]}" "$(readlink -f "$(ldconfig -p | sed -n 's/^\s*libstdc++\.so\.6 (libc6,x86-64) => //p' | head -n1)")"
host_check "the command is the program itself (torchabi-X.data/scripts/torchabi, ELF)" 0 '^ELF$' -- \
  sh -c 'f=$(ls "$1"/torchabi-*.data/scripts/torchabi) && head -c4 "$f" | tail -c3 && echo' _ "$files"
rm -rf "$files"

# What the checks read, at the same relative paths as in the repository.
fixtures=(
  fixtures/stable_ext fixtures/legacy_ext fixtures/lint/include fixtures/projects/configs/nvcc_without_target
  fixtures/runtime/good_ops.yaml scripts/ci/action-install.sh scripts/ci/action-check.sh
  "${build#"$root"/}/fixtures/stable_ext/libstable_ext.so" "${build#"$root"/}/fixtures/stable_ext/libstable_ext_2_12.so"
  "${build#"$root"/}/fixtures/runtime/good_ops.so"
  "${build#"$root"/}/fixtures/wheels/ext212_too_old-1.0-cp311-cp311-linux_x86_64.whl"
  "${build#"$root"/}/fixtures/conda/stable_ext-1.0-py311_0.conda"
)
for f in "${fixtures[@]}"; do
  # (a BUILD_DIR outside the repository is named by its absolute path)
  [ -e "$f" ] || [ -e "$root/$f" ] || { echo "test-wheel.sh: $f is missing (build the fixtures: scripts/build.sh)" >&2; exit 2; }
done
# The legacy sample's at::/c10:: headers (migrate parses them): Debian's
# libtorch-dev, or the copy the README's first command unpacks.
torch_headers=""
for d in /usr/include "$build/legacy-torch-headers/usr/include"; do
  [ -f "$d/ATen/ATen.h" ] && { torch_headers=$d; break; }
done

rel=${build#"$root"/}
rel=${rel#/}  # where `cp --parents` puts the build's fixtures in the test directory
need=$(basename "$wheel" | sed -n 's/.*manylinux_2_\([0-9]*\)_.*/\1/p')  # the glibc minor the tag names
cat >"$build/wheel-checks.sh" <<EOF
#!/bin/sh
# Generated by scripts/test-wheel.sh: runs inside the chroot, in the test directory.
cd "\$(dirname "\$0")"
# A new user: nothing cached from an earlier run (lint results, preambles).
HOME=\$PWD/home
export HOME
mkdir -p "\$HOME"
pass=0; fail=0
# expect NAME EXIT PATTERN... -- COMMAND...: the exit code and a line matching each
# pattern (grep -E); a pattern !P: no line matches P.
expect() {
  name=\$1; want=\$2; shift 2
  pats=""
  while [ "\$1" != "--" ]; do pats="\$pats
\$1"; shift; done
  shift
  "\$@" >out.txt 2>&1
  got=\$?
  ok=1
  [ "\$got" = "\$want" ] || ok=0
  missing=""
  for p in \$pats; do
    case "\$p" in
      !*) ! grep -qE -- "\${p#!}" out.txt || { ok=0; missing="\$missing [not \${p#!}]"; } ;;
      *) grep -qE -- "\$p" out.txt || { ok=0; missing="\$missing [\$p]"; } ;;
    esac
  done
  if [ "\$ok" = 1 ]; then pass=\$((pass + 1)); echo "  ok   \$name"
  else fail=\$((fail + 1)); echo "  FAIL \$name: exit \$got (expected \$want)\${missing:+, no line matching\$missing}"; sed 's/^/       | /' out.txt | head -20; fi
}
IFS='
'
expect "no compiler, no -dev package, no libclang here" 0 '^none\$' -- sh -c \
  'found=\$(command -v cc gcc g++ clang c++; dpkg-query -W -f "\\\${Package}\\n" | grep -E -- "-dev\$|^libclang|^libllvm|^clang"); echo "\${found:-none}"'
# A glibc older than the wheel's tag promises to need: pip must refuse it.
have=\$(ldd --version | head -n1 | grep -oE '[0-9]+\.[0-9]+\$' | cut -d. -f2)
if [ "\$have" -lt "$need" ]; then
  expect "pip refuses the wheel here (glibc 2.\$have, the wheel needs 2.$need)" 1 'is not a supported wheel on this platform' -- \
    sh -c 'python3 -m venv venv && venv/bin/pip install --no-index --disable-pip-version-check ./$(basename "$wheel")'
  echo "\$pass passed, \$fail failed"
  [ "\$fail" = 0 ]
  exit
fi
expect "pip install --no-index of the wheel into a fresh venv" 0 'Successfully installed torchabi' -- \
  sh -c 'python3 -m venv venv && venv/bin/pip install --no-index --disable-pip-version-check ./$(basename "$wheel")'
PATH=\$PWD/venv/bin:\$PATH
export PATH
# An extension's setup.py imports setuptools, which a build machine's Python
# has; Python 3.12+ venvs start without it: Debian's copy of its wheel.
python -c 'import setuptools' 2>/dev/null ||
  expect "setuptools into the venv (for setup.py)" 0 'Successfully installed setuptools' -- \
    pip install --no-index --disable-pip-version-check --find-links /usr/share/python-wheels setuptools
expect "--version names the shipped libclang" 0 '^torchabi [0-9]' '^rules: embedded rules, derived from PyTorch' \
  '^libclang: clang version [0-9.]+, /.*/site-packages/torchabi/lib/libclang-[0-9]+\.so' -- torchabi --version
expect "python -m torchabi" 0 '^torchabi [0-9]' -- python -m torchabi --version
expect "the venv's torchabi is the program itself, no interpreter first" 0 '^True\$' -- \
  python3 -c 'print(open("venv/bin/torchabi", "rb").read(4) == b"\\x7fELF")'
mkdir -p linkbin
ln -sf "\$PWD/venv/bin/torchabi" linkbin/torchabi
expect "through a symbolic link (pipx's and uv's bin/): the package found from the real location" 0 \
  '^libclang: clang version [0-9.]+, /.*/venv/lib/python3[0-9.]*/site-packages/torchabi/lib/libclang' -- linkbin/torchabi --version
expect "pip install --prefix: the program in PREFIX/bin finds PREFIX's site-packages" 0 'Successfully installed torchabi' -- \
  pip install --no-index --disable-pip-version-check --ignore-installed --prefix "\$PWD/pfx" ./$(basename "$wheel")
expect "run from the --prefix install (the runtime found in its package)" 0 '10 cases: 10 passed, 0 failed' -- \
  env PYTHONPATH= pfx/bin/torchabi run $rel/fixtures/runtime/good_ops.so --cases fixtures/runtime/good_ops.yaml
if command -v pipx >/dev/null; then
  # Offline, pipx's own pip comes from Debian's wheel of it (a new pipx upgrades it first).
  expect "pipx run --spec of the wheel" 0 '^torchabi [0-9]' -- \
    env PIPX_HOME=\$PWD/pipx PIPX_BIN_DIR=\$PWD/pipx/bin PIP_NO_INDEX=1 PIP_FIND_LINKS=/usr/share/python-wheels \
    pipx run --spec ./$(basename "$wheel") torchabi --version
fi
expect "rules list (rules compiled in)" 0 'binary-unstable-import' -- torchabi rules list
expect "audit a .so" 0 'libstable_ext_2_12.so: STABLE — PyTorch >= 2.12' -- \
  torchabi audit $rel/fixtures/stable_ext/libstable_ext_2_12.so
expect "audit a wheel (libzip loaded from the wheel)" 1 '\[binary-wheel-requires-too-old\]' 'STABLE — PyTorch >= 2.12' -- \
  torchabi audit $rel/fixtures/wheels/ext212_too_old-1.0-cp311-cp311-linux_x86_64.whl
expect "audit a .conda" 0 'stable_ext-1.0-py311_0.conda: STABLE — PyTorch >= 2.10' -- \
  torchabi audit $rel/fixtures/conda/stable_ext-1.0-py311_0.conda
expect "check a library against a target" 1 '\[version-import-after-target\]' -- \
  torchabi check -q --target-version 2.10 $rel/fixtures/stable_ext/libstable_ext_2_12.so
expect "check a repository (setup.py run, sources linted)" 1 '\[build-target-version-inconsistent\]' \
  'setup.py run in CPython' -- \
  torchabi check -q --torch-include fixtures/lint/include fixtures/projects/configs/nvcc_without_target
# No C++ standard library here (no compiler): clang's own headers, shipped
# in the wheel, are what a source without libstdc++ can include.
printf '#include <stddef.h>\\n#include <stdarg.h>\\nsize_t count(int n, ...);\\n' >plain.c
expect "lint with the shipped libclang and clang's own headers" 0 '0 errors' '!source-parse-incomplete|not found' -- \
  torchabi lint plain.c -- -std=c11
expect "lint from the --prefix install (its libclang)" 0 '0 errors' -- pfx/bin/torchabi lint plain.c -- -std=c11
expect "lint finds hand-written shim declarations (AST checks)" 1 '\[source-shim-declaration-mismatch\]' -- \
  torchabi lint fixtures/stable_ext/stable_ext.cpp -- -std=c++17 -Ifixtures/lint/include
expect "run a leaking extension" 1 '\[runtime-handle-leak\]' -- torchabi run $rel/fixtures/stable_ext/libstable_ext.so
expect "run an extension's cases" 0 '10 cases: 10 passed, 0 failed' -- \
  torchabi run $rel/fixtures/runtime/good_ops.so --cases fixtures/runtime/good_ops.yaml
# The GitHub Action's steps (action.yml): install from the wheel, no compiler.
mkdir -p runner
expect "the Action's install step: the wheel into a venv, on GITHUB_PATH" 0 '^torchabi [0-9]' -- \
  env RUNNER_TEMP=\$PWD/runner GITHUB_PATH=\$PWD/github_path TORCHABI_WHEEL=./$(basename "$wheel") \
  bash scripts/ci/action-install.sh
expect "the Action's check step with it: SARIF, summary, exit code" 0 '"ruleId": *"version-import-after-target"' \
  'exit-code=1' -- sh -c 'PATH=\$(cat github_path):\$PATH TORCHABI_ARGS="$rel/fixtures/stable_ext/libstable_ext_2_12.so --target-version 2.10" \
  TORCHABI_SARIF=r.sarif GITHUB_STEP_SUMMARY=summary.md GITHUB_OUTPUT=gh_output bash scripts/ci/action-check.sh; \
  cat r.sarif gh_output; grep -q version-import-after-target summary.md'
if [ -d torch-headers ]; then
  expect "migrate a classic at::/c10:: extension" 0 '^## torchabi migrate: plan to the LibTorch stable ABI' \
    'TORCH_CHECK. \| 1 \| .STD_TORCH_CHECK' -- \
    torchabi migrate fixtures/legacy_ext/legacy_ext.cpp -- -std=c++17 -isystem torch-headers
else
  echo "  skip migrate: no at::/c10:: headers on the build machine (libtorch-dev)"
fi
echo "\$pass passed, \$fail failed"
[ "\$fail" = 0 ]
EOF
chmod +x "$build/wheel-checks.sh"

status=0
total_pass=0
total_fail=0
for suite in $suites; do
  dir=$cache/wheel-$suite
  [ "$rebuild" = 1 ] && $chroot_sudo rm -rf "$dir"
  if [ ! -f "$dir/.torchabi-ready" ]; then
    phase "building the bare $suite chroot in $dir (once)"
  fi
  packages=python3,python3-venv,pipx
  # (bullseye's pipx 0.12 cannot run offline: `pipx run` is checked on the others)
  [ "$suite" = bullseye ] && packages=python3,python3-venv
  cached_chroot "$suite" "$dir" "$packages" || exit 3
  work_in=/tmp/torchabi-wheel-test
  work=$dir$work_in
  $chroot_sudo rm -rf "$work"
  $chroot_sudo mkdir -p "$work"
  $chroot_sudo chown "$(id -u)" "$work"
  cp "$wheel" "$build/wheel-checks.sh" "$work/"
  (cd "$root" && cp -r --parents "${fixtures[@]}" "$work/")
  if [ -n "$torch_headers" ]; then
    mkdir -p "$work/torch-headers"
    for d in ATen c10 torch caffe2; do
      [ -d "$torch_headers/$d" ] && cp -r "$torch_headers/$d" "$work/torch-headers/"
    done
  fi
  phase "$suite: $(in_chroot "$dir" sh -c '. /etc/os-release; echo "$PRETTY_NAME, $(python3 --version), glibc $(ldd --version | head -n1 | grep -oE "[0-9.]+$")"')"
  suite_start=$(date +%s)
  rc=0
  in_chroot "$dir" sh "$work_in/wheel-checks.sh" | tee "$build/wheel-checks-$suite.log" || rc=$?
  if ! tail -n1 "$build/wheel-checks-$suite.log" | grep -qE '^[0-9]+ passed, [0-9]+ failed$'; then
    echo "test-wheel.sh: the checks did not run in the $suite chroot (exit $rc)" >&2
    exit 3
  fi
  read -r p _ f _ < <(tail -n1 "$build/wheel-checks-$suite.log")
  total_pass=$((total_pass + p))
  total_fail=$((total_fail + f))
  [ "$rc" = 0 ] || status=1
  echo "   $suite: $(($(date +%s) - suite_start)) s"
  $chroot_sudo rm -rf "$work"
done
phase "done"
total_pass=$((total_pass + host_pass))
total_fail=$((total_fail + host_fail))
[ "$host_fail" = 0 ] || status=1
echo "$total_pass passed, $total_fail failed"
exit "$status"
