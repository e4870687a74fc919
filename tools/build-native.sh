#!/usr/bin/env bash
# Builds the native Markdown/MDX parser (native/markdown, a Node-API addon) with cargo, into
# native/markdown/docsnap-markdown.node. Optional: without it the export uses micromark (same
# output, slower). The cargo target directory lives in the cache, so rebuilds are incremental.
# With --check it builds nothing and exits 0 when the addon is newer than its sources, 3 when not.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cache=${DOCSNAP_CACHE_DIR:-$HOME/.cache/docsnap}
addon=$here/native/markdown/docsnap-markdown.node
if [[ ${1:-} == --check ]]; then
  [[ -f $addon ]] || exit 3
  newer=$(find "$here/native/markdown/src" "$here/native/markdown/Cargo.toml" "$here/native/markdown/Cargo.lock" \
    "$here/native/markdown/build.rs" -newer "$addon" -print -quit)
  [[ -z $newer ]] || exit 3
  exit 0
fi
command -v cargo >/dev/null || { echo "cargo not found: the native parser is not built (the export falls back to micromark)" >&2; exit 0; }
start=$SECONDS
cargo build --release --quiet --manifest-path "$here/native/markdown/Cargo.toml" --target-dir "$cache/cargo-target"
cp "$cache/cargo-target/release/libdocsnap_markdown.so" "$addon.tmp"
mv "$addon.tmp" "$addon"
echo "[native] built native/markdown/docsnap-markdown.node in $((SECONDS - start)) s" >&2
