/// The catalog of diagnostic codes `GraphQLSDL` reports. Codes are stable: tests and users match on
/// them, never on message wording. `SDL001`–`SDL019` are lexical (GraphQL spec October 2021, §2),
/// `SDL020` and up are syntax (§3).
public enum SDLDiagnosticCode {
  // MARK: Lexical (§2)

  /// A character that starts no token, such as `%` or `?`, or a non-ASCII character outside a
  /// string or comment (§2.1.1 *SourceCharacter*, §2.1.8 *Punctuator*).
  public static let unexpectedCharacter: DiagnosticCode = "SDL001"
  /// Bytes that are not valid UTF-8.
  public static let invalidUTF8: DiagnosticCode = "SDL002"
  /// A control character such as NUL (U+0000) outside a string or comment.
  public static let unexpectedControlCharacter: DiagnosticCode = "SDL003"
  /// A quoted string without its closing `"` before the end of the line (§2.9.4).
  public static let unterminatedString: DiagnosticCode = "SDL004"
  /// A block string without its closing `"""` (§2.9.4).
  public static let unterminatedBlockString: DiagnosticCode = "SDL005"
  /// An escape sequence other than `\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t` `\u` (§2.9.4 *EscapedCharacter*).
  public static let invalidEscapeSequence: DiagnosticCode = "SDL006"
  /// A `\u` escape that is malformed or is not a Unicode scalar value (lone surrogate, above
  /// U+10FFFF) (§2.9.4 *EscapedUnicode*).
  public static let invalidUnicodeEscape: DiagnosticCode = "SDL007"
  /// An integer part with a leading zero, such as `007` (§2.9.1 *IntegerPart*).
  public static let leadingZero: DiagnosticCode = "SDL009"
  /// A number missing digits, such as `-`, `1.` or `1e` (§2.9.1, §2.9.2).
  public static let expectedDigit: DiagnosticCode = "SDL010"
  /// A number directly followed by a name start or `.`, such as `123abc` or `1.2.3` (§2.9.1 lookahead).
  public static let invalidNumberSuffix: DiagnosticCode = "SDL011"
  /// `.` or `..` where only the `...` punctuator exists (§2.1.8).
  public static let incompleteSpread: DiagnosticCode = "SDL012"
  /// An input of 4 GiB or more, beyond what ``SourceLocation`` can address.
  public static let inputTooLarge: DiagnosticCode = "SDL013"

  // MARK: Syntax (§3)

  /// A token that cannot start a type-system definition at the top level (§3 *TypeSystemDocument*).
  public static let expectedDefinition: DiagnosticCode = "SDL020"
  /// An executable definition (`query`, `mutation`, `subscription`, `fragment` or `{ … }`) in a
  /// type-system document (§3: only *TypeSystemDefinitionOrExtension* is allowed).
  public static let executableDefinition: DiagnosticCode = "SDL021"
  /// A name was required (§2.1.9 *Name*).
  public static let expectedName: DiagnosticCode = "SDL022"
  /// A specific punctuator or keyword was required, such as `:` after a field name.
  public static let expectedToken: DiagnosticCode = "SDL023"
  /// A type reference was required (§3.4.1 *Type*).
  public static let expectedType: DiagnosticCode = "SDL024"
  /// A value was required (§2.9 *Value*).
  public static let expectedValue: DiagnosticCode = "SDL025"
  /// An opening `{`, `(` or `[` without its closing partner; the note points at the opener.
  public static let unclosedDelimiter: DiagnosticCode = "SDL026"
  /// A variable `$name` in a const value (default values and directive arguments, §2.9 *Value[Const]*).
  public static let variableInConstValue: DiagnosticCode = "SDL027"
  /// Values or list types nested deeper than ``ParseOptions/maximumNestingDepth``.
  public static let nestingTooDeep: DiagnosticCode = "SDL028"
  /// A directive location name that §3.13 does not define.
  public static let unknownDirectiveLocation: DiagnosticCode = "SDL029"
  /// `{}` or `()` with nothing inside: fields, values, arguments and operation types lists need at
  /// least one entry (§3.6 *FieldsDefinition* and siblings).
  public static let emptyList: DiagnosticCode = "SDL030"
  /// `extend …` that adds nothing (§3.6.3 and siblings require directives, interfaces or fields).
  public static let emptyExtension: DiagnosticCode = "SDL031"
  /// A description before `extend` (extensions have no description, §3.6.3).
  public static let descriptionOnExtension: DiagnosticCode = "SDL032"
  /// A description that is not followed by something that can be described (§3.2).
  public static let danglingDescription: DiagnosticCode = "SDL033"
  /// An enum value named `true`, `false` or `null` (§3.9 *EnumValue*).
  public static let reservedEnumValueName: DiagnosticCode = "SDL034"
  /// An operation type other than `query`, `mutation` or `subscription` in `schema { … }` (§3.3.1).
  public static let unknownOperationType: DiagnosticCode = "SDL035"
  /// Interfaces not separated by `&` after `implements` (§3.6 *ImplementsInterfaces*).
  public static let expectedAmpersand: DiagnosticCode = "SDL037"
  /// A union with `=` but no member types, or members not separated by `|` (§3.8).
  public static let expectedUnionMember: DiagnosticCode = "SDL039"
  /// `!` after a type that is already non-null, such as `Int!!` (§3.4.1 *NonNullType*).
  public static let doubleNonNull: DiagnosticCode = "SDL043"
  /// A default value on an object or interface field; only arguments and input fields take
  /// defaults (§3.6 *FieldDefinition*).
  public static let defaultValueOnField: DiagnosticCode = "SDL047"
  /// `extend` followed by something other than a type-system definition keyword (§3.1.1).
  public static let invalidExtension: DiagnosticCode = "SDL049"
  /// The parser stopped after ``ParseOptions/maximumDiagnosticCount`` diagnostics.
  public static let tooManyErrors: DiagnosticCode = "SDL099"
}
