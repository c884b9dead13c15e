/// The kinds of lexical tokens (GraphQL spec October 2021, §2.1.6 *Token*).
enum TokenKind: UInt8, Sendable {
  case endOfFile
  case bang  // !
  case dollar  // $
  case ampersand  // &
  case parenLeft  // (
  case parenRight  // )
  case spread  // ...
  case colon  // :
  case equals  // =
  case at  // @
  case bracketLeft  // [
  case bracketRight  // ]
  case braceLeft  // {
  case pipe  // |
  case braceRight  // }
  case name
  case int
  case float
  case string
  case blockString

  /// How the token is named in messages.
  var spelling: String {
    switch self {
    case .endOfFile: "end of file"
    case .bang: "`!`"
    case .dollar: "`$`"
    case .ampersand: "`&`"
    case .parenLeft: "`(`"
    case .parenRight: "`)`"
    case .spread: "`...`"
    case .colon: "`:`"
    case .equals: "`=`"
    case .at: "`@`"
    case .bracketLeft: "`[`"
    case .bracketRight: "`]`"
    case .braceLeft: "`{`"
    case .pipe: "`|`"
    case .braceRight: "`}`"
    case .name: "a name"
    case .int: "an integer"
    case .float: "a float"
    case .string: "a string"
    case .blockString: "a block string"
    }
  }
}

/// One token: its kind and where it is. A trivial (POD) value, cheap to copy; the decoded value of
/// the latest string token is ``Lexer/stringValue``.
struct Token: Sendable {
  var kind: TokenKind
  var start: SourceLocation
  var end: SourceLocation

  var range: SourceRange { SourceRange(start: start, end: end) }
}
