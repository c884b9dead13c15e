/// Where the members of one object of a JSON text are written, so a config error can point at
/// `modelgen-config.json:LINE:COL` (JSONSerialization keeps no positions).
///
/// Reads text JSONSerialization has already accepted (RFC 8259); lines are 1-based and split at
/// line feeds, columns are 1-based and count Unicode scalars, as schema diagnostics do.
/// Pure; `Sendable`.
struct JSONPositions: Sendable {
  /// A 1-based line and column.
  struct Position: Sendable, Equatable {
    var line: Int
    var column: Int
  }

  /// One member of the located object: where its key and its value start.
  struct Member: Sendable, Equatable {
    var key: Position
    var value: Position
  }

  /// The members of the object that is the value of the top-level member `name`, by key (the
  /// last one written wins, as in JSONSerialization); empty when there is no such object.
  static func members(ofTopLevelObject name: String, in bytes: [UInt8]) -> [String: Member] {
    var scanner = Scanner(bytes: bytes)
    return scanner.topLevelMembers(of: name)
  }

  /// The members of the top-level object, by key (the last one written wins); empty when the
  /// text is not an object.
  static func topLevelMembers(in bytes: [UInt8]) -> [String: Member] {
    var scanner = Scanner(bytes: bytes)
    scanner.skipWhitespace()
    guard scanner.current == UInt8(ascii: "{") else { return [:] }
    var result: [String: Member] = [:]
    scanner.members { inner, key, member in
      result[key] = member
      inner.skipValue()
    }
    return result
  }

  private struct Scanner {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var column = 1

    init(bytes: [UInt8]) { self.bytes = bytes }

    var position: Position { Position(line: line, column: column) }
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func advance() {
      guard let byte = current else { return }
      index += 1
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }

    mutating func skipWhitespace() {
      while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { advance() }
    }

    mutating func topLevelMembers(of name: String) -> [String: Member] {
      skipWhitespace()
      guard current == UInt8(ascii: "{") else { return [:] }
      var result: [String: Member] = [:]
      members { scanner, key, _ in
        if key == name, scanner.current == UInt8(ascii: "{") {
          scanner.members { inner, innerKey, member in
            result[innerKey] = member
            inner.skipValue()
          }
        } else {
          scanner.skipValue()
        }
      }
      return result
    }

    /// At `{`: calls `body` at each member's value (after the key and the colon), which must
    /// consume the value; stops after the closing `}`.
    mutating func members(_ body: (inout Scanner, String, Member) -> Void) {
      advance()  // {
      while true {
        skipWhitespace()
        guard let byte = current, byte != UInt8(ascii: "}") else {
          advance()
          return
        }
        if byte == UInt8(ascii: ",") {
          advance()
          continue
        }
        let keyPosition = position
        let key = string()
        skipWhitespace()
        if current == UInt8(ascii: ":") { advance() }
        skipWhitespace()
        body(&self, key, Member(key: keyPosition, value: position))
      }
    }

    mutating func skipValue() {
      switch current {
      case UInt8(ascii: "{"):
        members { scanner, _, _ in scanner.skipValue() }
      case UInt8(ascii: "["):
        advance()
        while true {
          skipWhitespace()
          guard let byte = current, byte != UInt8(ascii: "]") else {
            advance()
            return
          }
          if byte == UInt8(ascii: ",") { advance() } else { skipValue() }
        }
      case UInt8(ascii: "\""):
        _ = string()
      default:
        while let byte = current, !",]} \t\r\n".utf8.contains(byte) { advance() }
      }
    }

    /// At `"`: the decoded string; after its closing quote.
    mutating func string() -> String {
      advance()  // "
      var scalars = String.UnicodeScalarView()
      var raw: [UInt8] = []
      func flush() {
        scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
        raw.removeAll()
      }
      var pendingHigh: UInt32?
      while let byte = current, byte != UInt8(ascii: "\"") {
        advance()
        guard byte == UInt8(ascii: "\\"), let escaped = current else {
          raw.append(byte)
          continue
        }
        advance()
        flush()
        let simple: [UInt8: Unicode.Scalar] = [
          UInt8(ascii: "n"): "\n", UInt8(ascii: "t"): "\t", UInt8(ascii: "r"): "\r", UInt8(ascii: "b"): "\u{8}",
          UInt8(ascii: "f"): "\u{C}",
        ]
        if escaped == UInt8(ascii: "u") {
          var value: UInt32 = 0
          for _ in 0..<4 {
            guard let digit = current, let nibble = UInt32(String(UnicodeScalar(digit)), radix: 16) else { break }
            value = value * 16 + nibble
            advance()
          }
          if (0xD800...0xDBFF).contains(value) {
            pendingHigh = value
            continue
          }
          if let high = pendingHigh, (0xDC00...0xDFFF).contains(value) {
            value = 0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00)
          }
          pendingHigh = nil
          scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        } else if let scalar = simple[escaped] {
          scalars.append(scalar)
        } else {
          scalars.append(Unicode.Scalar(escaped))
        }
      }
      flush()
      advance()  // "
      return String(scalars)
    }
  }
}
