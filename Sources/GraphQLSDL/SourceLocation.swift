/// A position in a source file: a byte offset plus the 1-based line and column an editor shows.
///
/// - `offset` counts UTF-8 bytes from the start of the file (0-based), before any byte-order mark is
///   skipped, so `offset` indexes ``SourceFile/bytes`` directly.
/// - `line` is 1-based. A line ends at a GraphQL *LineTerminator* (GraphQL spec October 2021,
///   §2.1.2): `\n`, `\r\n` (one terminator) or a lone `\r`.
/// - `column` is 1-based and counts **Unicode scalars** from the start of the line, so `é` or `😀`
///   before the position each count as one column and a tab counts as one column (as swiftc and
///   clang count). For an ASCII line this equals the byte offset within the line plus one. A
///   byte-order mark (U+FEFF) counts zero columns, since editors do not show it. Bytes that are not
///   valid UTF-8 count one column per byte that is not a continuation byte (`10xxxxxx`).
///
/// Stored in 32-bit fields to keep AST nodes small; ``SDLParser`` rejects inputs of 4 GiB or more.
/// A value type, safe to share across threads.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
  @usableFromInline internal var storedOffset: UInt32
  @usableFromInline internal var storedLine: UInt32
  @usableFromInline internal var storedColumn: UInt32

  /// The UTF-8 byte offset from the start of the file, 0-based.
  @inlinable public var offset: Int { Int(storedOffset) }
  /// The 1-based line number.
  @inlinable public var line: Int { Int(storedLine) }
  /// The 1-based column, counted in Unicode scalars from the start of the line.
  @inlinable public var column: Int { Int(storedColumn) }

  /// Creates a location.
  /// - Parameters:
  ///   - offset: UTF-8 byte offset from the start of the file, `0..<UInt32.max`.
  ///   - line: 1-based line number.
  ///   - column: 1-based column in Unicode scalars.
  /// - Precondition: every value fits in `UInt32`.
  @inlinable public init(offset: Int, line: Int, column: Int) {
    storedOffset = UInt32(offset)
    storedLine = UInt32(line)
    storedColumn = UInt32(column)
  }

  /// The first position of a file: offset 0, line 1, column 1.
  public static let startOfFile = SourceLocation(offset: 0, line: 1, column: 1)

  /// Orders locations by byte offset.
  @inlinable public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
    lhs.storedOffset < rhs.storedOffset
  }

  /// `line:column`, the form used in diagnostics.
  public var description: String { "\(line):\(column)" }
}

/// A half-open range of source text: `start` is the first byte, `end` is one past the last byte.
///
/// Every AST node carries one. An empty range (`start == end`) marks a position, such as the end
/// of the file. A value type, safe to share across threads.
public struct SourceRange: Sendable, Hashable, CustomStringConvertible {
  /// The location of the first byte of the range.
  public var start: SourceLocation
  /// The location just past the last byte of the range (exclusive).
  public var end: SourceLocation

  /// Creates a range from `start` (inclusive) to `end` (exclusive).
  @inlinable public init(start: SourceLocation, end: SourceLocation) {
    self.start = start
    self.end = end
  }

  /// An empty range at `location`.
  @inlinable public init(at location: SourceLocation) {
    self.init(start: location, end: location)
  }

  /// The length of the range in UTF-8 bytes.
  @inlinable public var byteCount: Int { end.offset - start.offset }

  /// The byte offsets covered, suitable for slicing ``SourceFile/bytes``.
  @inlinable public var byteOffsets: Range<Int> { start.offset..<end.offset }

  /// The smallest range that covers both `self` and `other`.
  @inlinable public func extended(to other: SourceRange) -> SourceRange {
    SourceRange(start: Swift.min(start, other.start), end: Swift.max(end, other.end))
  }

  /// An empty range at offset 0, line 1, column 1. Used by ``Document/withSourceRangesErased()``.
  public static let zero = SourceRange(at: .startOfFile)

  /// `line:column-line:column`.
  public var description: String { "\(start)-\(end)" }
}

/// The text of one schema file as UTF-8 bytes, with its name, used to print diagnostics with a
/// source snippet and to map byte offsets back to lines and columns.
///
/// Immutable value type, safe to share across threads.
public struct SourceFile: Sendable {
  /// The name printed in diagnostics (`path:line:col: …`), usually the path as the user gave it.
  public let fileName: String
  /// The file's bytes exactly as read (possibly invalid UTF-8; a BOM is kept).
  public let bytes: [UInt8]

  /// Creates a source file from raw bytes.
  public init(fileName: String, bytes: [UInt8]) {
    self.fileName = fileName
    self.bytes = bytes
  }

  /// Creates a source file from text, stored as its UTF-8 encoding.
  public init(fileName: String, text: String) {
    self.init(fileName: fileName, bytes: Array(text.utf8))
  }

  /// The location of byte `offset`, computed by scanning from the start of the file (O(offset)).
  /// Offsets past the end are clamped to the end of the file. Columns count Unicode scalars, as
  /// ``SourceLocation`` documents.
  public func location(atOffset offset: Int) -> SourceLocation {
    let target = Swift.max(0, Swift.min(offset, bytes.count))
    var line = 1
    var column = 1
    var index = 0
    while index < target {
      let byte = bytes[index]
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte == 0x0D {
        if index + 1 < bytes.count, bytes[index + 1] == 0x0A, index + 1 < target {
          index += 1
        }
        line += 1
        column = 1
      } else if byte == 0xEF, index + 2 < target, bytes[index + 1] == 0xBB, bytes[index + 2] == 0xBF {
        index += 2  // byte-order mark: zero columns
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
      index += 1
    }
    return SourceLocation(offset: target, line: line, column: column)
  }

  /// The text of the line that contains byte `offset` (clamped to the file), without its
  /// terminator and without byte-order marks, with invalid UTF-8 replaced by U+FFFD. Costs only the
  /// length of that line, so printing many diagnostics of a large file stays fast.
  public func text(ofLineContaining offset: Int) -> String {
    let clamped = Swift.max(0, Swift.min(offset, bytes.count))
    var lineStart = clamped
    while lineStart > 0, bytes[lineStart - 1] != 0x0A, bytes[lineStart - 1] != 0x0D { lineStart -= 1 }
    var lineEnd = clamped
    while lineEnd < bytes.count, bytes[lineEnd] != 0x0A, bytes[lineEnd] != 0x0D { lineEnd += 1 }
    return Self.displayText(bytes[lineStart..<lineEnd])
  }

  private static func displayText(_ slice: ArraySlice<UInt8>) -> String {
    let text = String(decoding: slice, as: UTF8.self)
    return text.contains("\u{FEFF}")
      ? String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\u{FEFF}" })) : text
  }

  /// The text of the 1-based line `line` without its terminator and without byte-order marks, with
  /// invalid UTF-8 replaced by U+FFFD; `nil` when the file has fewer lines. Scans from the start of
  /// the file (O(offset)); prefer ``text(ofLineContaining:)`` when an offset is at hand.
  public func text(ofLine line: Int) -> String? {
    guard line >= 1 else { return nil }
    var current = 1
    var index = 0
    var lineStart = 0
    while current < line {
      guard index < bytes.count else { return nil }
      let byte = bytes[index]
      index += 1
      if byte == 0x0A || byte == 0x0D {
        if byte == 0x0D, index < bytes.count, bytes[index] == 0x0A { index += 1 }
        current += 1
        lineStart = index
      }
    }
    var lineEnd = lineStart
    while lineEnd < bytes.count, bytes[lineEnd] != 0x0A, bytes[lineEnd] != 0x0D { lineEnd += 1 }
    return Self.displayText(bytes[lineStart..<lineEnd])
  }
}
