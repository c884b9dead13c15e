#!/usr/bin/env python3
"""Writes Sources/ModelGen/ModelGen.docc/DiagnosticsCatalogue.md from the code catalogs:
every `public static let name: DiagnosticCode = "CODE"` of GraphQLSDL's SDLDiagnosticCode and
ModelGenIR's ModelGenDiagnosticCode and ConfigDiagnosticCode, with its doc comment. Run from anywhere after adding a code:
    python3 .ci/diagnostics-catalogue.py
(ModelGenTests' DocumentationTests fails when a code has no row.)"""
import os
import re
os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
def codes(path):
    out=[]; doc=[]
    for line in open(path).read().splitlines():
        s=line.strip()
        if s.startswith('///'): doc.append(s[3:].strip()); continue
        m=re.match(r'public static let (\w+): DiagnosticCode = "(\w+)"', s)
        if m: out.append((m.group(2), m.group(1), ' '.join(doc)))
        doc=[]
    return out
def table(rows, enum):
    lines=['| code | constant | meaning |','|---|---|---|']
    for code,name,doc in rows:
        d=re.sub(r'``([^`]+)``', r'`\1`', doc).replace('|','\\|')
        lines.append('| %s | `%s.%s` | %s |' % (code, enum, name, d))
    return '\n'.join(lines)
sdl=codes('Sources/GraphQLSDL/SDLDiagnosticCode.swift')
mg=codes('Sources/ModelGenIR/Diagnostics/SemanticError.swift')
mgc=codes('Sources/ModelGenIR/Diagnostics/ConfigDiagnosticCode.swift')
art='''# Diagnostics catalogue

Every error `modelgen` reports, by its stable code.

## Overview

A diagnostic is a value (`GraphQLSDL.Diagnostic`): a severity, a stable code, a message, a source
range, notes and an optional fix-it hint. `modelgen` prints each as
`path:line:col: error: message [CODE]`, which Xcode, SwiftPM and editors make clickable, and
`modelgen validate` adds the source line and a caret. Columns count Unicode scalars (a tab is one
column). Every error of a file is reported, up to 200 per schema (then `SDL099`, printed last):
one budget shared by the lexer, the parser and every semantic rule. Codes never change meaning
and retired codes are not reused: match on codes, never on wording. Messages are defined once,
in `SDLDiagnosticMessage` (GraphQLSDL) and `SemanticError` (ModelGenIR).

The build tool plugin reports the same diagnostics as compiler errors at the schema's line and
column.

### Lexical and syntax errors (GraphQLSDL)

The GraphQL SDL of the October 2021 specification; `SDL0xx` codes.

%s

### Semantic errors (ModelGen)

The rules of the Amplify GraphQL Transformer v2 directives; `MG0xx` codes.

%s

### Config file, input, template and output errors (modelgen-config.json, schema files, templates, the output directory)

The config file read by `modelgen generate --config` and `validate --config` (strict JSON, at most
1 MiB, up to 200 errors, then `MGC099`; `MGC001`-`MGC013`), printed as
`modelgen-config.json:line:col: error: message [MGC006]` followed by a `hint:` line; both commands
run the same checks and print every error of the file in file order, exit status 64. A schema
file that cannot be read is `MGC027` (`path: error: cannot read the schema: no such file [MGC027]`
and a `hint:` line, exit status 64). The output stage of `modelgen generate` (`MGC014`-`MGC026`:
output directories, the manifest `.modelgen-manifest.json`, the directory lock `.modelgen.lock`,
files in the way, failed writes) prints `path: error: message [MGC015]` followed by a `hint:`
line, exit status 1. Nothing is written, except after `MGC026` (files renamed into place before
the failure stand). Templates that cannot be used are `MGC028` at the path; a template
(`--templates DIR/*.mustache`) that does not compile is `MGC029` and one that fails while
rendering a file `MGC030`, both at the tag (`T/enum.mustache:3:3: error: section 'cases' is never
closed [MGC029]`, the column of the tag's `{{` in Unicode scalars) followed by a `hint:` line, exit
status 64, nothing written.

%s
''' % (table(sdl,'SDLDiagnosticCode'), table(mg,'ModelGenDiagnosticCode'), table(mgc,'ConfigDiagnosticCode'))
open('Sources/ModelGen/ModelGen.docc/DiagnosticsCatalogue.md','w').write(art)
print(len(sdl),len(mg),len(mgc))
