#!/usr/bin/env bash
# Builds the docsnap image from the Dockerfile with buildah, where no container registry can be
# reached: the FROM image (docker.io/library/node:24-bookworm-slim) is assembled locally first from
# Debian's packages (mmdebstrap, the bookworm minbase plus ca-certificates) and the Node binary of
# the `node` npm package (with npm from the machine's Debian npm), and tagged under that name, so
# the Dockerfile stays the one `docker build` uses.
#   tools/image/build.sh [TAG]        (default docsnap:<package.json version>)
# Needs root, buildah and mmdebstrap (apt-get install buildah mmdebstrap), node_modules and the
# native parser (tools/build-native.sh). Builds dist/ first. Prints IMAGE=… and SIZE=… last.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
version=$(node -p "require('$here/package.json').version")
tag=${1:-docsnap:$version}
base=docker.io/library/node:24-bookworm-slim
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# crun refuses cgroup v1 hybrid hosts (these VMs); chroot isolation needs no OCI runtime to build.
log() { printf '[image] %s\n' "$*" >&2; }
start=$SECONDS

log "npm run build (dist/ from the current sources)"
(cd "$here" && npm run build --silent >/dev/null)
[[ -f $here/native/markdown/docsnap-markdown.node ]] || { log "the native parser is missing: run tools/build-native.sh"; exit 1; }

if ! buildah inspect --type image "$base" >/dev/null 2>&1; then
  log "assembling $base locally (mmdebstrap bookworm minbase + Node $("$here/node_modules/node/bin/node" --version))"
  mmdebstrap --quiet --variant=minbase --include=ca-certificates \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' bookworm "$work/rootfs.tar"
  mkdir -p "$work/node/usr/local/bin" "$work/node/usr/local/lib/node_modules"
  cp "$here/node_modules/node/bin/node" "$work/node/usr/local/bin/node"
  strip --strip-unneeded "$work/node/usr/local/bin/node"
  cp -r "$(dirname "$(readlink -f "$(command -v npm)")")/.." "$work/node/usr/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/node/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$work/node/usr/local/bin/npx"
  container=$(buildah from scratch)
  buildah add "$container" "$work/rootfs.tar" / >/dev/null
  buildah copy "$container" "$work/node" / >/dev/null
  buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --env NODE_VERSION="$("$here/node_modules/node/bin/node" -p 'process.versions.node')" \
    --cmd node "$container"
  buildah commit --quiet "$container" "$base" >/dev/null
  buildah rm "$container" >/dev/null
fi

# A machine behind a TLS-inspecting proxy trusts an extra CA (NODE_EXTRA_CA_CERTS): npm in the
# build gets it through mounts that exist for the RUN steps only and never enter the image.
mounts=()
if [[ -n ${NODE_EXTRA_CA_CERTS:-} && -f $NODE_EXTRA_CA_CERTS ]]; then
  printf 'cafile=/run/docsnap-build/ca.crt\n' >"$work/npmrc"
  mounts+=(--volume "$NODE_EXTRA_CA_CERTS:/run/docsnap-build/ca.crt:ro" --volume "$work/npmrc:/root/.npmrc:ro")
fi
log "building $tag from the Dockerfile"
buildah build --quiet --isolation chroot --network host --layers "${mounts[@]}" -t "$tag" \
  --build-arg VERSION="$version" -f "$here/Dockerfile" "$here" >/dev/null
size=$(buildah images --format '{{.Size}}' "$tag" | head -n 1)
log "built $tag in $((SECONDS - start)) s"
echo "IMAGE=$tag"
echo "SIZE=$size"
