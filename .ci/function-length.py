#!/usr/bin/env python3
"""Lists the generator's functions that are too long or take too many parameters (issue #16):
every function, initializer, subscript, deinit, computed or observed property and closure-initialized
property in the generator's targets whose body has more than 60 lines of code, and every function,
initializer or subscript with more than 6 parameters. Run from anywhere:
    python3 .ci/function-length.py [--max-lines N] [--max-parameters N] [PATH ...]
Prints one line an offender, `path:line: Type.name: N lines` or `...: N parameters`, and exits 1
when there is any not in ALLOWED below, or when an entry of ALLOWED no longer offends (remove it
then); 0 otherwise. `--all` lists the allowed ones too.

A body's length counts the lines strictly between its braces that hold code (string text counts as
code; blank lines and lines with only comments do not), as SwiftLint's function_body_length does.
The scanner reads Swift as text: it skips comments (nested block comments included), string
literals (multi-line, raw `#"…"#`, and the strings inside `\\(…)` interpolations) and counts
braces and parentheses in what is left."""
import os
import re
import sys

GENERATOR = ["Sources/GraphQLSDL", "Sources/ModelGen", "Sources/ModelGenAPISchema", "Sources/ModelGenCLI",
             "Sources/ModelGenIR", "Sources/ModelGenSwift", "Sources/ModelGenTemplating", "Sources/modelgen",
             "Sources/ModelVocabulary"]


# The deliberate exceptions, by `path: Type.name: what`, each with its reason. Keep it short: a new
# function over the limits is split, not added here.
ALLOWED = {
    # Exhaustive switches that map each case of a diagnostic enum to its code, message or hint: one
    # line (or a few) a diagnostic, read as a catalogue, and the compiler checks that no case is missing.
    "Sources/GraphQLSDL/SDLDiagnosticMessage.swift: SDLDiagnosticMessage.message: lines": "catalogue",
    "Sources/GraphQLSDL/SDLDiagnosticMessage.swift: SDLDiagnosticMessage.hint: lines": "catalogue",
    "Sources/ModelGenIR/Diagnostics/SemanticError.swift: SemanticError.code: lines": "catalogue",
    "Sources/ModelGenIR/Diagnostics/SemanticError.swift: SemanticError.message: lines": "catalogue",
    "Sources/ModelGenIR/Diagnostics/SemanticError.swift: SemanticError.hint: lines": "catalogue",
    # Memberwise initializers of plain value types: one labelled parameter a stored property, most
    # with a default; a struct grouping them would only be the type itself again.
    "Sources/GraphQLSDL/Diagnostic.swift: Storage.init: parameters": "memberwise",
    "Sources/GraphQLSDL/Diagnostic.swift: Diagnostic.init: parameters": "memberwise",
    "Sources/ModelGenCLI/Arguments.swift: GenerateOptions.init: parameters": "memberwise",
    "Sources/ModelGenIR/IR/AuthRuleDefinition.swift: AuthRuleDefinition.init: parameters": "memberwise",
    "Sources/ModelGenIR/IR/FieldDefinition.swift: FieldDefinition.init: parameters": "memberwise",
    "Sources/ModelGenIR/IR/ModelDefinition.swift: ModelDefinition.init: parameters": "memberwise",
    "Sources/ModelVocabulary/AuthRule.swift: AuthRule.init: parameters": "memberwise",
}


class Source:
    """The code of a file with comments and string contents blanked out (newlines kept), and per line
    whether it holds code."""

    def __init__(self, text):
        self.text = text
        self.out = []
        self.code_lines = set()
        self.line = 1
        self.i = 0
        self.scan_code(top=True)
        self.code = "".join(self.out)

    def emit(self, ch, code=True):
        if ch == "\n":
            self.line += 1
            self.out.append("\n")
            return
        if code and not ch.isspace():
            self.code_lines.add(self.line)
        self.out.append(ch if code else " ")

    def blank(self, ch):
        """String text: counts as code on its line, but is not scanned."""
        if ch == "\n":
            self.emit(ch)
        else:
            if not ch.isspace():
                self.code_lines.add(self.line)
            self.out.append(" ")

    def peek(self, s):
        return self.text.startswith(s, self.i)

    def scan_code(self, top):
        """Code up to the `)` closing an interpolation (top=False) or the end of the text."""
        depth = 0
        t = self.text
        while self.i < len(t):
            if self.peek("//"):
                while self.i < len(t) and t[self.i] != "\n":
                    self.emit(t[self.i], code=False)
                    self.i += 1
                continue
            if self.peek("/*"):
                self.scan_block_comment()
                continue
            m = re.compile(r'(#*)("""|")').match(t, self.i)
            if m:
                self.scan_string(len(m.group(1)), m.group(2) == '"""')
                continue
            ch = t[self.i]
            if not top:
                if ch == "(":
                    depth += 1
                elif ch == ")":
                    if depth == 0:
                        return
                    depth -= 1
            self.emit(ch)
            self.i += 1

    def scan_block_comment(self):
        t = self.text
        level = 0
        while self.i < len(t):
            if self.peek("/*"):
                level += 1
                self.emit("/", False)
                self.emit("*", False)
                self.i += 2
            elif self.peek("*/"):
                level -= 1
                self.emit("*", False)
                self.emit("/", False)
                self.i += 2
                if level == 0:
                    return
            else:
                self.emit(t[self.i], code=False)
                self.i += 1

    def scan_string(self, hashes, multiline):
        """A string literal starting at self.i: emitted as `"` … `"` with its text blanked."""
        t = self.text
        quote = '"""' if multiline else '"'
        close = quote + "#" * hashes
        escape = "\\" + "#" * hashes
        for _ in range(hashes + len(quote)):
            self.emit('"' if t[self.i] == '"' else " ")
            self.i += 1
        while self.i < len(t):
            if self.peek(close):
                for _ in range(len(close)):
                    self.emit('"' if t[self.i] == '"' else " ")
                    self.i += 1
                return
            if self.peek(escape + "("):
                for _ in range(len(escape) + 1):
                    self.blank(t[self.i])
                    self.i += 1
                start = len(self.out)
                self.scan_code(top=False)
                # Interpolated code is part of the string: blank it (its braces are balanced).
                for k in range(start, len(self.out)):
                    if self.out[k] != "\n":
                        self.out[k] = " "
                if self.i < len(t):
                    self.blank(t[self.i])
                    self.i += 1
                continue
            if self.peek(escape):
                for _ in range(len(escape) + 1):
                    if self.i < len(t):
                        self.blank(t[self.i])
                        self.i += 1
                continue
            self.blank(t[self.i])
            self.i += 1


TOKEN = re.compile(r"""
    (?P<ident>`[^`]+`|[A-Za-z_][A-Za-z0-9_]*[?!]?)
  | (?P<attr>@[A-Za-z_][A-Za-z0-9_]*)
  | (?P<pound>\#[A-Za-z_]+)
  | (?P<num>[0-9][0-9A-Za-z_.]*)
  | (?P<arrow>->)
  | (?P<op>[-+*/%=<>!&|^~?.]+)
  | (?P<punct>[(){}\[\],:;"])
""", re.VERBOSE)

TYPE_KEYWORDS = {"struct", "class", "enum", "actor", "protocol", "extension"}
# Tokens that begin the next declaration: a function without a body (a protocol requirement) ends there.
DECL_START = {"func", "var", "let", "init", "init?", "init!", "subscript", "static", "public", "private",
              "internal", "fileprivate", "open", "case", "typealias", "struct", "class", "enum", "actor",
              "protocol", "extension", "mutating", "nonmutating", "associatedtype", "deinit", "nonisolated",
              "override", "final", "convenience", "required", "import", "}", ";"}


def tokens(code):
    line = 1
    pos = 0
    out = []
    for m in TOKEN.finditer(code):
        line += code.count("\n", pos, m.start())
        pos = m.start()
        out.append((m.group(0), line, m.lastgroup))
    return out


def parameter_count(toks, i):
    """toks[i] is the `(` of a parameter clause: (count, index after the matching `)`)."""
    depth = 0
    commas = 0
    empty = True
    j = i
    while j < len(toks):
        tok, _, kind = toks[j]
        if tok in "([{":
            depth += 1
        elif tok in ")]}":
            depth -= 1
            if depth == 0:
                return (0 if empty else commas + 1), j + 1
        elif kind == "op" and set(tok) == {"<"}:
            depth += len(tok)
        elif kind == "op" and set(tok) == {">"}:
            depth -= len(tok)
        elif tok == "," and depth == 1:
            commas += 1
        if j > i:
            empty = False
        j += 1
    return (0 if empty else commas + 1), j


def skip_generics(toks, j):
    if j < len(toks) and toks[j][2] == "op" and toks[j][0].startswith("<"):
        depth = 0
        while j < len(toks):
            tok, _, kind = toks[j]
            if kind == "op" and tok != "->":
                depth += tok.count("<") - tok.count(">")
            j += 1
            if depth <= 0:
                break
    return j


def body_start(toks, j, same_line=None, stop_at_equals=False):
    """The index of the `{` opening a body, scanning from j, or None when the declaration has none."""
    while j < len(toks):
        tok, line, _ = toks[j]
        if same_line is not None and line != same_line:
            return None
        if tok == "{":
            return j
        if tok in DECL_START or (stop_at_equals and tok == "="):
            return None
        j += 1
    return None


def declarations(toks):
    """(opening-brace index, name, line, parameter count or None) of every body-bearing declaration,
    and (opening-brace index, type name) of every type and extension."""
    bodies = {}
    types = {}
    i = 0
    while i < len(toks):
        tok, line, kind = toks[i]
        prev = toks[i - 1][0] if i > 0 else ""
        if tok == "func" and i + 1 < len(toks):
            name = toks[i + 1][0]
            j = skip_generics(toks, i + 2)
            if j < len(toks) and toks[j][0] == "(":
                count, j = parameter_count(toks, j)
                b = body_start(toks, j)
                bodies[b if b is not None else ("nobody", i)] = (name, line, count)
        elif tok in ("init", "init?", "init!", "subscript") and prev not in (".",) and kind == "ident":
            j = skip_generics(toks, i + 1)
            if j < len(toks) and toks[j][0] == "(":
                count, j = parameter_count(toks, j)
                b = body_start(toks, j)
                bodies[b if b is not None else ("nobody", i)] = (tok.rstrip("?!"), line, count)
        elif tok == "deinit":
            b = body_start(toks, i + 1)
            if b is not None:
                bodies[b] = ("deinit", line, None)
        elif tok in ("var", "let") and i + 1 < len(toks) and toks[i + 1][2] == "ident" and prev != "case":
            name = toks[i + 1][0]
            j = i + 2
            # A computed or observed property: `var name: Type {` on one line.
            if j < len(toks) and toks[j][0] == ":":
                b = body_start(toks, j, same_line=line, stop_at_equals=True)
                if b is not None and tok == "var":
                    bodies[b] = (name, line, None)
                    i += 1
                    continue
            # A property initialized by a closure: `let name = {` or `let name: T = {`.
            k = j
            while k < len(toks) and toks[k][1] == line and toks[k][0] not in ("=", "{"):
                k += 1
            if k + 1 < len(toks) and toks[k][0] == "=" and toks[k + 1][0] == "{":
                bodies[k + 1] = (name, line, None)
        elif tok in TYPE_KEYWORDS and toks[i + 1][2] == "ident" and not (
                tok == "class" and toks[i + 1][0] in ("func", "var", "let", "subscript", "init")):
            j = i + 1
            parts = []
            while j < len(toks) and (toks[j][2] == "ident" or toks[j][0] == "."):
                if toks[j][0] in ("where",):
                    break
                parts.append(toks[j][0])
                j += 1
            b = body_start(toks, j)
            if b is not None:
                types[b] = "".join(parts)
        i += 1
    return bodies, types


def check(path, max_lines, max_parameters):
    src = Source(open(path, encoding="utf-8").read())
    toks = tokens(src.code)
    bodies, types = declarations(toks)
    found = []
    stack = []  # (kind, label, open line, declaration)
    for index, (tok, line, _) in enumerate(toks):
        if tok == "{":
            if index in bodies:
                stack.append(("body", bodies[index], line))
            elif index in types:
                stack.append(("type", types[index], line))
            else:
                stack.append(("block", None, line))
        elif tok == "}" and stack:
            kind, decl, open_line = stack.pop()
            if kind != "body":
                continue
            name, decl_line, count = decl
            owners = [label for k, label, _ in stack if k == "type"]
            qualified = ".".join(owners[-1:] + [name])
            length = sum(1 for n in range(open_line + 1, line) if n in src.code_lines)
            if length > max_lines:
                found.append((decl_line, "%s: %s: lines" % (path, qualified),
                              "%s:%d: %s: %d lines" % (path, decl_line, qualified, length)))
            if count is not None and count > max_parameters:
                found.append((decl_line, "%s: %s: parameters" % (path, qualified),
                              "%s:%d: %s: %d parameters" % (path, decl_line, qualified, count)))
    for key, (name, decl_line, count) in bodies.items():
        if isinstance(key, tuple) and count is not None and count > max_parameters:
            found.append((decl_line, "%s: %s: parameters" % (path, name),
                          "%s:%d: %s: %d parameters" % (path, decl_line, name, count)))
    return [(key, text) for _, key, text in sorted(found)]


def main(argv):
    max_lines, max_parameters, paths, show_all = 60, 6, [], False
    args = iter(argv)
    for arg in args:
        if arg == "--all":
            show_all = True
        elif arg == "--max-lines":
            max_lines = int(next(args))
        elif arg == "--max-parameters":
            max_parameters = int(next(args))
        else:
            paths.append(arg)
    whole = not paths
    if whole:
        os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
        paths = GENERATOR
    files = []
    for p in paths:
        if os.path.isfile(p):
            files.append(p)
        for root, dirs, names in os.walk(p):
            dirs.sort()
            files.extend(os.path.join(root, n) for n in sorted(names) if n.endswith(".swift"))
    found = []
    for f in files:
        found.extend(check(f, max_lines, max_parameters))
    default_limits = (max_lines, max_parameters) == (60, 6)
    allowed = ALLOWED if default_limits else {}
    failing = [text for key, text in found if key not in allowed]
    for key, text in found:
        if key not in allowed or show_all:
            print(text + ("  (allowed: %s)" % allowed[key] if key in allowed else ""))
    stale = sorted(set(allowed) - {key for key, _ in found}) if whole and default_limits else []
    for key in stale:
        print("%s: no longer over the limits: remove it from ALLOWED in .ci/function-length.py" % key)
    if failing or stale:
        print("%d functions longer than %d lines of code or with more than %d parameters (issue #16; "
              "%d allowed)" % (len(failing), max_lines, max_parameters, len(found) - len(failing)),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
