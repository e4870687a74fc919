#!/usr/bin/env bash
# Builds the real servers the integration tests run against, from the Go module proxy:
#   kube-apiserver + kubectl (tools/envtest/kubernetes), etcd (tools/envtest/etcd),
#   versitygw, an S3-compatible server (tools/envtest/versitygw).
# Binaries are cached by version outside the repository, so a warm run builds nothing:
#   ${DOCSNAP_CACHE_DIR:-~/.cache/docsnap}/envtest/k8s-<ver>_etcd-<ver>/{kube-apiserver,kubectl,etcd}
#   ${DOCSNAP_CACHE_DIR:-~/.cache/docsnap}/s3/versitygw-<ver>/versitygw
# When KUBEBUILDER_ASSETS names a directory holding kube-apiserver, etcd and kubectl, those are
# used as they are and nothing is built for Kubernetes.
# Prints the two directories as shell assignments on its last lines (ENVTEST_DIR=…, S3_DIR=…).
# With --check it builds nothing and exits 0 when everything is cached, 3 when something is not.
# With --kubernetes-only it leaves versitygw out (npm start needs no S3 server).
# With --node it also builds what a real node needs (the e2e cluster): kubelet, kube-scheduler,
# kube-controller-manager and kube-proxy, from the same wrapper module and version.
set -euo pipefail
check_only=false
kubernetes_only=false
node=false
for arg in "$@"; do
  case $arg in
    --check) check_only=true ;;
    --kubernetes-only) kubernetes_only=true ;;
    --node) node=true ;;
    *) echo "usage: $0 [--check] [--kubernetes-only] [--node]" >&2; exit 2 ;;
  esac
done

here=$(cd "$(dirname "$0")" && pwd)
cache=${DOCSNAP_CACHE_DIR:-$HOME/.cache/docsnap}
export GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0

# The version a wrapper module pins, read from its go.mod require line (the single source).
pinned() { awk -v m="$2" '$1 == "require" && $2 == m { print $3 } $1 == m { print $2 }' "$here/$1/go.mod" | head -n 1; }

k8s_version=$(pinned kubernetes k8s.io/kubernetes)
etcd_version=$(pinned etcd go.etcd.io/etcd/server/v3)
vgw_version=$(pinned versitygw github.com/versity/versitygw)

log() { printf '[envtest] %s\n' "$*" >&2; }

# go build of one tool package of a wrapper module, into $out, unless it is already there.
build_tool() {
  local module=$1 pkg=$2 out=$3 ldflags=${4:-}
  if [[ -x $out ]]; then $check_only || log "cached $(basename "$out") ($out)"; return; fi
  if $check_only; then log "not built yet: $(basename "$out")"; exit 3; fi
  command -v go >/dev/null || { log "go is missing: Go 1.26 or newer builds the test servers (https://go.dev/dl/)"; exit 1; }
  local start=$SECONDS
  log "building $(basename "$out") from $pkg ..."
  mkdir -p "$(dirname "$out")"
  (cd "$here/$module" && go build -trimpath -ldflags "-s -w $ldflags" -o "$out.tmp" "$pkg")
  mv "$out.tmp" "$out"
  log "built $(basename "$out") in $((SECONDS - start)) s"
}

if [[ -n ${KUBEBUILDER_ASSETS:-} && -x $KUBEBUILDER_ASSETS/kube-apiserver && -x $KUBEBUILDER_ASSETS/etcd && -x $KUBEBUILDER_ASSETS/kubectl ]]; then
  envtest_dir=$KUBEBUILDER_ASSETS
  $check_only || log "using KUBEBUILDER_ASSETS=$envtest_dir"
else
  envtest_dir=$cache/envtest/k8s-${k8s_version#v}_etcd-${etcd_version#v}
  # The same stamps a release build sets, so /version (read by kubectl and Helm) is the real one.
  minor=$(cut -d. -f2 <<<"${k8s_version#v}")
  vpkgs=(k8s.io/component-base/version k8s.io/client-go/pkg/version)
  ldflags=""
  for p in "${vpkgs[@]}"; do
    ldflags+=" -X $p.gitVersion=$k8s_version -X $p.gitMajor=1 -X $p.gitMinor=$minor"
    ldflags+=" -X $p.gitTreeState=clean -X $p.buildDate=1970-01-01T00:00:00Z"
  done
  build_tool kubernetes k8s.io/kubernetes/cmd/kube-apiserver "$envtest_dir/kube-apiserver" "$ldflags"
  build_tool kubernetes k8s.io/kubernetes/cmd/kubectl "$envtest_dir/kubectl" "$ldflags"
  build_tool etcd go.etcd.io/etcd/server/v3 "$envtest_dir/etcd"
  if $node; then
    for component in kubelet kube-proxy kube-scheduler kube-controller-manager; do
      build_tool kubernetes "k8s.io/kubernetes/cmd/$component" "$envtest_dir/$component" "$ldflags"
    done
  fi
fi

s3_dir=$cache/s3/versitygw-${vgw_version#v}
$kubernetes_only || build_tool versitygw github.com/versity/versitygw/cmd/versitygw "$s3_dir/versitygw" \
  "-X main.Version=$vgw_version"

echo "ENVTEST_DIR=$envtest_dir"
echo "S3_DIR=$s3_dir"
