# Sourced by the scripts that download Debian packages without touching the
# machine's apt configuration (fetch-torch.sh, build-python-rules.sh):
#
#   private_apt DIR SUITE
#
# reads Debian SUITE's package lists from the mirror the machine already uses
# into DIR (its own sources, lists, cache and an empty dpkg status: nothing is
# installed as far as this apt knows) and sets the array `apt_opts`, to pass
# to apt-get and apt-cache. Returns 1, with DIR/update.log, when the lists
# cannot be read. The mirror's Release files may be dated: validity is not
# checked.
private_apt() {
  local dir suite mirror
  # apt reads relative Dir:: paths against /etc/apt: make DIR absolute.
  dir=$(realpath -m "$1")
  suite=$2
  mkdir -p "$dir/etc" "$dir/lists/partial" "$dir/cache/archives/partial"
  : >"$dir/status"
  mirror=$(grep -hoE '^(URIs:|deb) +https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null |
    grep -oE 'https?://[^ ]+' | head -n1 || true)
  mirror=${mirror:-http://deb.debian.org/debian}
  cat >"$dir/etc/torchabi.sources" <<SOURCES
Types: deb
URIs: $mirror
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
  apt_opts=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$dir/etc"
    -o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache"
    -o "Dir::State::status=$dir/status" -o "Acquire::Check-Valid-Until=false"
    -o "APT::Sandbox::User=root" -o "Debug::NoLocking=true")
  apt_mirror=$mirror
  apt-get "${apt_opts[@]}" -qq update >"$dir/update.log" 2>&1
}
