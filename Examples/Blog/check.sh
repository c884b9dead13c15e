#!/usr/bin/env bash
# Proves the plugin contract on the Blog example (called by the repository's .ci/run):
#   1. the example builds from clean through ModelGenPlugin, with no warning, and its program runs;
#   2. a build with nothing changed, and one with only Swift code changed, do not regenerate;
#   3. generated code does not compile against a LazyModel of another runtime version, and the
#      compiler's message names the versions;
#   4. editing the schema changes the generated code on the next build;
#   5. a schema error fails the build and prints the schema's path:line:col;
#   6. a bad modelgen-config.json, a target without schema and one with two fail with messages
#      saying what was expected; a templates directory named by the config is used, and editing a template
#      regenerates;
#   7. `swift package generate-models` writes the same bytes as `modelgen generate`.
# Everything it builds goes to .build/check inside this package; the schema and config are
# restored on exit.
# CHECK_INCREMENTAL=1 keeps .build/check from an earlier run (for local iteration only: step 1 then
# does not prove a build from clean).
set -euo pipefail
cd "$(dirname "$0")"

scratch=.build/check
schema=Sources/BlogApp/blog.graphql
logs=.build/check-logs
[ "${CHECK_INCREMENTAL:-0}" = 1 ] || rm -rf "$scratch"
rm -rf "$logs"
mkdir -p "$logs"
config=Sources/BlogApp/modelgen-config.json
cp "$schema" "$logs/blog.graphql.orig"
cp "$config" "$logs/modelgen-config.json.orig"
templates=Sources/BlogApp/templates
restore() {
  cp "$logs/blog.graphql.orig" "$schema"
  cp "$logs/modelgen-config.json.orig" "$config"
  rm -rf "$templates" Sources/BlogApp/second.graphql
}
trap restore EXIT

fail() {
  echo "check.sh: FAILED: $*" >&2
  exit 1
}
step() { echo "== $*"; }

# build LOG: builds the example into the scratch path; the log keeps both output streams.
build() {
  swift build --scratch-path "$scratch" >"$logs/$1" 2>&1
}

step "1. build from clean and run"
build clean.log || { cat "$logs/clean.log"; fail "the example does not build from clean"; }
grep -q "Generating models from blog.graphql" "$logs/clean.log" || fail "the plugin did not run (see $logs/clean.log)"
if grep -E "(warning|error):" "$logs/clean.log"; then fail "the clean build printed the warnings above"; fi
bin=$(swift build --scratch-path "$scratch" --show-bin-path)
generated=$(find "$scratch/plugins/outputs" -path "*BlogApp*" -name blog.graphql.swift | head -n 1)
[ -n "$generated" ] || fail "no blog.graphql.swift in the plugin work directory"
"$bin/BlogApp" | tee "$logs/run.log"
grep -q "BlogApp: OK" "$logs/run.log" || fail "BlogApp did not finish"

step "2. nothing regenerates when the schema, config and templates are unchanged"
# SwiftPM links the plugin's tool (modelgen-tool) once more on the first build after a clean one,
# which reruns the command once; modelgen then leaves the unchanged output file untouched, so
# nothing recompiles. That build may run modelgen but must not rewrite its output.
mtime() { stat -c %y "$1" 2>/dev/null || stat -f %Fm "$1"; }
written=$(mtime "$generated")
build settle.log || fail "a build with no change failed (see $logs/settle.log)"
[ "$(mtime "$generated")" = "$written" ] || fail "a build with no change rewrote $generated"
build noop.log || fail "a build with no change failed (see $logs/noop.log)"
if grep -q "Generating models" "$logs/noop.log"; then fail "a build with no change regenerated"; fi
touch Sources/BlogApp/main.swift
build swift-edit.log || fail "a build after touching main.swift failed (see $logs/swift-edit.log)"
if grep -q "Generating models" "$logs/swift-edit.log"; then fail "touching main.swift regenerated"; fi

step "3. generated code does not compile against another LazyModel runtime version"
grep -q "LazyModelRuntimeVersion\.v2" "$generated" || fail "the generated code does not reference LazyModelRuntimeVersion.v2"
# Pretend the code was generated for a later runtime v3 and compile it against this LazyModel (v2).
sed '/LazyModelRuntimeVersion/s/v2/v3/g' "$generated" >"$logs/other-version.swift"
if swiftc -typecheck -parse-as-library -swift-version 6 -I "$bin/Modules" "$logs/other-version.swift" >"$logs/version.log" 2>&1; then
  fail "code generated for runtime v3 compiled against LazyModel runtime v2"
fi
grep -E "error: .*LazyModel runtime version than v2" "$logs/version.log" | head -n 1 ||
  { cat "$logs/version.log"; fail "the error does not name this LazyModel's runtime version v2"; }
grep -q "LazyModelRuntimeVersion\.v3" "$logs/version.log" ||
  { cat "$logs/version.log"; fail "the error does not show the generated line naming v3"; }
# Code of modelgen 0.1.0 (runtime v1) gets the message naming v1 and v2.
sed '/LazyModelRuntimeVersion/s/v2/v1/g' "$generated" >"$logs/old-version.swift"
if swiftc -typecheck -parse-as-library -swift-version 6 -I "$bin/Modules" "$logs/old-version.swift" >"$logs/old-version.log" 2>&1; then
  fail "code generated for runtime v1 compiled against LazyModel runtime v2"
fi
grep -E "error: .*generated for LazyModel runtime v1 .*implements runtime v2" "$logs/old-version.log" | head -n 1 ||
  { cat "$logs/old-version.log"; fail "the error does not name runtime v1 and v2"; }

step "4. editing the schema changes the generated code"
cp "$generated" "$logs/before.swift"
grep -q "subtitle" "$logs/before.swift" && fail "the generated code already mentions subtitle"
sed -i 's/^  title: String!$/  title: String!\n  subtitle: String/' "$schema"
grep -q "^  subtitle: String$" "$schema" || fail "could not edit the schema"
build schema-edit.log || { cat "$logs/schema-edit.log"; fail "the build after a schema edit failed"; }
grep -q "Generating models from blog.graphql" "$logs/schema-edit.log" || fail "the schema edit did not regenerate"
grep -q "subtitle" "$generated" || fail "the regenerated code does not mention the new field subtitle"
echo "regenerated: $(diff "$logs/before.swift" "$generated" | grep -c '^>') lines added"

step "5. a schema error fails the build at the schema's line and column"
cp "$logs/blog.graphql.orig" "$schema"
line=$(grep -n '^  title: String!$' "$schema" | head -n 1 | cut -d: -f1)
line=$((line + 1))
sed -i "${line}i\\  author: Author" "$schema"
if build schema-error.log; then fail "a schema naming the unknown type Author still built"; fi
grep -E "blog\.graphql:${line}:11: error: " "$logs/schema-error.log" ||
  { cat "$logs/schema-error.log"; fail "no 'blog.graphql:${line}:11: error:' (at Author) in the build output"; }
cp "$logs/blog.graphql.orig" "$schema"

step "6. config errors, a target without schema or with two, and templates"
echo '{ "acess": "internal" }' >"$config"
if build config-error.log; then fail "a config with the unknown key acess still built"; fi
grep -F 'modelgen-config.json:1:3: error: unknown key "acess"; the keys are "access", "emit", "templates", "conflictResolution", "swiftNames" (did you mean "access"?)' \
  "$logs/config-error.log" || { cat "$logs/config-error.log"; fail "no clear message for the unknown key"; }
restore
mv "$schema" "$logs/blog.graphql.moved"
if build no-schema.log; then fail "a target without schema still built"; fi
mv "$logs/blog.graphql.moved" "$schema"
grep -F "target 'BlogApp' uses ModelGenPlugin but has no GraphQL schema: expected one '*.graphql' file" \
  "$logs/no-schema.log" || { cat "$logs/no-schema.log"; fail "no clear message for a target without schema"; }
cp "$schema" Sources/BlogApp/second.graphql
if build two-schemas.log; then fail "a target with two schemas still built"; fi
rm Sources/BlogApp/second.graphql
grep -F "target 'BlogApp' has 2 schema files (blog.graphql, second.graphql); ModelGenPlugin generates one schema per target" \
  "$logs/two-schemas.log" || { cat "$logs/two-schemas.log"; fail "no clear message for two schemas in one target"; }
# A templates directory (relative to the config file) that overrides the registry template.
mkdir -p "$templates"
sed 's|^import LazyModel$|import LazyModel\n// Custom registry template, first edition.|' ../../Templates/registry.mustache \
  >"$templates/registry.mustache"
echo '{ "access": "internal", "templates": "templates" }' >"$config"
build templates.log || { cat "$logs/templates.log"; fail "the build with a templates directory failed"; }
grep -q "Custom registry template, first edition." "$generated" || fail "the config's templates were not used"
sed -i 's/first edition/second edition/' "$templates/registry.mustache"
build template-edit.log || { cat "$logs/template-edit.log"; fail "the build after a template edit failed"; }
grep -q "Custom registry template, second edition." "$generated" || fail "editing a template did not regenerate"
restore
echo "unknown key, no schema, two schemas and templates: as documented"

step "7. generate-models writes the same bytes as modelgen generate"
rm -rf "$scratch/generate-models" "$scratch/cli"
modelgen="$bin/modelgen-tool"
[ -x "$modelgen" ] || modelgen="$bin/modelgen"
[ -x "$modelgen" ] || fail "no modelgen executable in $bin"
swift package --scratch-path "$scratch" --allow-writing-to-package-directory \
  generate-models --target BlogApp --output "$scratch/generate-models" >"$logs/generate-models.log" 2>&1 ||
  { cat "$logs/generate-models.log"; fail "generate-models failed"; }
# modelgen-config.json says "access": "internal"; the plugin must pass exactly that.
"$modelgen" generate "$schema" --output "$scratch/cli/blog" --access internal
count=$(find "$scratch/cli/blog" -type f | wc -l)
[ "$count" -gt 0 ] || fail "modelgen generate wrote no file"
diff -r "$scratch/generate-models/blog" "$scratch/cli/blog" || fail "generate-models and modelgen generate differ"
echo "identical: $count files"

echo "check.sh: all plugin checks passed"
