#!/usr/bin/env bash
# Checks that the repository stands alone: clones HEAD into a temporary directory with nothing
# beside it (no ../shared) and runs `npm test -- --project unit` there, as a new user would.
# Passes when the tests pass and the tests over ../shared/corpora are reported skipped.
#
#   tools/fresh-clone-test.sh [--node-modules copy|ci] [-- extra vitest arguments]
#
# node_modules: `copy` (default) copies this checkout's, `ci` runs `npm ci` in the clone. The
# servers, cargo's target directory and the schemathesis virtualenv come from the shared cache
# (${DOCSNAP_CACHE_DIR:-~/.cache/docsnap}), as on a developer's machine after a first run.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
modules=copy
if [[ ${1:-} == --node-modules ]]; then
  modules=$2
  shift 2
fi
[[ ${1:-} == -- ]] && shift
case $modules in copy | ci) ;; *) echo "--node-modules must be copy or ci, not $modules" >&2; exit 2 ;; esac

work=$(mktemp -d "${TMPDIR:-/tmp}/docsnap-fresh-clone-XXXXXX")
trap 'rm -rf "$work"' EXIT
clone=$work/docsnap
git clone --quiet --no-hardlinks "$here" "$clone"
echo "fresh clone of $(git -C "$clone" rev-parse --short HEAD) in $clone (nothing beside it: $(ls "$work"))"
[[ ! -e $work/shared ]]

cd "$clone"
start=$SECONDS
if [[ $modules == ci ]]; then
  npm ci --no-fund --no-audit
else
  cp -a "$(realpath "$here/node_modules")" node_modules
fi
echo "node_modules ($modules): $((SECONDS - start)) s"

start=$SECONDS
status=0
npm test -- --project unit "$@" 2>&1 | tee "$work/test.log" || status=$?
elapsed=$((SECONDS - start))
echo "npm test -- --project unit on a fresh clone: exit $status in $elapsed s"
((status == 0)) || exit "$status"

# The corpus tests are there, skipped, and say why.
grep -q '../shared/corpora is not beside the repository: the tests over real corpora are skipped' "$work/test.log" || {
  echo "the run did not report the corpus tests as skipped" >&2
  exit 1
}
grep -Eq 'Tests .*[0-9]+ skipped' "$work/test.log" || {
  echo "the summary counts no skipped test" >&2
  exit 1
}
