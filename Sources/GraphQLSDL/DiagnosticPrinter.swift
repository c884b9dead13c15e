/// Formats ``Diagnostic`` values as text.
///
/// Two forms:
/// - ``headline(_:)``: `path:line:col: error: message [CODE]`, one line, the form compilers print
///   and that Xcode, SwiftPM and editors turn into clickable locations.
/// - ``render(_:source:)``: the headline followed by the source line with a caret (`^`) under the
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
  static func snippet(_ range: SourceRange, in source: SourceFile) -> String {
    guard range.start.offset <= source.bytes.count else { return "" }
    let text = source.text(ofLineContaining: range.start.offset)
    let gutter = String(range.start.line)
    let pad = String(repeating: " ", count: gutter.count)
    let allScalars = Array(text.unicodeScalars)
    let caretIndex = range.start.column - 1
    let lastColumnOnLine =
      range.end.line == range.start.line ? range.end.column - 1 : allScalars.count
    // The window [first, last) of the line that is shown.
    var first = 0
    var last = allScalars.count
    if allScalars.count > maximumSnippetColumns {
      first = max(0, min(caretIndex - maximumSnippetColumns / 2, allScalars.count - maximumSnippetColumns))
      last = first + maximumSnippetColumns
    }
    let scalars = allScalars[first..<last]
    var shown = String(String.UnicodeScalarView(scalars))
    var marker = first > 0 ? " " : ""
    if first > 0 { shown = "…" + shown }
    if last < allScalars.count { shown += "…" }
    for index in first..<max(first, min(caretIndex, last)) {
      marker.append(allScalars[index] == "\t" ? "\t" : " ")
    }
    marker.append("^")
    let tildes = max(0, min(lastColumnOnLine, last) - range.start.column)
    marker += String(repeating: "~", count: tildes)
    return " \(gutter) | \(shown)\n \(pad) | \(marker)\n"
  }
}
