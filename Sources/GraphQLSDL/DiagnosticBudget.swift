/// How many diagnostics one schema may report, shared by every stage that reports them: the
/// lexer and the parser (``ParseOptions/maximumDiagnosticCount``), then every semantic rule of a
/// module built on `GraphQLSDL` (such as `ModelGen`). Once it is spent, the stage that hits the
/// limit reports one ``SDLDiagnosticCode/tooManyErrors`` (`SDL099`) and no more, so a schema with
/// 100,000 mistakes prints a bounded report.
///
/// A value type: each stage receives what the earlier ones left (``ParseResult/budget``) and owns
/// its copy. Not shared between threads while it is being spent.
public struct DiagnosticBudget: Sendable, Hashable {
  /// The default limit per schema: 200 diagnostics.
  public static let defaultLimit = 200

  /// The most diagnostics a schema reports (before the one `SDL099`), at least 1.
  public let limit: Int
  /// The diagnostics reported so far, `0...limit`.
  public private(set) var spent: Int
  /// `true` once a diagnostic was refused (and `SDL099` reported for it).
  public private(set) var isExhausted: Bool

  /// Creates a budget of `limit` diagnostics (values below 1 are raised to 1), `spent` of them used.
  public init(limit: Int = DiagnosticBudget.defaultLimit, spent: Int = 0, isExhausted: Bool = false) {
    self.limit = max(1, limit)
    self.spent = min(max(0, spent), self.limit)
    self.isExhausted = isExhausted || spent > self.limit
  }

  /// How many more diagnostics may be reported.
  public var remaining: Int { isExhausted ? 0 : limit - spent }

  /// Admits one diagnostic.
  /// - Returns: `.report` while the budget lasts; `.reportTooManyErrors` once, for the first
  ///   diagnostic beyond it (report ``tooManyErrors(fileName:range:)`` in its place); `.drop`
  ///   after that.
  public mutating func admit() -> Admission {
    if isExhausted { return .drop }
    if spent < limit {
      spent += 1
      return .report
    }
    isExhausted = true
    return .reportTooManyErrors
  }

  /// What ``admit()`` decided for one diagnostic.
  public enum Admission: Sendable, Hashable {
    /// Report the diagnostic.
    case report
    /// The budget just ran out: report `SDL099` instead of the diagnostic.
    case reportTooManyErrors
    /// The budget ran out earlier: report nothing.
    case drop
  }

  /// The `SDL099` diagnostic, `too many errors; stopped after LIMIT`, at `range` of `fileName`.
  public func tooManyErrors(fileName: String, range: SourceRange) -> Diagnostic {
    SDLDiagnosticMessage.tooManyErrors(limit: limit).diagnostic(fileName: fileName, range: range)
  }

  /// `diagnostics` in source order (stable for equal positions), with `SDL099` last wherever it
  /// points: the order in which diagnostics are printed.
  public static func inPrintingOrder(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    let tooMany = diagnostics.filter { $0.code == SDLDiagnosticCode.tooManyErrors }
    let rest = diagnostics.enumerated().filter { $0.element.code != SDLDiagnosticCode.tooManyErrors }
    return rest.sorted {
      ($0.element.range.start.offset, $0.offset) < ($1.element.range.start.offset, $1.offset)
    }.map(\.element) + tooMany
  }
}
