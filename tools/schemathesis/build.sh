#!/usr/bin/env bash
# Installs schemathesis (from PyPI) into a virtualenv cached per version, for the API fuzz test.
# Prints SCHEMATHESIS=<path of the st executable>.
# With --check it installs nothing and exits 0 when the virtualenv is cached, 3 when it is not.
set -euo pipefail
VERSION=4.32.5
CACHE="${DOCSNAP_CACHE_DIR:-$HOME/.cache/docsnap}/schemathesis-$VERSION"
if [[ ${1:-} == --check ]]; then [[ -x $CACHE/bin/st ]] && exit 0 || exit 3; fi
# CPython 3.11 has an AST bug (gh-106905) that crashes schemathesis's coverage phase: prefer a
# newer interpreter when the machine has one (the fuzz test skips that phase on 3.11).
pick_python() {
  for candidate in python3.13 python3.12 "$HOME"/.pyenv/versions/3.13*/bin/python3 "$HOME"/.pyenv/versions/3.12*/bin/python3 python3; do
    if "$candidate" -c "import venv" >/dev/null 2>&1; then
      echo "$candidate"
      return
    fi
  done
}
if [ ! -x "$CACHE/bin/st" ]; then
  rm -rf "$CACHE.partial"
  "$(pick_python)" -m venv "$CACHE.partial"
  "$CACHE.partial/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$VERSION"
  rm -rf "$CACHE"
  mv "$CACHE.partial" "$CACHE"
  # The venv's scripts name their interpreter by absolute path: fix them after the move.
  sed -i "1s|$CACHE.partial|$CACHE|" "$CACHE"/bin/st "$CACHE"/bin/schemathesis "$CACHE"/bin/pip* 2>/dev/null || true
  sed -i "s|$CACHE.partial|$CACHE|g" "$CACHE/bin/activate" "$CACHE/pyvenv.cfg" 2>/dev/null || true
fi
echo "SCHEMATHESIS=$CACHE/bin/st"
