#!/usr/bin/env bash
# Builds the libFuzzer targets with `swiftc -sanitize=fuzzer,address`, outside SwiftPM (the normal
# `swift build` never sees them): GraphQLSDL and the generator's modules are compiled from Sources/,
# each target from Fuzz/<Target>/ is linked against them. Release optimisation (-O), ASan.
#   bash Fuzz/build.sh            -> .build/fuzz/parser-fuzz, .build/fuzz/generator-fuzz
#   FUZZ_BUILD=DIR bash Fuzz/build.sh   to build elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${FUZZ_BUILD:-.build/fuzz}"
mkdir -p "$out"
flags=(-O -sanitize=fuzzer,address -swift-version 6 -package-name modelgen -parse-as-library -g)
linker=()
# ld.gold warns about ASan's local symbols; lld from the Swift toolchain links cleanly.
if command -v ld.lld >/dev/null 2>&1; then linker=(-use-ld=lld); fi

# The built-in templates, embedded as SwiftPM's `.embedInCode` resources would be.
python3 - "$out/embedded_resources.swift" Sources/ModelGen/Templates/*.mustache <<'PY'
import os, sys
lines = ["struct PackageResources {"]
for path in sorted(sys.argv[2:]):
    name = os.path.basename(path).replace(".", "_")
    data = open(path, "rb").read()
    lines.append("static let %s: [UInt8] = [%s]" % (name, ",".join(str(b) for b in data)))
lines.append("}")
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY

# The generator's modules in dependency order (Package.swift): each is compiled whole into one
# object; ModelGen (the pipeline) also gets the embedded templates.
modules=(GraphQLSDL ModelVocabulary ModelGenIR ModelGenAPISchema ModelGenTemplating ModelGenSwift ModelGen)
objects=()
for module in "${modules[@]}"; do
  echo "compiling $module"
  extra=()
  if [ "$module" = ModelGen ]; then extra=("$out/embedded_resources.swift"); fi
  swiftc "${flags[@]}" -wmo -module-name "$module" -I "$out" -emit-module \
    -emit-module-path "$out/$module.swiftmodule" -emit-object -o "$out/$module.o" \
    $(find "Sources/$module" -name '*.swift' | sort) "${extra[@]}"
  objects+=("$out/$module.o")
done
echo "linking parser-fuzz"
swiftc "${flags[@]}" "${linker[@]}" -module-name ParserFuzz -I "$out" Fuzz/ParserFuzz/*.swift "$out/GraphQLSDL.o" \
  -o "$out/parser-fuzz"
echo "linking generator-fuzz"
swiftc "${flags[@]}" "${linker[@]}" -module-name GeneratorFuzz -I "$out" Fuzz/GeneratorFuzz/*.swift \
  "${objects[@]}" -o "$out/generator-fuzz"
echo "built $out/parser-fuzz $out/generator-fuzz"
