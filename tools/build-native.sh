#!/usr/bin/env bash
# Builds the native Markdown/MDX parser (native/markdown, a Node-API addon) with cargo, into
# native/markdown/docsnap-markdown.node. Optional: without it the export uses micromark (same
# output, slower). The cargo target directory lives in the cache, so rebuilds are incremental.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cache=${DOCSNAP_CACHE_DIR:-$HOME/.cache/docsnap}
command -v cargo >/dev/null || { echo "cargo not found: the native parser is not built (the export falls back to micromark)" >&2; exit 0; }
start=$SECONDS
cargo build --release --quiet --manifest-path "$here/native/markdown/Cargo.toml" --target-dir "$cache/cargo-target"
cp "$cache/cargo-target/release/libdocsnap_markdown.so" "$here/native/markdown/docsnap-markdown.node.tmp"
mv "$here/native/markdown/docsnap-markdown.node.tmp" "$here/native/markdown/docsnap-markdown.node"
echo "[native] built native/markdown/docsnap-markdown.node in $((SECONDS - start)) s" >&2
