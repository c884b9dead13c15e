/// Every diagnostic `GraphQLSDL` reports, defined once: its stable code, its message and its hint.
/// The lexer and the parser report cases of this enum; tests match codes and positions, never the
/// wording here.
enum SDLDiagnosticMessage {
  // MARK: Lexical (§2)
  case incompleteSpread(dots: String)
  /// A run of `count` bytes that are not UTF-8, the first `byte`.
  case invalidUTF8(byte: UInt8, count: Int)
  case nonASCIILetterInName(Unicode.Scalar)
  case nonASCIICharacter(Unicode.Scalar)
  /// A run of `count` control characters, the first `first`.
  case controlCharacters(first: UInt8, count: Int)
  case unexpectedCharacter(UInt8)
  /// A run of `count` characters (`text`, at least two) that start no token, the first byte `first`.
  case unexpectedCharacters(text: String, count: Int, first: UInt8)
  case leadingZero(number: String)
  case invalidNumberSuffix(number: String, following: UInt8)
  case expectedDigit(after: String, found: String)
  case stringEndsAtLineEnd
  case stringEndsAtFileEnd
  case invalidEscapeSequence(shown: String)
  case unicodeEscapeNotAScalar(escape: String)
  case malformedBracedUnicodeEscape(escape: String)
  case malformedUnicodeEscape(escape: String)
  case loneSurrogate(escape: String)
  case unterminatedBlockString
  case inputTooLarge(byteCount: Int)

  // MARK: Syntax (§3)
  case expectedDefinition(found: String, suggestion: String?)
  case anonymousOperation
  case executableDefinition(keyword: String)
  case danglingDescription(found: String)
  case descriptionOnExtension
  case invalidExtension(found: String)
  case emptyExtension(kind: String, needs: String)
  case expectedName(what: String, found: String)
  case expectedToken(token: String, context: String, found: String)
  case expectedOn(directive: String, found: String)
  case expectedType(found: String)
  case expectedValue(found: String)
  case unclosedBraces(what: String, found: String)
  case unclosedArguments(owner: String, found: String)
  case unclosedListType(found: String)
  case unclosedListValue(found: String)
  case unclosedObjectValue(found: String)
  case emptyBraces(what: String)
  case emptyArguments(owner: String)
  case variableInConstValue(variable: String)
  case nestingTooDeep(what: String, limit: Int)
  case unknownDirectiveLocation(name: String, suggestion: String?)
  case reservedEnumValueName(name: String)
  case unknownOperationType(name: String, suggestion: String?)
  case expectedAmpersand(previous: String, found: String)
  case expectedUnionMember(union: String, found: String)
  case expectedPipe(previous: String, found: String)
  case doubleNonNull(type: String)
  case defaultValueOnField(field: String)
  case tooManyErrors(limit: Int)

  /// The stable code (see ``SDLDiagnosticCode``).
  var code: DiagnosticCode {
    switch self {
    case .incompleteSpread: SDLDiagnosticCode.incompleteSpread
    case .invalidUTF8: SDLDiagnosticCode.invalidUTF8
    case .nonASCIILetterInName, .nonASCIICharacter, .unexpectedCharacter, .unexpectedCharacters:
      SDLDiagnosticCode.unexpectedCharacter
    case .controlCharacters: SDLDiagnosticCode.unexpectedControlCharacter
    case .leadingZero: SDLDiagnosticCode.leadingZero
    case .invalidNumberSuffix: SDLDiagnosticCode.invalidNumberSuffix
    case .expectedDigit: SDLDiagnosticCode.expectedDigit
    case .stringEndsAtLineEnd, .stringEndsAtFileEnd: SDLDiagnosticCode.unterminatedString
    case .invalidEscapeSequence: SDLDiagnosticCode.invalidEscapeSequence
    case .unicodeEscapeNotAScalar, .malformedBracedUnicodeEscape, .malformedUnicodeEscape, .loneSurrogate:
      SDLDiagnosticCode.invalidUnicodeEscape
    case .unterminatedBlockString: SDLDiagnosticCode.unterminatedBlockString
    case .inputTooLarge: SDLDiagnosticCode.inputTooLarge
    case .expectedDefinition: SDLDiagnosticCode.expectedDefinition
    case .anonymousOperation, .executableDefinition: SDLDiagnosticCode.executableDefinition
    case .danglingDescription: SDLDiagnosticCode.danglingDescription
    case .descriptionOnExtension: SDLDiagnosticCode.descriptionOnExtension
    case .invalidExtension: SDLDiagnosticCode.invalidExtension
    case .emptyExtension: SDLDiagnosticCode.emptyExtension
    case .expectedName: SDLDiagnosticCode.expectedName
    case .expectedToken, .expectedOn: SDLDiagnosticCode.expectedToken
    case .expectedType: SDLDiagnosticCode.expectedType
    case .expectedValue: SDLDiagnosticCode.expectedValue
    case .unclosedBraces, .unclosedArguments, .unclosedListType, .unclosedListValue, .unclosedObjectValue:
      SDLDiagnosticCode.unclosedDelimiter
    case .emptyBraces, .emptyArguments: SDLDiagnosticCode.emptyList
    case .variableInConstValue: SDLDiagnosticCode.variableInConstValue
    case .nestingTooDeep: SDLDiagnosticCode.nestingTooDeep
    case .unknownDirectiveLocation: SDLDiagnosticCode.unknownDirectiveLocation
    case .reservedEnumValueName: SDLDiagnosticCode.reservedEnumValueName
    case .unknownOperationType: SDLDiagnosticCode.unknownOperationType
    case .expectedAmpersand: SDLDiagnosticCode.expectedAmpersand
    case .expectedUnionMember, .expectedPipe: SDLDiagnosticCode.expectedUnionMember
    case .doubleNonNull: SDLDiagnosticCode.doubleNonNull
    case .defaultValueOnField: SDLDiagnosticCode.defaultValueOnField
    case .tooManyErrors: SDLDiagnosticCode.tooManyErrors
    }
  }

  private static let definitionKinds =
    "`type`, `interface`, `enum`, `input`, `union`, `scalar`, `schema`, `directive` or `extend`"

  /// The message: one sentence, lowercase start, constructs in backticks, no trailing period.
  /// The messages of ``unexpectedCharacter(_:)`` and of one ``controlCharacters(first:count:)``
  /// for every ASCII byte, built once: a shared string costs a retain, not an allocation and an
  /// interpolation.
  private static let unexpectedCharacterMessages: [String] = (0..<0x80).map {
    "unexpected character `\(Character(Unicode.Scalar(UInt8($0))))`"
  }
  private static let controlCharacterMessages: [String] = (0..<0x80).map {
    "unexpected control character U+\(hex(UInt32($0), width: 4))"
  }
  /// The messages of one invalid byte (``invalidUTF8(byte:count:)``) for every byte, built once
  /// (a fuzzer's inputs are mostly such bytes).
  private static let invalidUTF8Messages: [String] = (0..<0x100).map {
    "invalid UTF-8 byte 0x\(hex(UInt32($0), width: 2))"
  }

  var message: String {
    switch self {
    case .incompleteSpread(let dots):
      "unexpected `\(DiagnosticText.shortened(dots))`; the only punctuator with dots is `...`"
    case .invalidUTF8(let byte, count: 1): Self.invalidUTF8Messages[Int(byte)]
    case .invalidUTF8(let byte, let count):
      "\(count) invalid UTF-8 bytes starting with 0x\(hex(UInt32(byte), width: 2))"
    case .nonASCIILetterInName(let scalar):
      "unexpected character U+\(hex(scalar.value, width: 4)) `\(DiagnosticText.shortened(String(scalar)))` in a name; names are ASCII letters, digits and `_`"
    case .nonASCIICharacter(let scalar):
      "unexpected character U+\(hex(scalar.value, width: 4)) `\(DiagnosticText.shortened(String(scalar)))`; non-ASCII characters are allowed only in strings and comments"
    case .controlCharacters(let byte, count: 1) where byte < 0x80: Self.controlCharacterMessages[Int(byte)]
    case .controlCharacters(let byte, count: 1): "unexpected control character U+\(hex(UInt32(byte), width: 4))"
    case .controlCharacters(let byte, let count):
      "\(count) unexpected control characters starting with U+\(hex(UInt32(byte), width: 4))"
    case .unexpectedCharacter(let byte) where byte < 0x80: Self.unexpectedCharacterMessages[Int(byte)]
    case .unexpectedCharacter(let byte): "unexpected character `\(Character(Unicode.Scalar(byte)))`"
    case .unexpectedCharacters(let text, let count, _):
      "\(count) unexpected characters `\(DiagnosticText.shortened(text))`"
    case .leadingZero(let number):
      "invalid number `\(DiagnosticText.shortened(number))`: an integer part cannot start with `0`"
    case .invalidNumberSuffix(let number, let following):
      "invalid number `\(DiagnosticText.shortened(number))`: a number cannot be followed by `\(Character(Unicode.Scalar(following)))`"
    case .expectedDigit(let after, let found):
      "invalid number: expected a digit \(DiagnosticText.shortened(after)), found \(found)"
    case .stringEndsAtLineEnd: "unterminated string: a quoted string ends at the end of its line"
    case .stringEndsAtFileEnd: "unterminated string: end of file before the closing `\"`"
    case .invalidEscapeSequence(let shown): "invalid escape sequence `\(DiagnosticText.shortened(shown))` in string"
    case .unicodeEscapeNotAScalar(let escape):
      "invalid Unicode escape `\(DiagnosticText.shortened(escape))`: not a Unicode scalar value"
    case .malformedBracedUnicodeEscape(let escape):
      "invalid Unicode escape `\(DiagnosticText.shortened(escape))`: expected hexadecimal digits and `}`"
    case .malformedUnicodeEscape(let escape):
      "invalid Unicode escape `\(DiagnosticText.shortened(escape))`: expected four hexadecimal digits"
    case .loneSurrogate(let escape):
      "invalid Unicode escape `\(DiagnosticText.shortened(escape))`: a lone surrogate is not a Unicode scalar value"
    case .unterminatedBlockString: "unterminated block string: end of file before the closing `\"\"\"`"
    case .inputTooLarge(let byteCount): "input of \(byteCount) bytes is too large; the limit is 4 GiB"
    case .expectedDefinition(let found, _): "expected a definition (\(Self.definitionKinds)), found \(found)"
    case .anonymousOperation: "an operation `{ … }` is not allowed in a schema; only type-system definitions are"
    case .executableDefinition(let keyword):
      "executable definition `\(keyword)` is not allowed in a schema; only type-system definitions are"
    case .danglingDescription(let found): "description is not followed by a definition; found \(found)"
    case .descriptionOnExtension: "an extension cannot have a description"
    case .invalidExtension(let found):
      "expected `type`, `interface`, `union`, `enum`, `input`, `scalar` or `schema` after `extend`, found \(found)"
    case .emptyExtension(let kind, let needs): "`extend \(kind)` must add \(needs)"
    case .expectedName(let what, let found): "expected \(what), found \(found)"
    case .expectedToken(let token, let context, let found): "expected \(token) \(context), found \(found)"
    case .expectedOn(let directive, let found):
      "expected `on` and the locations of directive `@\(DiagnosticText.shortened(directive))`, found \(found)"
    case .expectedType(let found): "expected a type, found \(found)"
    case .expectedValue(let found): "expected a value, found \(found)"
    case .unclosedBraces(let what, let found): "expected `}` to end the \(what), found \(found)"
    case .unclosedArguments(let owner, let found): "expected `)` to end the arguments of \(owner), found \(found)"
    case .unclosedListType(let found): "expected `]` to end the list type, found \(found)"
    case .unclosedListValue(let found): "expected `]` to end the list value, found \(found)"
    case .unclosedObjectValue(let found): "expected `}` to end the object value, found \(found)"
    case .emptyBraces(let what): "empty `{}`: \(what) need at least one entry"
    case .emptyArguments(let owner): "empty `()`: the arguments of \(owner) need at least one entry"
    case .variableInConstValue(let variable):
      "variable `\(DiagnosticText.shortened(variable))` is not allowed here; default values and directive arguments must be constants"
    case .nestingTooDeep(let what, let limit): "\(what) nested deeper than \(limit) levels"
    case .unknownDirectiveLocation(let name, _): "unknown directive location `\(DiagnosticText.shortened(name))`"
    case .reservedEnumValueName(let name): "an enum value cannot be named `\(DiagnosticText.shortened(name))`"
    case .unknownOperationType(let name, _):
      "unknown operation type `\(DiagnosticText.shortened(name))`; expected `query`, `mutation` or `subscription`"
    case .expectedAmpersand(let previous, let found):
      "expected `&` between interfaces `\(DiagnosticText.shortened(previous))` and \(found)"
    case .expectedUnionMember(let union, let found):
      "expected a member type of union `\(DiagnosticText.shortened(union))` after `=`, found \(found)"
    case .expectedPipe(let previous, let found):
      "expected `|` between member types `\(DiagnosticText.shortened(previous))` and \(found)"
    case .doubleNonNull(let type): "type `\(DiagnosticText.shortened(type))` is already non-null"
    case .defaultValueOnField(let field):
      "field `\(DiagnosticText.shortened(field))` cannot have a default value; only arguments and input fields can"
    case .tooManyErrors(let limit): "too many errors; stopped after \(limit)"
    }
  }

  /// What to do about it. Every message has one (an exhaustive `switch`, no `default`): did you
  /// mean where a near name exists, the allowed values, or the valid form.
  var hint: String {
    switch self {
    case .unexpectedCharacter(UInt8(ascii: "'")), .unexpectedCharacters(_, _, first: UInt8(ascii: "'")):
      "strings are written in double quotes: \"…\""
    case .unexpectedCharacter, .unexpectedCharacters:
      "remove it; outside strings and comments a schema holds names, numbers, strings and the punctuators `! $ & ( ) ... : = @ [ ] { | }` (GraphQL spec §2.1.8)"
    case .invalidUTF8(0xFF, _), .invalidUTF8(0xFE, _):
      "bytes 0xFF and 0xFE never occur in UTF-8: the file is probably UTF-16 (it starts with the byte-order mark FF FE or FE FF); save it as UTF-8"
    case .invalidUTF8:
      "save the file as UTF-8 (a schema is Unicode text, read as UTF-8); convert text saved as Latin-1 or Windows-1252"
    case .nonASCIILetterInName:
      "write names with ASCII letters, digits and `_` only (GraphQL spec §2.1.9); other letters belong in strings and descriptions"
    case .nonASCIICharacter:
      "non-ASCII characters belong in strings (`\"…\"`), descriptions and comments (`# …`); remove it or quote it"
    case .controlCharacters:
      "remove it: outside strings only tab, line feed and carriage return are allowed; in a string write an escape (`\\u0000`)"
    case .incompleteSpread: "write `...` (three dots) or remove the dots"
    case .leadingZero: "remove the leading zero"
    case .invalidNumberSuffix: "separate the number from the next token or quote it as a string"
    case .expectedDigit: "write digits after the sign, the `.` or the exponent (`-2`, `1.5`, `1e3`)"
    case .stringEndsAtLineEnd: "close the string with `\"` or use a block string `\"\"\"…\"\"\"` for several lines"
    case .stringEndsAtFileEnd: "close the string with `\"`"
    case .invalidEscapeSequence:
      "valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX \\u{X…}; write `\\\\` for a backslash"
    case .unicodeEscapeNotAScalar:
      "write a Unicode scalar value: `\\u{0}` to `\\u{D7FF}` or `\\u{E000}` to `\\u{10FFFF}`"
    case .malformedBracedUnicodeEscape: "write hexadecimal digits between the braces: `\\u{1F600}`"
    case .malformedUnicodeEscape: "write four hexadecimal digits (`\\u00E9`), or `\\u{…}` for more"
    case .loneSurrogate: "write the character as `\\u{…}` or as a leading and trailing surrogate pair"
    case .unterminatedBlockString: "close the block string with `\"\"\"`"
    case .inputTooLarge: "split the schema into files smaller than 4 GiB"
    case .expectedDefinition(_, let suggestion?), .unknownDirectiveLocation(_, let suggestion?),
      .unknownOperationType(_, let suggestion?):
      "did you mean `\(DiagnosticText.shortened(suggestion))`?"
    case .expectedDefinition(_, nil):
      "start each definition with one of those keywords (`type Post @model { … }`), or remove the text"
    case .anonymousOperation, .executableDefinition:
      "remove it: operations and fragments belong in client documents; declare root fields in `type Query { … }`, `type Mutation { … }` or `type Subscription { … }`"
    case .danglingDescription:
      "put the description right before the definition, field, argument or enum value it describes, or remove it"
    case .descriptionOnExtension: "move the description to the definition being extended"
    case .invalidExtension:
      "write `extend type Name { … }` (or `interface`, `union`, `enum`, `input`, `scalar`, `schema`)"
    case .emptyExtension(let kind, let needs): "add \(needs), or remove the `extend \(kind)`"
    case .expectedName(let what, _): "write \(what): ASCII letters, digits and `_`, not starting with a digit"
    case .expectedToken(let token, let context, _): "write \(token) \(context)"
    case .expectedOn(let directive, _):
      "write the locations after `on`: `directive @\(DiagnosticText.shortened(directive)) on FIELD_DEFINITION | OBJECT`"
    case .expectedType: "write a type: a name, a list `[Post]`, or either with `!` (`ID!`, `[Post!]!`)"
    case .expectedValue:
      "write a value: a number, a string `\"…\"`, `true`, `false`, `null`, an enum value, a list `[…]` or an object `{…}`"
    case .unclosedBraces(let what, _): "add `}` to end the \(what); the note shows where it opens"
    case .unclosedArguments(let owner, _): "add `)` to end the arguments of \(owner); the note shows where they open"
    case .unclosedListType: "add `]` to end the list type, as in `[Post]`; the note shows where it opens"
    case .unclosedListValue: "add `]` to end the list; the note shows where it opens"
    case .unclosedObjectValue: "add `}` to end the object; the note shows where it opens"
    case .emptyBraces: "add an entry or remove the braces"
    case .emptyArguments: "add an argument or remove the parentheses"
    case .variableInConstValue: "write the value itself (a constant) instead of the variable"
    case .nestingTooDeep(let what, let limit): "nest \(what) at most \(limit) levels deep"
    case .unknownDirectiveLocation(_, nil):
      "use a location of GraphQL spec §3.13: `SCHEMA`, `SCALAR`, `OBJECT`, `FIELD_DEFINITION`, `ARGUMENT_DEFINITION`, `INTERFACE`, `UNION`, `ENUM`, `ENUM_VALUE`, `INPUT_OBJECT`, `INPUT_FIELD_DEFINITION`, or an executable one (`QUERY`, `FIELD`, …)"
    case .reservedEnumValueName: "rename the value (`TRUE`, `FALSE` and `NULL` in capitals are allowed)"
    case .unknownOperationType(_, nil): "use `query`, `mutation` or `subscription`"
    case .expectedAmpersand: "separate the interfaces with `&`: `implements Node & Entity`"
    case .expectedUnionMember, .expectedPipe:
      "list object types after `=`, separated by `|`: `union Result = Post | Comment`"
    case .doubleNonNull: "remove the second `!`"
    case .defaultValueOnField: "for an Amplify model field use `@default(value: …)`"
    case .tooManyErrors: "fix the errors above and run again"
    }
  }

  /// The error diagnostic for this message at `range` in `fileName`.
  func diagnostic(
    fileName: String, range: SourceRange, notes: [DiagnosticNote] = [], fixIt: FixIt? = nil
  ) -> Diagnostic {
    Diagnostic(
      severity: .error, code: code, message: message, fileName: fileName, range: range, notes: notes, hint: hint,
      fixIt: fixIt)
  }
}
