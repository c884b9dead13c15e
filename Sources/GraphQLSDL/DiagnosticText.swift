/// The one way a diagnostic message (in `GraphQLSDL` and in every module that reuses
/// ``Diagnostic``) quotes text taken from the user's input: names, values, escape sequences.
///
/// Quoted text is bounded by its *written width*: a printable Unicode scalar counts 1, an escape
/// counts its bytes (`\n` 2, `\u{7F}` 6, `\u{202E}` 8). Text wider than ``maximumQuotedLength`` is
/// cut to at most that width, `…` (width 1) last, so a 10 MB type name or a value of 10,000 control
/// characters costs a few dozen scalars per message, not 10 MB (and at most 4 UTF-8 bytes per unit
/// of width). Line terminators, tabs and other control or invisible formatting characters
/// (C0, DEL, C1, U+2028/U+2029, bidirectional controls, U+FEFF) are written as escapes (`\n`,
/// `\u{202E}`), so a message is always one printable line. An escape is never cut in half.
/// Already-shortened text passes through unchanged (its escapes are printable ASCII), so a
/// message may quote a reason that quotes user text. Pure functions, safe from any thread.
public enum DiagnosticText {
  /// The widest user text a message quotes (see ``DiagnosticText``; the `…` included).
  public static let maximumQuotedLength = 80

  /// `text` shortened and escaped for a message (see ``DiagnosticText``). Reads at most
  /// `limit + 1` scalars of `text` whatever its length.
  /// - Parameters:
  ///   - text: the user's text, any length.
  ///   - limit: the widest result (at least 2); default ``maximumQuotedLength``.
  /// - Returns: `text` with its escapes when its width is at most `limit`; otherwise its longest
  ///   prefix of width at most `limit - 1` (whole escapes only) and `…`.
  public static func shortened(_ text: some StringProtocol, limit: Int = maximumQuotedLength) -> String {
    shortenedText(text, limit: limit)
  }

  /// ``shortened(_:limit:)`` for a `String`, the usual argument: the same result, but compiled for
  /// `String` here, where a caller in another module runs the generic version (each `utf8` access
  /// a protocol call; about 7,000 instructions for a short name).
  public static func shortened(_ text: String, limit: Int = maximumQuotedLength) -> String {
    shortenedText(text, limit: limit)
  }

  private static func shortenedText(_ text: some StringProtocol, limit: Int) -> String {
    let limit = max(2, limit)
    // Most quoted text is a short printable-ASCII name or number: then it is its own result, and
    // no per-scalar append is needed.
    let utf8 = text.utf8
    if utf8.count <= limit, !utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) { return String(text) }
    var out = ""
    var width = 0
    // The length of `out` (UTF-8 bytes) while its width leaves room for the `…`.
    var cutAt = 0
    for scalar in text.unicodeScalars {
      let before = out.utf8.count
      // An escape is ASCII, so its width is its byte count; any other scalar is width 1.
      width += appendEscaped(scalar, to: &out) ? out.utf8.count - before : 1
      if width > limit {
        var bytes = Array(out.utf8.prefix(cutAt))
        bytes.append(contentsOf: "…".utf8)
        return String(decoding: bytes, as: UTF8.self)
      }
      if width < limit { cutAt = out.utf8.count }
    }
    return out
  }

  /// Appends `scalar`, or its escape when it is a line terminator, a control character or an
  /// invisible formatting character.
  /// - Returns: whether an escape was appended.
  @discardableResult
  static func appendEscaped(_ scalar: Unicode.Scalar, to out: inout String) -> Bool {
    switch scalar.value {
    case 0x0A: out += "\\n"
    case 0x0D: out += "\\r"
    case 0x09: out += "\\t"
    case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF:
      out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    default:
      out.unicodeScalars.append(scalar)
      return false
    }
    return true
  }
}
