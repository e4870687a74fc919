#!/bin/sh
# Gathers the final image's whole file system into ROOT: node, git (the parts that clone and fetch
# over http and https), the shared libraries both load (their ldd closure), the CA certificates,
# a passwd entry for UID 65532, /tmp, and the application. No shell, no package manager: what is
# not here cannot be used against the container.
set -eu
root=${1:?usage: collect-rootfs.sh ROOT APP}
app=${2:?usage: collect-rootfs.sh ROOT APP}
binaries="/usr/local/bin/node /usr/bin/git /usr/lib/git-core/git-remote-http /usr/lib/git-core/git-remote-https"
mkdir -p "$root/tmp" "$root/etc/ssl/certs" "$root/usr/lib/git-core" "$root/usr/local/bin" "$root/usr/bin"
chmod 1777 "$root/tmp"
for binary in $binaries; do
  cp -a "$binary" "$root$binary"
  # Each library once, at the path the dynamic loader looks for it (symbolic links followed).
  ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\/.*ld-linux/ { print $1 }' | while read -r library; do
    [ -e "$root$library" ] && continue
    mkdir -p "$root$(dirname "$library")"
    cp -L "$library" "$root$library"
  done
done
cp -a /usr/share/git-core "$root/usr/share/" 2>/dev/null || true
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"
printf 'root:x:0:0:root:/root:/sbin/nologin\ndocsnap:x:65532:65532:docsnap:/tmp:/sbin/nologin\n' >"$root/etc/passwd"
printf 'root:x:0:\ndocsnap:x:65532:\n' >"$root/etc/group"
printf 'hosts: files dns\n' >"$root/etc/nsswitch.conf"
cp -a "$app" "$root/app"
# Symbols are for debuggers: a sixth of node's size.
strip --strip-unneeded "$root/usr/local/bin/node"
