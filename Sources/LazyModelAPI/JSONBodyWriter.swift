import Foundation

/// Writes a request body `{"operationName":…,"query":…,"variables":{…}}` as UTF-8 JSON, byte for
/// byte as `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` writes it (object keys in
/// ascending UTF-8 order; `"` and `\\` escaped, `\b \f \n \r \t` short, other control characters
/// as `\u00XX`; everything else, `/` and non-ASCII included, as is).
///
/// Thread-safety: stateless.
enum JSONBodyWriter {
  /// The body, or `nil` when `variables` hold a `Double` anywhere (the caller then uses
  /// `JSONEncoder`, whose number format this writer does not reproduce).
  static func body(query: String, operationName: String, variables: [String: GraphQLValue])
    -> Data?
  {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(query.utf8.count + operationName.utf8.count + 64)
    bytes.append(contentsOf: #"{"operationName":"#.utf8)
    appendString(operationName, to: &bytes)
    bytes.append(contentsOf: #","query":"#.utf8)
    appendString(query, to: &bytes)
    bytes.append(contentsOf: #","variables":"#.utf8)
    guard appendObject(variables, to: &bytes) else { return nil }
    bytes.append(UInt8(ascii: "}"))
    return Data(bytes)
  }

  /// `value` as JSON text, or `nil` when it holds a `Double` anywhere.
  static func text(_ value: GraphQLValue) -> String? {
    var bytes: [UInt8] = []
    guard append(value, to: &bytes) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends `value`; `false` when it holds a `Double`.
  private static func append(_ value: GraphQLValue, to bytes: inout [UInt8]) -> Bool {
    switch value {
    case .null: bytes.append(contentsOf: "null".utf8)
    case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
    case .int(let number): bytes.append(contentsOf: String(number).utf8)
    case .double: return false
    case .string(let text): appendString(text, to: &bytes)
    case .list(let elements):
      bytes.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        guard append(element, to: &bytes) else { return false }
      }
      bytes.append(UInt8(ascii: "]"))
    case .object(let members): return appendObject(members, to: &bytes)
    }
    return true
  }

  private static func appendObject(_ members: [String: GraphQLValue], to bytes: inout [UInt8])
    -> Bool
  {
    bytes.append(UInt8(ascii: "{"))
    let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    for (index, member) in sorted.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      appendString(member.key, to: &bytes)
      bytes.append(UInt8(ascii: ":"))
      guard append(member.value, to: &bytes) else { return false }
    }
    bytes.append(UInt8(ascii: "}"))
    return true
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  private static func appendString(_ text: String, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
      case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
      case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
      case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
      case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
      case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
      case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
      case 0x00..<0x20:
        bytes.append(contentsOf: #"\u00"#.utf8)
        bytes.append(hexDigits[Int(byte >> 4)])
        bytes.append(hexDigits[Int(byte & 0x0F)])
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
