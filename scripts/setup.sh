#!/usr/bin/env bash
# Brings a Debian 12 machine to the state Tracemill needs: system packages, npm packages, a build.
# Idempotent and quick when everything is there. Usage: scripts/setup.sh [--for start|test]
set -euo pipefail
cd "$(dirname "$0")/.."

purpose="${2:-test}"
[ "${1:-}" = "--for" ] || purpose="test"

say() { printf '[setup] %s\n' "$*"; }
die() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }

# --- Node.js: Debian 12 ships 18, Tracemill needs 20.19 or newer.
command -v node >/dev/null || die "Node.js 20.19+ is not installed. Install Node.js 20 (e.g. the nodejs package of a Node 20 repository), then run this again."
node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' \
  || die "Node.js $(node --version) is too old: Tracemill needs 20.19 or newer."

# --- System packages. Suricata 7 comes from bookworm-backports.
# command → Debian package; the browser and capture tools are needed for the tests only.
need=(suricata:suricata)
if [ "$purpose" = "test" ]; then
  need+=(chromium:chromium tshark:tshark tcpdump:tcpdump mergecap:wireshark-common editcap:wireshark-common capinfos:wireshark-common)
fi
missing=()
for pair in "${need[@]}"; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
done
# PostgreSQL 15+ for the tests of PostgreSQL mode, which start a throw-away cluster of their own (initdb, pg_ctl are
# not on PATH in Debian: /usr/lib/postgresql/<major>/bin).
if [ "$purpose" = "test" ]; then
  postgres_found=0
  for initdb in /usr/lib/postgresql/*/bin/initdb; do
    major="${initdb#/usr/lib/postgresql/}"
    major="${major%%/*}"
    if [ -x "$initdb" ] && [ "$major" -ge 15 ] 2>/dev/null; then postgres_found=1; fi
  done
  [ "$postgres_found" = 1 ] || missing+=(postgresql)
fi
if [ "${#missing[@]}" -gt 0 ]; then
  # shellcheck disable=SC2207
  missing=($(printf '%s\n' "${missing[@]}" | sort -u))
  say "installing system packages: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || die "missing system packages (${missing[*]}) and not root: run as root or install sudo."
    sudo="sudo"
  fi
  if ! grep -rqs "bookworm-backports" /etc/apt/sources.list /etc/apt/sources.list.d/; then
    say "adding the bookworm-backports repository (for Suricata 7)"
    printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      | $sudo tee /etc/apt/sources.list.d/bookworm-backports.sources >/dev/null
  fi
  $sudo apt-get update -qq || die "apt-get update failed: check the network and /etc/apt/sources.list.d."
  export DEBIAN_FRONTEND=noninteractive
  for pkg in "${missing[@]}"; do
    if [ "$pkg" = "suricata" ]; then
      $sudo apt-get install -y -qq -t bookworm-backports suricata >/dev/null \
        || die "could not install Suricata 7 from bookworm-backports (apt-get install -t bookworm-backports suricata)."
    else
      $sudo apt-get install -y -qq "$pkg" >/dev/null || die "could not install the Debian package '$pkg' (apt-get install $pkg)."
    fi
  done
fi
suricata_major=$(suricata -V 2>/dev/null | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
[ "${suricata_major:-0}" -ge 7 ] || die "Suricata 7 or newer is needed (found: $(suricata -V 2>&1 | head -1)). Install it with: apt-get install -t bookworm-backports suricata"

# --- npm packages: install when node_modules is missing or older than the lock file.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi

# --- Build (incremental).
say "building"
npm run --silent build >/dev/null
say "ready"
