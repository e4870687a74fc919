#!/usr/bin/env bash
# Builds tools/argocd-health (gopher-lua, the Lua VM Argo CD runs health checks with) from the Go
# module proxy, for the test of config/argocd/staticexport-health.lua. Cached by the hash of its
# sources outside the repository: ${DOCSNAP_CACHE_DIR:-~/.cache/docsnap}/argocd-health/<hash>/argocd-health
# Prints ARGOCD_HEALTH=… on its last line.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${DOCSNAP_CACHE_DIR:-$HOME/.cache/docsnap}
export GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0

command -v go >/dev/null || { echo "[argocd-health] Go is required to build it" >&2; exit 1; }
hash=$(cat "$here/main.go" "$here/go.mod" "$here/go.sum" | sha256sum | cut -c1-16)
binary=$cache/argocd-health/$hash/argocd-health
mkdir -p "$cache"
exec 9>"$cache/.argocd-health-build.lock"
flock 9
if [[ ! -x $binary ]]; then
  echo "[argocd-health] building ($binary)" >&2
  mkdir -p "$(dirname "$binary")"
  (cd "$here" && go build -trimpath -o "$binary.tmp" .)
  mv "$binary.tmp" "$binary"
fi
echo "ARGOCD_HEALTH=$binary"
