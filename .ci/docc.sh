#!/usr/bin/env bash
# Builds the DocC catalog of each library product (Sources/<Target>/<Target>.docc) with the
# toolchain's `docc`, from the symbol graphs of the debug build (`swift package
# dump-symbol-graph`, no plugin package), into .build/docc/<Target>.doccarchive. Fails on any
# warning: `--analyze --warnings-as-errors` (undocumented parameters, broken links, ...).
#   bash .ci/docc.sh                 all five products
#   bash .ci/docc.sh LazyModel       one
set -euo pipefail
cd "$(dirname "$0")/.."
out="${DOCC_OUTPUT:-.build/docc}"
modules=("$@")
[ "${#modules[@]}" -gt 0 ] || modules=(GraphQLSDL ModelGen LazyModel LazyModelDataStore LazyModelAPI)

echo "symbol graphs (swift package dump-symbol-graph)"
if ! log="$(swift package dump-symbol-graph --minimum-access-level public 2>&1)"; then
  printf '%s\n' "$log" >&2
  exit 1
fi
graphs="$(printf '%s\n' "$log" | sed -n 's/^Files written to //p' | tail -n 1)"
if [ ! -d "$graphs" ]; then
  printf '%s\n' "$log" >&2
  echo "docc.sh: dump-symbol-graph named no output directory" >&2
  exit 1
fi

mkdir -p "$out"
failed=()
for module in "${modules[@]}"; do
  echo "docc convert $module"
  symbols="$out/symbols/$module"
  rm -rf "$symbols" "$out/$module.doccarchive"
  mkdir -p "$symbols"
  # The module's own graph and its extensions of other modules' types (Module@Other.symbols.json).
  cp "$graphs/$module.symbols.json" "$symbols/"
  find "$graphs" -maxdepth 1 -name "$module@*.symbols.json" -exec cp {} "$symbols/" \;
  if ! docc convert "Sources/$module/$module.docc" \
    --fallback-display-name "$module" --fallback-bundle-identifier "modelgen.$module" \
    --additional-symbol-graph-dir "$symbols" --output-path "$out/$module.doccarchive" \
    --analyze --warnings-as-errors >"$out/$module.log" 2>&1 \
    || grep -qE "(warning|error):" "$out/$module.log"; then
    cat "$out/$module.log" >&2
    failed+=("$module")
  fi
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "docc.sh: warnings or errors in: ${failed[*]}" >&2
  exit 1
fi
echo "docc.sh: ${#modules[@]} catalogs without warnings in $out"
