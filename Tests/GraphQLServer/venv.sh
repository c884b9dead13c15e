#!/usr/bin/env bash
# Ensures the local GraphQL server's virtualenv (<repo>/.venv) holds requirements.txt,
# then prints the path of its python. Idempotent; installs only when the pins changed.
# Override the location with GRAPHQL_SERVER_VENV=/path.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
venv="${GRAPHQL_SERVER_VENV:-$repo/.venv}"
requirements="$here/requirements.txt"
stamp="$venv/.modelgen-requirements"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv" >&2
fi
if ! cmp -s "$requirements" "$stamp" 2>/dev/null; then
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements" >&2
  cp "$requirements" "$stamp"
fi
echo "$venv/bin/python"
