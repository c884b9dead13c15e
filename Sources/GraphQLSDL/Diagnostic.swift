/// How serious a ``Diagnostic`` is.
public enum DiagnosticSeverity: String, Sendable, Hashable, Comparable {
  /// Something the reader should know; the input is still accepted.
  case note
  /// Suspicious input that is still accepted.
  case warning
  /// Invalid input; results built from it must not be used.
  case error

  private var rank: Int {
    switch self {
    case .note: 0
    case .warning: 1
    case .error: 2
    }
  }

  /// Orders severities `note < warning < error`.
  public static func < (lhs: DiagnosticSeverity, rhs: DiagnosticSeverity) -> Bool {
    lhs.rank < rhs.rank
  }
}

/// A stable identifier of a kind of diagnostic, such as `SDL012`, printed in brackets after the
/// message. Codes never change meaning once released, so tests and users can rely on them.
///
/// `GraphQLSDL` uses the `SDL` prefix (see ``SDLDiagnosticCode``); other modules define their own
/// prefix (for example `MG` in `ModelGen`) and reuse ``Diagnostic``.
public struct DiagnosticCode: RawRepresentable, Sendable, Hashable, Comparable,
  ExpressibleByStringLiteral, CustomStringConvertible
{
  /// The code text, for example `"SDL012"`.
  public var rawValue: String

  /// Creates a code from its text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Creates a code from a literal such as `"SDL012"`.
  public init(stringLiteral value: String) { self.rawValue = value }

  /// Orders codes by their text.
  public static func < (lhs: DiagnosticCode, rhs: DiagnosticCode) -> Bool { lhs.rawValue < rhs.rawValue }

  /// The code text.
  public var description: String { rawValue }
}

/// A secondary message attached to a ``Diagnostic`` that points at a related place, such as
/// "to match this `{`".
public struct DiagnosticNote: Sendable, Hashable {
  /// The note text, one sentence without a trailing period.
  public var message: String
  /// The related source range, in the same file as the diagnostic.
  public var range: SourceRange

  /// Creates a note.
  public init(message: String, range: SourceRange) {
    self.message = message
    self.range = range
  }
}

/// A suggested edit that fixes a ``Diagnostic``: replace the text in `range` with `replacement`.
/// An empty range inserts; an empty replacement deletes.
public struct FixIt: Sendable, Hashable {
  /// What the edit does, for example "insert `:`".
  public var message: String
  /// The source text to replace (byte offsets of the diagnostic's file).
  public var range: SourceRange
  /// The new text.
  public var replacement: String

  /// Creates a fix-it.
  public init(message: String, range: SourceRange, replacement: String) {
    self.message = message
    self.range = range
    self.replacement = replacement
  }
}

/// One problem found in a source file, as a value: severity, stable code, message, where, and
/// optional notes, hint and fix-it.
///
/// Print it with ``DiagnosticPrinter``: ``description`` is the one-line
/// `path:line:col: error: message [CODE]` form that Xcode, SwiftPM and editors make clickable.
/// A value type, safe to share across threads. Its fields live in one immutable, shared box, so
/// copying a diagnostic (into a list, out of a list, through a sort) costs one reference count,
/// not one per field; setting a field copies the box first (copy-on-write), so values never
/// affect each other.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
  /// The fields, immutable and shared by every copy of this value.
  private final class Storage: Sendable {
    let severity: DiagnosticSeverity
    let code: DiagnosticCode
    let message: String
    let fileName: String
    let range: SourceRange
    let notes: [DiagnosticNote]
    let hint: String?
    let fixIt: FixIt?

    init(
      severity: DiagnosticSeverity, code: DiagnosticCode, message: String, fileName: String, range: SourceRange,
      notes: [DiagnosticNote], hint: String?, fixIt: FixIt?
    ) {
      self.severity = severity
      self.code = code
      self.message = message
      self.fileName = fileName
      self.range = range
      self.notes = notes
      self.hint = hint
      self.fixIt = fixIt
    }
  }

  private var storage: Storage

  /// Replaces the box by a copy with one field changed by `change` (copy-on-write of a field).
  private mutating func update(_ change: (inout Fields) -> Void) {
    var fields = Fields(
      severity: storage.severity, code: storage.code, message: storage.message, fileName: storage.fileName,
      range: storage.range, notes: storage.notes, hint: storage.hint, fixIt: storage.fixIt)
    change(&fields)
    storage = Storage(
      severity: fields.severity, code: fields.code, message: fields.message, fileName: fields.fileName,
      range: fields.range, notes: fields.notes, hint: fields.hint, fixIt: fields.fixIt)
  }

  /// The fields as plain variables, for ``update(_:)``.
  private struct Fields {
    var severity: DiagnosticSeverity
    var code: DiagnosticCode
    var message: String
    var fileName: String
    var range: SourceRange
    var notes: [DiagnosticNote]
    var hint: String?
    var fixIt: FixIt?
  }

  /// How serious the problem is.
  public var severity: DiagnosticSeverity {
    get { storage.severity }
    set { update { $0.severity = newValue } }
  }
  /// The stable code, for example `SDL012`.
  public var code: DiagnosticCode {
    get { storage.code }
    set { update { $0.code = newValue } }
  }
  /// One sentence, lowercase start, no trailing period, naming the construct in backticks.
  public var message: String {
    get { storage.message }
    set { update { $0.message = newValue } }
  }
  /// The file the diagnostic belongs to, as printed (`path` in `path:line:col`).
  public var fileName: String {
    get { storage.fileName }
    set { update { $0.fileName = newValue } }
  }
  /// The source text the diagnostic is about; its start is the printed `line:col`.
  public var range: SourceRange {
    get { storage.range }
    set { update { $0.range = newValue } }
  }
  /// Related places, printed after the diagnostic as `path:line:col: note: …`.
  public var notes: [DiagnosticNote] {
    get { storage.notes }
    set { update { $0.notes = newValue } }
  }
  /// A suggestion for the reader in words, for example "did you mean `type`?".
  public var hint: String? {
    get { storage.hint }
    set { update { $0.hint = newValue } }
  }
  /// A machine-applicable edit that fixes the problem, when one is certain enough.
  public var fixIt: FixIt? {
    get { storage.fixIt }
    set { update { $0.fixIt = newValue } }
  }

  /// Creates a diagnostic.
  public init(
    severity: DiagnosticSeverity,
    code: DiagnosticCode,
    message: String,
    fileName: String,
    range: SourceRange,
    notes: [DiagnosticNote] = [],
    hint: String? = nil,
    fixIt: FixIt? = nil
  ) {
    storage = Storage(
      severity: severity, code: code, message: message, fileName: fileName, range: range, notes: notes, hint: hint,
      fixIt: fixIt)
  }

  /// Two diagnostics are equal when every field is.
  public static func == (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
    if lhs.storage === rhs.storage { return true }
    return lhs.severity == rhs.severity && lhs.code == rhs.code && lhs.range == rhs.range
      && lhs.message == rhs.message && lhs.fileName == rhs.fileName && lhs.notes == rhs.notes
      && lhs.hint == rhs.hint && lhs.fixIt == rhs.fixIt
  }

  /// Hashes every field.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(severity)
    hasher.combine(code)
    hasher.combine(message)
    hasher.combine(fileName)
    hasher.combine(range)
    hasher.combine(notes)
    hasher.combine(hint)
    hasher.combine(fixIt)
  }

  /// The 1-based line of ``range``'s start.
  public var line: Int { range.start.line }
  /// The 1-based column (Unicode scalars) of ``range``'s start.
  public var column: Int { range.start.column }

  /// The one-line form `path:line:col: severity: message [CODE]`.
  public var description: String { DiagnosticPrinter.headline(self) }
}
