import Foundation

/// Parses UTF-8 JSON text straight into a ``GraphQLValue``: the value `JSONSerialization`
/// followed by ``GraphQLValue/init(foundationObject:)`` gives, without building Foundation objects
/// (`JSONSerialization` parses into its own tree, converts it into `NSNumber`s, `String`s,
/// arrays and dictionaries, which are then converted again: most of the cost of every mutation
/// answer and live event the sync engine reads).
///
/// It handles the usual text exactly and refuses (`nil`) everything else, so that the caller
/// takes the `JSONSerialization` path and gets its value or its error: text that is not JSON,
/// a byte-order mark or another encoding than UTF-8, a string with invalid UTF-8, a raw control
/// character, an `\u` escape of a surrogate or of U+0000, an object with a repeated key, nesting
/// 256 deep or more, and every number but an integer written without fraction or exponent that
/// fits `Int` (which is ``GraphQLValue/int(_:)``, as there): `JSONSerialization` does not round
/// every decimal text to the nearest `Double` (`0.30000000000000004` gives `0.3000000000000001`)
/// nor read every integer beyond `Int` the same way, and its value is the one to keep.
///
/// Thread-safety: stateless.
enum GraphQLValueParser {
  /// The value of `json` (any JSON value at the top, surrounded by JSON whitespace only), or
  /// `nil` when this parser does not handle the text (see the type's documentation).
  static func parse(_ json: Data) -> GraphQLValue? {
    json.withUnsafeBytes { raw -> GraphQLValue? in
      var parser = Parser(bytes: raw.bindMemory(to: UInt8.self))
      guard let value = parser.value(depth: 0) else { return nil }
      parser.skipWhitespace()
      // Not `? value : nil`: that `nil` would be the value `null` (`ExpressibleByNilLiteral`).
      guard parser.index == parser.bytes.count else { return nil }
      return value
    }
  }

  private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func skipWhitespace() {
      while index < bytes.count {
        switch bytes[index] {
        case 0x20, 0x09, 0x0A, 0x0D: index += 1
        default: return
        }
      }
    }

    mutating func value(depth: Int) -> GraphQLValue? {
      skipWhitespace()
      guard index < bytes.count, depth < 256 else { return nil }
      switch bytes[index] {
      case UInt8(ascii: "{"): return object(depth: depth)
      case UInt8(ascii: "["): return list(depth: depth)
      case UInt8(ascii: "\""): return string().map(GraphQLValue.string)
      case UInt8(ascii: "t"): return literal("true", .bool(true))
      case UInt8(ascii: "f"): return literal("false", .bool(false))
      case UInt8(ascii: "n"): return literal("null", .null)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
      default: return nil
      }
    }

    mutating func literal(_ word: StaticString, _ value: GraphQLValue) -> GraphQLValue? {
      let count = word.utf8CodeUnitCount
      guard bytes.count - index >= count else { return nil }
      for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return nil }
      index += count
      return value
    }

    mutating func object(depth: Int) -> GraphQLValue? {
      index += 1  // {
      var members: [String: GraphQLValue] = [:]
      skipWhitespace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      }
      while true {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        guard let member = value(depth: depth + 1) else { return nil }
        // A repeated key: which one `JSONSerialization` keeps is its business.
        guard members.updateValue(member, forKey: key) == nil else { return nil }
        skipWhitespace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: ","): index += 1
        case UInt8(ascii: "}"):
          index += 1
          return .object(members)
        default: return nil
        }
      }
    }

    mutating func list(depth: Int) -> GraphQLValue? {
      index += 1  // [
      var elements: [GraphQLValue] = []
      skipWhitespace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .list(elements)
      }
      while true {
        guard let element = value(depth: depth + 1) else { return nil }
        elements.append(element)
        skipWhitespace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: ","): index += 1
        case UInt8(ascii: "]"):
          index += 1
          return .list(elements)
        default: return nil
        }
      }
    }

    /// A string starting at the opening quote.
    mutating func string() -> String? {
      index += 1  // "
      let start = index
      var ascii = true
      // The usual string: no escape up to its closing quote.
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
          let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
          index += 1
          return ascii ? String(decoding: text, as: UTF8.self) : validated(text)
        }
        if byte == UInt8(ascii: "\\") { break }
        if byte < 0x20 { return nil }
        if byte >= 0x80 { ascii = false }
        index += 1
      }
      guard index < bytes.count else { return nil }
      // With escapes: the unescaped bytes, validated as UTF-8 at the end.
      var buffer = Array(bytes[start..<index])
      while index < bytes.count {
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "\""):
          index += 1
          return buffer.withUnsafeBufferPointer { validated($0) }
        case UInt8(ascii: "\\"):
          index += 1
          guard index < bytes.count else { return nil }
          let escaped = bytes[index]
          index += 1
          switch escaped {
          case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escaped)
          case UInt8(ascii: "b"): buffer.append(0x08)
          case UInt8(ascii: "f"): buffer.append(0x0C)
          case UInt8(ascii: "n"): buffer.append(0x0A)
          case UInt8(ascii: "r"): buffer.append(0x0D)
          case UInt8(ascii: "t"): buffer.append(0x09)
          case UInt8(ascii: "u"):
            guard bytes.count - index >= 4 else { return nil }
            var code: UInt32 = 0
            for _ in 0..<4 {
              guard let digit = hexValue(bytes[index]) else { return nil }
              code = code << 4 | digit
              index += 1
            }
            // Surrogates (pairs or not) and U+0000 are left to `JSONSerialization`.
            guard code != 0, !(0xD800...0xDFFF).contains(code), let scalar = Unicode.Scalar(code) else {
              return nil
            }
            buffer.append(contentsOf: String(Character(scalar)).utf8)
          default: return nil
          }
        default:
          if byte < 0x20 { return nil }
          buffer.append(byte)
          index += 1
        }
      }
      return nil
    }

    func hexValue(_ byte: UInt8) -> UInt32? {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
      default: return nil
      }
    }

    /// `text` as a string when it is valid UTF-8 (decoding repairs nothing), else `nil`.
    func validated(_ text: UnsafeBufferPointer<UInt8>) -> String? {
      let string = String(decoding: text, as: UTF8.self)
      return string.utf8.elementsEqual(text) ? string : nil
    }

    /// An integer by JSON's grammar (`-? (0 | [1-9][0-9]*)`) that fits `Int`; `nil` for any other
    /// number (a fraction, an exponent, beyond `Int`: see the type's documentation).
    mutating func number() -> GraphQLValue? {
      let start = index
      if bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard index < bytes.count else { return nil }
      if bytes[index] == UInt8(ascii: "0") {
        index += 1
      } else {
        guard digits() > 0 else { return nil }
      }
      if index < bytes.count {
        switch bytes[index] {
        case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
        default: break
        }
      }
      let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
      return Int(text).map(GraphQLValue.int)
    }

    /// Skips decimal digits; how many.
    mutating func digits() -> Int {
      let start = index
      while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
      return index - start
    }
  }
}
