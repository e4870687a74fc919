#!/usr/bin/env bash
# Runs the built image with runc, from the image's own config (entrypoint, env, user, workdir),
# and checks what a cluster relies on: `docsnap --version` works, the process is not root, the root
# filesystem is read-only (work goes to a /tmp volume), and SIGTERM ends a running face with exit
# code 0 within the grace period. podman would do, but on these VMs it cannot start a container
# (no CAP_SYS_RESOURCE for its default rlimits, and crun refuses hybrid cgroups): runc can.
#   tools/image/check.sh [IMAGE]      (default docsnap:<package.json version>)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
image=${1:-docsnap:$(node -p "require('$here/package.json').version")}
work=$(mktemp -d)
container=$(buildah from --pull-never "$image")
bundle=$work/bundle
cleanup() {
  runc delete --force "docsnap-check-$$" >/dev/null 2>&1 || true
  buildah umount "$container" >/dev/null 2>&1 || true
  buildah rm "$container" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
log() { printf '[check] %s\n' "$*" >&2; }
fail() { log "FAILED: $*"; exit 1; }

mkdir -p "$bundle"
rootfs=$(buildah mount "$container")
# runc wants the root as a real directory path.
image_config=$(buildah inspect --type image "$image" | node -e 'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>process.stdout.write(JSON.stringify(JSON.parse(s).OCIv1.config)))')

# config.json for one command: the image's user, env and workdir; read-only root; /tmp a tmpfs;
# the host's network (the check talks to the process on loopback); no rlimits to set.
spec() {
  (cd "$bundle" && rm -f config.json && runc spec)
  ROOTFS=$rootfs IMAGE_CONFIG=$image_config node -e '
    const fs = require("fs");
    const [file, ...args] = process.argv.slice(1);
    const image = JSON.parse(process.env.IMAGE_CONFIG);
    const spec = JSON.parse(fs.readFileSync(file, "utf8"));
    const [uid, gid] = (image.User || "0:0").split(":").map(Number);
    spec.process.terminal = false;
    spec.process.user = { uid, gid: gid || 0 };
    spec.process.args = args.length && args[0] === "--entrypoint" ? args.slice(1) : [...image.Entrypoint, ...args];
    spec.process.env = image.Env;
    spec.process.cwd = image.WorkingDir || "/";
    delete spec.process.rlimits;
    spec.root = { path: process.env.ROOTFS, readonly: true };
    spec.mounts.push({ destination: "/tmp", type: "tmpfs", source: "tmpfs", options: ["nosuid", "nodev", "mode=1777"] });
    spec.linux.namespaces = spec.linux.namespaces.filter((n) => n.type !== "network");
    fs.writeFileSync(file, JSON.stringify(spec));
  ' "$bundle/config.json" "$@"
}

run() { spec "$@"; runc run --bundle "$bundle" "docsnap-check-$$"; }

version=$(run --version)
log "docsnap --version: $version"
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+ ]] || fail "--version printed \"$version\""

# The image has no shell: node and git answer for it.
uid=$(run --entrypoint node -e 'console.log(process.getuid())')
log "uid: $uid"
[[ $uid != 0 ]] || fail "the process runs as root"

written=$(run --entrypoint node -e 'try { require("fs").writeFileSync("/app/written", "") ; console.log("written") } catch (e) { console.log(e.code) }')
log "writing under /app: $written"
[[ $written == EROFS ]] || fail "the root filesystem is writable ($written)"
tmp=$(run --entrypoint node -e 'require("fs").writeFileSync("/tmp/written", ""); console.log("ok")')
[[ $tmp == ok ]] || fail "/tmp is not writable"

gitversion=$(run --entrypoint git --version)
log "$gitversion"
[[ $gitversion == git\ version* ]] || fail "git does not run: $gitversion"
# Its http(s) transport loads (a separate program with its own libraries): nothing listens on port 9.
remote=$(run --entrypoint git ls-remote https://127.0.0.1:9/docs.git 2>&1 || true)
log "git ls-remote https://127.0.0.1:9/…: ${remote//$'\n'/ }"
[[ $remote == *"Failed to connect"* || $remote == *"Connection refused"* ]] || fail "git's https transport does not run: $remote"

# SIGTERM: docsnap serve with a link nothing answers stays up (not ready); TERM must end it with 0.
port=$((20000 + RANDOM % 20000))
spec serve --bundle-url http://127.0.0.1:9/site.tar.gz --listen 127.0.0.1:$port --admin-listen 127.0.0.1:$((port + 1)) --cache-dir /tmp/cache --workers 2
runc run --bundle "$bundle" "docsnap-check-$$" >"$work/serve.log" 2>&1 &
runner=$!
for _ in $(seq 1 100); do
  curl -fs "http://127.0.0.1:$((port + 1))/healthz" >/dev/null 2>&1 && break
  sleep 0.1
done
curl -fs "http://127.0.0.1:$((port + 1))/healthz" >/dev/null || { cat "$work/serve.log" >&2; fail "serve did not start"; }
started=$SECONDS
runc kill "docsnap-check-$$" TERM
code=0
wait "$runner" || code=$?
log "SIGTERM: exit $code after $((SECONDS - started)) s"
[[ $code == 0 ]] || { cat "$work/serve.log" >&2; fail "exit code $code after SIGTERM"; }
(( SECONDS - started <= 30 )) || fail "SIGTERM took longer than the 30 s grace period"
log "all checks passed"
