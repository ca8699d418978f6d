#!/usr/bin/env bash
# bench/accuracy/migrate_public/fetch-corpus.sh MIRROR_DIR [CORPUS_DIR]
# Copies corpus.tsv's files out of local git snapshots of their repositories
# (MIRROR_DIR/<owner>+<name>/repo, as the public-repository fetch leaves them)
# into CORPUS_DIR (default: TORCHABI_PUBLIC_LEGACY or
# ~/.cache/torchabi/public-legacy), each checked against its sha256. Rows whose
# repository is not in MIRROR_DIR, or that were read from the code index
# (commit "-"), are listed and left for a copy by hand. Only reads: nothing is built.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mirror=${1:?usage: fetch-corpus.sh MIRROR_DIR [CORPUS_DIR]}
corpus=${2:-${TORCHABI_PUBLIC_LEGACY:-$HOME/.cache/torchabi/public-legacy}}
[ -d "$mirror" ] || { echo "fetch-corpus: $mirror: not a directory" >&2; exit 2; }
copied=0 left=0
while IFS=$'\t' read -r file repo path commit sha _; do
  case "$file" in ''|'#'*|file) continue ;; esac
  git_dir="$mirror/${repo/\//+}/repo"
  if [ "$commit" = - ] || [ ! -d "$git_dir" ]; then
    [ -f "$corpus/$file" ] || { echo "fetch-corpus: by hand: $file ($repo $path @ $commit)" >&2; left=$((left + 1)); }
    continue
  fi
  mkdir -p "$(dirname "$corpus/$file")"
  tmp="$corpus/$file.part"
  git -C "$git_dir" show "$commit:$path" >"$tmp" ||
    { rm -f "$tmp"; echo "fetch-corpus: $file: $commit:$path is not in $git_dir" >&2; exit 2; }
  got=$(sha256sum "$tmp" | cut -d' ' -f1)
  [ "$got" = "$sha" ] || { rm -f "$tmp"; echo "fetch-corpus: $file: sha256 $got is not the recorded $sha" >&2; exit 2; }
  mv "$tmp" "$corpus/$file"
  copied=$((copied + 1))
done <"$here/corpus.tsv"
echo "fetch-corpus: $copied files in $corpus; $left to copy by hand"
