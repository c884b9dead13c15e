/// One problem found in a schema: a value with a severity, a stable code, a message, a position, an
/// optional hint and notes.
///
/// Printed as `path:line:col: error: message [MG012]` (see ``description``) so that Xcode, SwiftPM and
/// editors make it clickable. Tests compare ``code`` and ``location``, not wording.
public struct SchemaDiagnostic: Sendable, Hashable, CustomStringConvertible {
  /// How bad it is.
  public enum Severity: String, Sendable, Hashable {
    /// The schema cannot be generated.
    case error
    /// Generation proceeds; the schema probably does not mean what it says.
    case warning
  }

  /// A secondary position that explains the diagnostic (`first declared here`).
  public struct Note: Sendable, Hashable {
    /// The note text.
    public var message: String
    /// Where it points.
    public var location: SchemaLocation

    /// Creates a note.
    public init(message: String, location: SchemaLocation) {
      self.message = message
      self.location = location
    }
  }

  /// Error or warning.
  public var severity: Severity
  /// Stable code (`MG012`; parse errors keep the parser's own code).
  public var code: String
  /// One-line message without position or code.
  public var message: String
  /// A fix-it suggestion (`did you mean `Post`?`), or `nil`.
  public var hint: String?
  /// The schema file name as given to the analyzer.
  public var fileName: String
  /// Where the problem is.
  public var location: SchemaLocation
  /// Related positions.
  public var notes: [Note]

  /// Creates a diagnostic.
  public init(
    severity: Severity = .error, code: String, message: String, hint: String? = nil, fileName: String,
    location: SchemaLocation, notes: [Note] = []
  ) {
    self.severity = severity
    self.code = code
    self.message = message
    self.hint = hint
    self.fileName = fileName
    self.location = location
    self.notes = notes
  }

  /// Creates a diagnostic from a catalog entry.
  public init(_ error: SemanticError, fileName: String, location: SchemaLocation, notes: [Note] = []) {
    self.init(
      severity: error.severity, code: error.code.rawValue, message: error.message, hint: error.hint,
      fileName: fileName, location: location, notes: notes)
  }

  /// `path:line:col: error: message [CODE]`, then `hint` on its own line (`path:line:col: note: ...`)
  /// and one line per note, in the GCC/Clang format editors understand.
  public var description: String {
    var lines = ["\(fileName):\(location.line):\(location.column): \(severity.rawValue): \(message) [\(code)]"]
    if let hint {
      lines.append("\(fileName):\(location.line):\(location.column): note: \(hint)")
    }
    for note in notes {
      lines.append("\(fileName):\(note.location.line):\(note.location.column): note: \(note.message)")
    }
    return lines.joined(separator: "\n")
  }

  /// `true` for ``Severity/error``.
  public var isError: Bool { severity == .error }
}
