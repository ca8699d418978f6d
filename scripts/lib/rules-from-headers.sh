# Sourced by the scripts that regenerate a rules file from PyTorch's stable
# headers (build-cxx-rules.sh, build-kernel-types.sh):
#
#   rules_from_headers REQUIRED_FILE [INCLUDE_DIR]
#
# sets `root` (the repository), `include` (INCLUDE_DIR, default Debian's newest
# PyTorch unpacked by scripts/fetch-torch.sh), `torchabi` ($TORCHABI, else
# build/torchabi) and `tmp` (a directory removed on exit), after checking that
# INCLUDE_DIR holds REQUIRED_FILE (relative to it); exits 1 saying so otherwise.
rules_from_headers() {
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  include=${2:-$root/build/torch-sid/root/usr/include}
  torchabi=${TORCHABI:-$root/build/torchabi}
  if [ ! -e "$include/$1" ]; then
    echo "$include: no $1 (run scripts/fetch-torch.sh)" >&2
    exit 1
  fi
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
}
