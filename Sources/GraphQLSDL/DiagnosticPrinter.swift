/// Formats ``Diagnostic`` values as text.
///
/// Two forms:
/// - ``headline(_:)``: `path:line:col: error: message [CODE]`, one line, the form compilers print
///   and that Xcode, SwiftPM and editors turn into clickable locations.
/// - `render(_:source:)`: the headline followed by the source line with a caret (`^`) under the
///   start and `~` under the rest of the range on that line, the hint, the fix-it, and each note as
///   its own `path:line:col: note: message` line with its snippet.
///
/// Columns printed are the 1-based Unicode-scalar columns of ``SourceLocation``. Pure functions,
/// safe to call from any thread.
public enum DiagnosticPrinter {
  /// The one-line form `path:line:col: severity: message [CODE]`.
  public static func headline(_ diagnostic: Diagnostic) -> String {
    "\(diagnostic.fileName):\(diagnostic.range.start.line):\(diagnostic.range.start.column): "
      + "\(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.code.rawValue)]"
  }

  /// The one-line forms of `diagnostics`, one per line, each line ending in `\n`.
  public static func headlines(_ diagnostics: [Diagnostic]) -> String {
    diagnostics.map { headline($0) + "\n" }.joined()
  }

  /// The form for a person: the headline, a source snippet with caret, hint, fix-it and notes.
  /// - Parameters:
  ///   - diagnostic: the diagnostic to print.
  ///   - source: the file the diagnostic points into; when `nil` no snippets are printed.
  /// - Returns: lines joined by `\n`, ending in `\n`.
  public static func render(_ diagnostic: Diagnostic, source: SourceFile?) -> String {
    var out = headline(diagnostic) + "\n"
    if let source { out += snippet(diagnostic.range, in: source) }
    if let hint = diagnostic.hint { out += "  hint: \(hint)\n" }
    if let fixIt = diagnostic.fixIt {
      out += "  fix-it: \(fixIt.message): replace \(fixIt.range) with \"\(fixIt.replacement)\"\n"
    }
    for note in diagnostic.notes {
      out += "\(diagnostic.fileName):\(note.range.start.line):\(note.range.start.column): note: \(note.message)\n"
      if let source { out += snippet(note.range, in: source) }
    }
    return out
  }

  /// Renders every diagnostic with ``render(_:source:)``, in order.
  public static func render(_ diagnostics: [Diagnostic], source: SourceFile?) -> String {
    diagnostics.map { render($0, source: source) }.joined()
  }

  /// The widest source line a snippet echoes, in Unicode scalars; a longer line is cut to a
  /// window of this many columns around the caret, with `…` marking each cut end (a 40 KB
  /// minified line must not be printed once per diagnostic).
  static let maximumSnippetColumns = 120

  /// The source line of `range.start` with a gutter, and a marker line: `^` under the start, `~`
  /// under the rest of the range on that line. Tabs in the line are kept in the marker line so the
  /// caret lines up in a terminal. A line longer than ``maximumSnippetColumns`` is shown as a
  /// window of that width around the caret, `…` standing for each part cut off.
  ///
  /// Costs O(``maximumSnippetColumns``) whatever the length of the line or the file: only up to
  /// that many Unicode scalars on each side of the caret (at most `4 × (maximumSnippetColumns +
  /// 1)` bytes) are scanned for the line's ends and decoded, so printing *n* diagnostics on one
  /// long line is linear in *n*, not in *n* × the line length.
  static func snippet(_ range: SourceRange, in source: SourceFile) -> String {
    let bytes = source.bytes
    let caret = range.start.offset
    guard caret <= bytes.count else { return "" }
    let width = maximumSnippetColumns
    let reach = 4 * (width + 1)
    func isTerminator(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }
    func isContinuation(_ index: Int) -> Bool { index < bytes.count && bytes[index] & 0xC0 == 0x80 }

    // The region [regionStart, regionEnd) of the caret's line: at most `width` scalars on each
    // side of the caret (and at most `reach` bytes, however many continuation bytes there are).
    var regionStart = caret
    var scalarsBefore = 0
    while regionStart > 0, scalarsBefore < width, caret - regionStart < reach, !isTerminator(bytes[regionStart - 1]) {
      regionStart -= 1
      if !isContinuation(regionStart) { scalarsBefore += 1 }
    }
    let cutBefore = regionStart > 0 && !isTerminator(bytes[regionStart - 1])
    if cutBefore { while regionStart < caret, isContinuation(regionStart) { regionStart += 1 } }
    var regionEnd = caret
    var scalarsAfter = 0
    while regionEnd < bytes.count, regionEnd - caret < reach, !isTerminator(bytes[regionEnd]) {
      if !isContinuation(regionEnd) {
        if scalarsAfter == width { break }
        scalarsAfter += 1
      }
      regionEnd += 1
    }
    let cutAfter = regionEnd < bytes.count && !isTerminator(bytes[regionEnd])
    if cutAfter { while regionEnd > caret, isContinuation(regionEnd) { regionEnd -= 1 } }

    let before = displayText(bytes[regionStart..<caret])
    let after = displayText(bytes[caret..<regionEnd])
    let beforeCount = before.unicodeScalars.count
    let afterCount = after.unicodeScalars.count
    // Scalars shown before the caret (`shownBefore`) and from it on (`shownAfter`): the whole line
    // when it fits, else a window of `width` with the caret half-way, shifted left near the end.
    let afterTotal = cutAfter ? Int.max : afterCount
    let shownBefore = min(beforeCount, max(width / 2, width - min(afterTotal, width)))
    let shownAfter = min(afterCount, width - shownBefore)
    let cutsStart = shownBefore < beforeCount || cutBefore
    let cutsEnd = shownAfter < afterCount || cutAfter

    let visibleBefore =
      shownBefore == beforeCount ? before : String(before.unicodeScalars.dropFirst(beforeCount - shownBefore))
    let visibleAfter = shownAfter == afterCount ? after : String(after.unicodeScalars.prefix(shownAfter))
    var shown = cutsStart ? "…" : ""
    shown += visibleBefore
    shown += visibleAfter
    if cutsEnd { shown += "…" }
    var marker = cutsStart ? " " : ""
    if visibleBefore.utf8.contains(0x09) {
      for scalar in visibleBefore.unicodeScalars { marker.append(scalar == "\t" ? "\t" : " ") }
    } else {
      marker += String(repeating: " ", count: shownBefore)
    }
    marker.append("^")
    let rangeLength =
      range.end.line == range.start.line ? range.end.column - range.start.column : afterTotal
    marker += String(repeating: "~", count: max(0, min(rangeLength, shownAfter) - 1))
    let gutter = String(range.start.line)
    let pad = String(repeating: " ", count: gutter.count)
    return " \(gutter) | \(shown)\n \(pad) | \(marker)\n"
  }

  /// `slice` as a line is shown: invalid UTF-8 as U+FFFD, byte-order marks (U+FEFF, zero
  /// columns) left out.
  private static func displayText(_ slice: ArraySlice<UInt8>) -> String {
    let text = String(decoding: slice, as: UTF8.self)
    guard text.utf8.contains(0xEF), text.unicodeScalars.contains("\u{FEFF}") else { return text }
    return String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\u{FEFF}" }))
  }
}
