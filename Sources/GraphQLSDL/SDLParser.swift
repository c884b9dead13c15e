import Foundation

/// Limits and switches for ``SDLParser``.
public struct ParseOptions: Sendable, Hashable {
  /// The deepest nesting of list/object values and list types accepted; deeper input gets
  /// ``SDLDiagnosticCode/nestingTooDeep`` instead of risking a stack overflow. Default 64.
  public var maximumNestingDepth: Int
  /// The most diagnostics collected before the parser stops with
  /// ``SDLDiagnosticCode/tooManyErrors``; also the limit of the ``DiagnosticBudget`` the result
  /// hands on to later stages (``ParseResult/budget``). Default 200.
  public var maximumDiagnosticCount: Int

  /// Creates options; the defaults suit any hand-written schema. Values below 1 are raised to 1.
  public init(maximumNestingDepth: Int = 64, maximumDiagnosticCount: Int = DiagnosticBudget.defaultLimit) {
    self.maximumNestingDepth = max(1, maximumNestingDepth)
    self.maximumDiagnosticCount = max(1, maximumDiagnosticCount)
  }
}

/// What ``SDLParser`` returns: the document (with every definition that parsed), every diagnostic
/// in source order, and the source for printing snippets.
public struct ParseResult: Sendable {
  /// The parsed document. When ``hasErrors`` is `true` it holds only the definitions that parsed
  /// cleanly and must not be used to generate code.
  public var document: Document
  /// Every diagnostic found, sorted by position.
  public var diagnostics: [Diagnostic]
  /// The file that was parsed.
  public var source: SourceFile
  /// What is left of the diagnostics budget (``ParseOptions/maximumDiagnosticCount``) after
  /// parsing: pass it to the next stage so that one schema reports at most that many in all.
  public var budget: DiagnosticBudget

  /// Creates a result; `budget` defaults to one of 200 with one spent per diagnostic (and
  /// exhausted when `diagnostics` holds `SDL099`).
  public init(document: Document, diagnostics: [Diagnostic], source: SourceFile, budget: DiagnosticBudget? = nil) {
    self.document = document
    self.diagnostics = diagnostics
    self.source = source
    let tooMany = diagnostics.contains { $0.code == SDLDiagnosticCode.tooManyErrors }
    self.budget =
      budget
      ?? DiagnosticBudget(
        spent: diagnostics.count - (tooMany ? 1 : 0), isExhausted: tooMany)
  }

  /// `true` when any diagnostic has severity ``DiagnosticSeverity/error``.
  public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

  /// The diagnostics rendered for a person (headline, snippet with caret, notes), see
  /// `DiagnosticPrinter.render(_:source:)`.
  public var renderedDiagnostics: String { DiagnosticPrinter.render(diagnostics, source: source) }
}

/// The entry point of `GraphQLSDL`: parses GraphQL type-system documents (GraphQL spec October
/// 2021, §2 lexical grammar and §3 type system) into a ``Document``.
///
/// The parser never throws and never traps on any input: lexical and syntax errors become
/// ``Diagnostic`` values with stable `SDL` codes (``SDLDiagnosticCode``), and the parser recovers
/// after each so that every mistake in a file is reported. Executable definitions (`query`,
/// `mutation`, `subscription`, `fragment`, `{ … }`) and variables in const values are errors.
/// Pure functions; safe to call concurrently.
public enum SDLParser {
  /// Parses schema text.
  /// - Parameters:
  ///   - source: the schema text.
  ///   - fileName: the name printed in diagnostics (`fileName:line:col`).
  ///   - options: limits; the defaults suit any hand-written schema.
  /// - Returns: the document and every diagnostic.
  public static func parse(_ source: String, fileName: String = "<input>", options: ParseOptions = ParseOptions())
    -> ParseResult
  {
    parse(SourceFile(fileName: fileName, text: source), options: options)
  }

  /// Parses schema bytes that may not be valid UTF-8 (invalid sequences are reported as
  /// ``SDLDiagnosticCode/invalidUTF8``).
  /// - Parameters:
  ///   - bytes: the file contents.
  ///   - fileName: the name printed in diagnostics.
  ///   - options: limits.
  public static func parse(bytes: [UInt8], fileName: String, options: ParseOptions = ParseOptions()) -> ParseResult {
    parse(SourceFile(fileName: fileName, bytes: bytes), options: options)
  }

  /// Reads and parses the file at `url`; diagnostics name it `fileName` (default: `url.path`).
  /// - Throws: the error of `Data(contentsOf:)` when the file cannot be read. Schema mistakes are
  ///   never thrown; they are in ``ParseResult/diagnostics``.
  public static func parse(contentsOf url: URL, fileName: String? = nil, options: ParseOptions = ParseOptions())
    throws -> ParseResult
  {
    let data = try Data(contentsOf: url)
    return parse(bytes: [UInt8](data), fileName: fileName ?? url.path, options: options)
  }

  /// Parses a ``SourceFile``.
  public static func parse(_ source: SourceFile, options: ParseOptions = ParseOptions()) -> ParseResult {
    Parser.parse(source, options: options)
  }
}
