#!/usr/bin/env bash
# Ensures the local GraphQL server's virtualenv (<repo>/.venv) holds requirements.txt,
# then prints the path of its python. Idempotent; installs only when the pins changed, and then
# says so in one line on stderr (stdout stays the python path: python="$(bash venv.sh)").
# Safe to run concurrently (test suites start it in parallel): one run installs, the others wait.
# Override the location with GRAPHQL_SERVER_VENV=/path.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
venv="${GRAPHQL_SERVER_VENV:-$repo/.venv}"
requirements="$here/requirements.txt"
stamp="$venv/.modelgen-requirements"

ready() { [ -x "$venv/bin/python" ] && cmp -s "$requirements" "$stamp" 2>/dev/null; }

if ! ready; then
  lock="${TMPDIR:-/tmp}/modelgen-venv-$(printf '%s' "$venv" | cksum | cut -d' ' -f1).lock"
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$lock"
    flock 9
  else
    waited=0
    until mkdir "$lock.d" 2>/dev/null; do
      sleep 1
      waited=$((waited + 1))
      if [ "$waited" -ge 600 ]; then rmdir "$lock.d" 2>/dev/null || true; fi
    done
    trap 'rmdir "$lock.d" 2>/dev/null || true' EXIT
  fi
  if ! ready; then
    pins="$(grep -v '^[[:space:]]*\(#\|$\)' "$requirements" | tr '\n' ' ')"
    echo "venv.sh: installing ${pins}from PyPI into $venv (the local GraphQL server's; once per change of $requirements)" >&2
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements" >&2
    cp "$requirements" "$stamp"
  fi
fi
echo "$venv/bin/python"
