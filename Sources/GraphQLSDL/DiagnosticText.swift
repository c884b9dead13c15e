/// The one way a diagnostic message (in `GraphQLSDL` and in every module that reuses
/// ``Diagnostic``) quotes text taken from the user's input: names, values, escape sequences.
///
/// Quoted text is bounded: more than ``maximumQuotedLength`` Unicode scalars are cut to that many,
/// the last one replaced by `…`, so a 10 MB type name costs a few dozen bytes per message, not
/// 10 MB. Line terminators, tabs and other control or invisible formatting characters
/// (C0, DEL, C1, U+2028/U+2029, bidirectional controls, U+FEFF) are written as escapes (`\n`,
/// `\u{202E}`), so a message is always one printable line. Pure functions, safe from any thread.
public enum DiagnosticText {
  /// The most Unicode scalars of user text a message quotes (the `…` included).
  public static let maximumQuotedLength = 80

  /// `text` shortened and escaped for a message (see ``DiagnosticText``). Reads at most
  /// `limit + 1` scalars of `text` whatever its length.
  /// - Parameters:
  ///   - text: the user's text, any length.
  ///   - limit: the most scalars kept (at least 2); default ``maximumQuotedLength``.
  /// - Returns: at most `limit` scalars of `text` (escapes count as one), `…` last when cut.
  public static func shortened(_ text: some StringProtocol, limit: Int = maximumQuotedLength) -> String {
    let limit = max(2, limit)
    // Most quoted text is a short printable-ASCII name or number: then it is its own result, and
    // no scalar array or per-scalar append is needed.
    let utf8 = text.utf8
    if utf8.count <= limit, !utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) { return String(text) }
    var kept: [Unicode.Scalar] = []
    var cut = false
    for scalar in text.unicodeScalars {
      if kept.count == limit {
        cut = true
        break
      }
      kept.append(scalar)
    }
    if cut { kept.removeLast() }
    var out = ""
    for scalar in kept { appendEscaped(scalar, to: &out) }
    if cut { out += "…" }
    return out
  }

  /// Appends `scalar`, or its escape when it is a line terminator, a control character or an
  /// invisible formatting character.
  static func appendEscaped(_ scalar: Unicode.Scalar, to out: inout String) {
    switch scalar.value {
    case 0x0A: out += "\\n"
    case 0x0D: out += "\\r"
    case 0x09: out += "\\t"
    case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF:
      out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    default: out.unicodeScalars.append(scalar)
    }
  }
}
