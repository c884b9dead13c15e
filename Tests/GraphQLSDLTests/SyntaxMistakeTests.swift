import GraphQLSDL
import Testing

/// One syntax mistake: marked schema text and the diagnostics (code at marker) it must produce.
struct SyntaxMistake: Sendable, CustomTestStringConvertible {
  let name: String
  let schema: String
  let expected: [(code: DiagnosticCode, at: String)]

  init(_ name: String, _ schema: String, _ expected: (DiagnosticCode, String)...) {
    self.name = name
    self.schema = schema
    self.expected = expected.map { (code: $0.0, at: $0.1) }
  }

  var testDescription: String { name }
}

typealias Code = SDLDiagnosticCode

/// The positions and codes of distinct syntax mistakes; each file also checks that the parser
/// reports nothing else (no cascades).
let syntaxMistakes: [SyntaxMistake] = [
  // Lexical (§2)
  SyntaxMistake("unexpected character", "type A { a: Int 1️⃣% }", (Code.unexpectedCharacter, "1️⃣")),
  SyntaxMistake(
    "single-quoted string", "scalar S @d(a: 1️⃣'x2️⃣')", (Code.unexpectedCharacter, "1️⃣"),
    (Code.unexpectedCharacter, "2️⃣")),
  SyntaxMistake("control character", "scalar A 1️⃣\u{7}", (Code.unexpectedControlCharacter, "1️⃣")),
  SyntaxMistake("non-ASCII name", "type A { 1️⃣é: Int }", (Code.unexpectedCharacter, "1️⃣")),
  SyntaxMistake("two dots", "type A { a: Int 1️⃣.. }", (Code.incompleteSpread, "1️⃣")),
  SyntaxMistake("string across lines", "scalar S @d(a: 1️⃣\"abc\n)", (Code.unterminatedString, "1️⃣")),
  SyntaxMistake(
    "string at end of file", "scalar S @d(a: 1️⃣\"abc2️⃣", (Code.unterminatedString, "1️⃣"),
    (Code.unclosedDelimiter, "2️⃣")),
  SyntaxMistake(
    "block string at end of file", "1️⃣\"\"\"abc\nmore", (Code.unterminatedBlockString, "1️⃣"),
    (Code.danglingDescription, "1️⃣")),
  SyntaxMistake("unknown escape", "scalar S @d(a: \"x1️⃣\\q\")", (Code.invalidEscapeSequence, "1️⃣")),
  SyntaxMistake("short unicode escape", "scalar S @d(a: \"1️⃣\\u12G4\")", (Code.invalidUnicodeEscape, "1️⃣")),
  SyntaxMistake("lone surrogate", "scalar S @d(a: \"a1️⃣\\uD800b\")", (Code.invalidUnicodeEscape, "1️⃣")),
  SyntaxMistake("escape above U+10FFFF", "scalar S @d(a: \"1️⃣\\u{110000}\")", (Code.invalidUnicodeEscape, "1️⃣")),
  SyntaxMistake("unclosed braced escape", "scalar S @d(a: \"1️⃣\\u{41\")", (Code.invalidUnicodeEscape, "1️⃣")),
  SyntaxMistake("leading zero", "type A { f(a: Int = 1️⃣007): Int }", (Code.leadingZero, "1️⃣")),
  SyntaxMistake("no digit after dot", "type A { f(a: Float = 1.1️⃣): Int }", (Code.expectedDigit, "1️⃣")),
  SyntaxMistake("no digit in exponent", "type A { f(a: Float = 2e1️⃣): Int }", (Code.expectedDigit, "1️⃣")),
  SyntaxMistake("lone minus", "type A { f(a: Int = -1️⃣): Int }", (Code.expectedDigit, "1️⃣")),
  SyntaxMistake("number followed by a name", "type A { f(a: Int = 121️⃣ab): Int }", (Code.invalidNumberSuffix, "1️⃣")),
  SyntaxMistake("number with two dots", "type A { f(a: Float = 1.21️⃣.3): Int }", (Code.invalidNumberSuffix, "1️⃣")),

  // Definitions (§3)
  SyntaxMistake("misspelt keyword", "1️⃣typ A { a: Int }", (Code.expectedDefinition, "1️⃣")),
  SyntaxMistake("stray closing brace", "type A { a: Int }\n1️⃣}", (Code.expectedDefinition, "1️⃣")),
  SyntaxMistake("query operation", "1️⃣query { a }", (Code.executableDefinition, "1️⃣")),
  SyntaxMistake("mutation with variables", "1️⃣mutation M($a: Int) { x(a: $a) }", (Code.executableDefinition, "1️⃣")),
  SyntaxMistake("fragment", "1️⃣fragment F on T { a }\nscalar S", (Code.executableDefinition, "1️⃣")),
  SyntaxMistake("anonymous operation", "1️⃣{ a }", (Code.executableDefinition, "1️⃣")),
  SyntaxMistake("type without a name", "type 1️⃣{ a: Int }", (Code.expectedName, "1️⃣")),
  SyntaxMistake("field without a colon", "type A {\n  title 1️⃣String\n}", (Code.expectedToken, "1️⃣")),
  SyntaxMistake("field name is a number", "type A { 1️⃣123: Int }", (Code.expectedName, "1️⃣")),
  SyntaxMistake("field without a type", "type A { a: 1️⃣}", (Code.expectedType, "1️⃣")),
  SyntaxMistake("missing closing brace at end of file", "type A {\n  a: Int\n1️⃣", (Code.unclosedDelimiter, "1️⃣")),
  SyntaxMistake(
    "missing closing brace before next type", "type A {\n  a: Int\n1️⃣type B { b: Int }", (Code.unclosedDelimiter, "1️⃣")),
  SyntaxMistake("unclosed list type", "type A { a: [Int 1️⃣}", (Code.unclosedDelimiter, "1️⃣")),
  SyntaxMistake("double non-null", "type A { a: Int!1️⃣! }", (Code.doubleNonNull, "1️⃣")),
  SyntaxMistake("empty field list", "type A 1️⃣{}", (Code.emptyList, "1️⃣")),
  SyntaxMistake("empty argument definitions", "type A { f1️⃣(): Int }", (Code.emptyList, "1️⃣")),
  SyntaxMistake("empty directive arguments", "type A @model1️⃣() { a: Int }", (Code.emptyList, "1️⃣")),
  SyntaxMistake("default value on a field", "type A { a: Int 1️⃣= 5 }", (Code.defaultValueOnField, "1️⃣")),
  SyntaxMistake("interfaces without ampersand", "type A implements B 1️⃣C { a: Int }", (Code.expectedAmpersand, "1️⃣")),
  SyntaxMistake("interface name missing", "type A implements 1️⃣{ a: Int }", (Code.expectedName, "1️⃣")),
  SyntaxMistake("union without members", "union U =\n1️⃣", (Code.expectedUnionMember, "1️⃣")),
  SyntaxMistake("union members without pipe", "union U = A 1️⃣B", (Code.expectedUnionMember, "1️⃣")),
  SyntaxMistake("enum value true", "enum E { A 1️⃣true }", (Code.reservedEnumValueName, "1️⃣")),
  SyntaxMistake("enum value null", "enum E { 1️⃣null B }", (Code.reservedEnumValueName, "1️⃣")),
  SyntaxMistake("input field without type", "input I { a: 1️⃣= 1 }", (Code.expectedType, "1️⃣")),
  SyntaxMistake("unknown operation type", "schema { 1️⃣queries: Q }", (Code.unknownOperationType, "1️⃣")),
  SyntaxMistake("schema without braces", "schema 1️⃣query: Q", (Code.expectedToken, "1️⃣")),
  SyntaxMistake("directive definition without at", "directive 1️⃣d on OBJECT", (Code.expectedToken, "1️⃣")),
  SyntaxMistake("directive definition without on", "directive @d(a: Int) 1️⃣OBJECT", (Code.expectedToken, "1️⃣")),
  SyntaxMistake(
    "unknown directive location", "directive @d on OBJECT | 1️⃣FIELD_DEF", (Code.unknownDirectiveLocation, "1️⃣")),
  SyntaxMistake("empty extension", "1️⃣extend type A\nscalar B", (Code.emptyExtension, "1️⃣")),
  SyntaxMistake("description on extension", "1️⃣\"doc\" extend type A @x", (Code.descriptionOnExtension, "1️⃣")),
  SyntaxMistake("description followed by nothing", "type A { a: Int }\n1️⃣\"orphan\"", (Code.danglingDescription, "1️⃣")),
  SyntaxMistake("extend a directive", "extend 1️⃣directive @d on FIELD", (Code.invalidExtension, "1️⃣")),

  // Directives and values (§2.6, §2.9, §2.12)
  SyntaxMistake("directive without a name", "type A @1️⃣(x: 1) { a: Int }", (Code.expectedName, "1️⃣")),
  SyntaxMistake("argument without a name", "scalar S @d(1️⃣: 1)", (Code.expectedName, "1️⃣")),
  SyntaxMistake("argument without a value", "scalar S @d(a: 1️⃣)", (Code.expectedValue, "1️⃣")),
  SyntaxMistake("argument without a colon", "scalar S @d(a 1️⃣1)", (Code.expectedToken, "1️⃣")),
  SyntaxMistake("unclosed directive arguments", "type A @d(a: 1 1️⃣{ a: Int }", (Code.unclosedDelimiter, "1️⃣")),
  SyntaxMistake("object value field without colon", "scalar S @d(a: {b 1️⃣1})", (Code.expectedToken, "1️⃣")),
  SyntaxMistake("unclosed list value", "scalar S @d(a: [1, 2 1️⃣", (Code.unclosedDelimiter, "1️⃣")),
  SyntaxMistake("unclosed object value", "scalar S @d(a: {b: 1 1️⃣", (Code.unclosedDelimiter, "1️⃣")),
  SyntaxMistake("variable in default value", "type A { f(a: Int = 1️⃣$x): Int }", (Code.variableInConstValue, "1️⃣")),
  SyntaxMistake(
    "variable in directive argument", "type A @key(fields: [1️⃣$f]) { a: Int }", (Code.variableInConstValue, "1️⃣")),
]

@Suite struct SyntaxMistakeTests {
  @Test(arguments: syntaxMistakes)
  func mistakeIsReportedAtItsPosition(_ mistake: SyntaxMistake) {
    expectDiagnostics(mistake.schema, mistake.expected)
  }

  @Test func atLeastThirtyDistinctMistakesWithManyDistinctCodes() {
    #expect(Set(syntaxMistakes.map(\.name)).count == syntaxMistakes.count)
    #expect(syntaxMistakes.count >= 30)
    #expect(Set(syntaxMistakes.flatMap { $0.expected.map(\.code) }).count >= 30)
  }

  @Test func diagnosticsCarryNotesHintsAndFixIts() {
    let source = MarkedSource("type A 1️⃣{\n  a 2️⃣Int\n3️⃣")
    let result = parse(source.text)
    #expect(result.diagnostics.count == 2)
    let missingColon = result.diagnostics[0]
    #expect(missingColon.code == Code.expectedToken)
    #expect("\(missingColon.line):\(missingColon.column)" == source.position("2️⃣"))
    #expect(missingColon.fixIt?.replacement == ":")
    #expect(missingColon.fixIt?.range.start.column == 4)
    let unclosed = result.diagnostics[1]
    #expect(unclosed.code == Code.unclosedDelimiter)
    #expect("\(unclosed.line):\(unclosed.column)" == source.position("3️⃣"))
    #expect(unclosed.notes.map { "\($0.range.start.line):\($0.range.start.column)" } == [source.position("1️⃣")])
    #expect(unclosed.severity == .error)

    let typo = parse("tpye A { a: Int }").diagnostics
    #expect(typo.first?.hint == "did you mean `type`?")
    #expect(typo.first?.fixIt?.replacement == "type")
    let location = parse("directive @d on FIELD_DEFINTION").diagnostics
    #expect(location.first?.hint == "did you mean `FIELD_DEFINITION`?")
  }
}
