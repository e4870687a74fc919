#!/usr/bin/env bash
# Builds Helm from the Go module proxy (tools/helm/go.mod pins helm.sh/helm/v4, its cmd/helm is a
# `tool` of the module), for the chart tests and CI: `helm lint`, `helm template`, `helm install`.
# Also fetches the upstream Gateway API CRDs (tools/helm/gateway-api/go.mod pins
# sigs.k8s.io/gateway-api; its module zip carries config/crd), which the chart's install test
# applies so the real apiserver validates the HTTPRoute.
# Cached by version outside the repository, so a warm run builds nothing:
#   ${DOCSNAP_CACHE_DIR:-~/.cache/docsnap}/helm/helm-<ver>/helm
#   ${DOCSNAP_CACHE_DIR:-~/.cache/docsnap}/gateway-api/gateway-api-<ver>/*.yaml (the standard channel)
# When DOCSNAP_HELM names an executable, it is used as it is and nothing is built.
# Prints HELM=… and GATEWAY_API_CRDS=… as shell assignments on its last lines.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${DOCSNAP_CACHE_DIR:-$HOME/.cache/docsnap}
export GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0

# The version a wrapper module pins, read from its go.mod require line (the single source).
pinned() { awk -v m="$2" '$1 == "require" && $2 == m { print $3 } $1 == m { print $2 }' "$here/$1/go.mod" | head -n 1; }

helm_version=$(pinned . helm.sh/helm/v4)
gateway_version=$(pinned gateway-api sigs.k8s.io/gateway-api)

log() { printf '[helm] %s\n' "$*" >&2; }

command -v go >/dev/null || { log "Go is required to build helm (the version tools/helm/go.mod names, or newer)"; exit 1; }

# Test files of both projects may ask at once: one builds, the others wait for it.
mkdir -p "$cache"
exec 9>"$cache/.helm-build.lock"
flock 9

if [[ -n ${DOCSNAP_HELM:-} && -x $DOCSNAP_HELM ]]; then
  helm=$DOCSNAP_HELM
  log "using DOCSNAP_HELM=$helm"
else
  helm=$cache/helm/helm-${helm_version#v}/helm
  if [[ -x $helm ]]; then
    log "cached helm ($helm)"
  else
    start=$SECONDS
    log "building helm $helm_version from helm.sh/helm/v4/cmd/helm ..."
    mkdir -p "$(dirname "$helm")"
    # The stamp a release build sets, so `helm version` names the release.
    (cd "$here" && go build -trimpath \
      -ldflags "-s -w -X helm.sh/helm/v4/internal/version.version=$helm_version -X helm.sh/helm/v4/internal/version.gitTreeState=clean" \
      -o "$helm.tmp" helm.sh/helm/v4/cmd/helm)
    mv "$helm.tmp" "$helm"
    log "built helm in $((SECONDS - start)) s"
  fi
fi

crds=$cache/gateway-api/gateway-api-${gateway_version#v}
if [[ -f $crds/gateway.networking.k8s.io_httproutes.yaml ]]; then
  log "cached Gateway API CRDs ($crds)"
else
  log "fetching Gateway API $gateway_version CRDs from the module proxy ..."
  dir=$(cd "$here/gateway-api" && go mod download -json sigs.k8s.io/gateway-api |
    awk -F'"' '$2 == "Dir" { print $4 }')
  [[ -d $dir/config/crd/standard ]] || { log "no config/crd/standard in sigs.k8s.io/gateway-api $gateway_version"; exit 1; }
  rm -rf "$crds.tmp"
  mkdir -p "$crds.tmp"
  cp "$dir"/config/crd/standard/gateway.networking.k8s.io_*.yaml "$crds.tmp/"
  chmod u+w "$crds.tmp"/*.yaml # the module cache is read-only
  rm -rf "$crds"
  mv "$crds.tmp" "$crds"
fi

echo "HELM=$helm"
echo "GATEWAY_API_CRDS=$crds"
