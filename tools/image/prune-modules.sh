#!/bin/sh
# Removes from production node_modules what docsnap never loads: type declarations, source maps,
# docs, and the icon libraries' prebuilt bundles and fonts (it reads their SVG files one at a time).
set -eu
modules=${1:?usage: prune-modules.sh NODE_MODULES}
find "$modules" -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' -o -name '*.md' -o -name '*.markdown' \) -delete
find "$modules" -type d \( -name test -o -name tests -o -name __tests__ -o -name docs -o -name example -o -name examples \) -prune -exec rm -rf {} +
rm -rf "$modules/lucide-static/dist" "$modules/lucide-static/font" "$modules/lucide-static/sprite.svg" \
       "$modules/@tabler/icons/categories" \
       "$modules/@tabler/icons/tabler-nodes-outline.json" "$modules/@tabler/icons/tabler-nodes-filled.json"
