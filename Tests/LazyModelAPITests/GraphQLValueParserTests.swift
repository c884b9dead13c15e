import Foundation
import Testing

@testable import LazyModelAPI

/// `GraphQLValueParser` (answers, live events and held records parsed straight into a value)
/// gives exactly the value of the `JSONSerialization` pass it replaces, and refuses what it does
/// not handle so that the caller takes that pass.
@Suite("GraphQLValueParser")
struct GraphQLValueParserTests {
  /// The value the `JSONSerialization` path gives (`nil`: it refuses the text).
  private static func viaFoundation(_ data: Data) -> GraphQLValue? {
    guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
    return GraphQLValue(foundationObject: object)
  }

  private static let texts = [
    #"{"a":1,"e":true,"f":false,"g":null,"h":"x\u00e9\"\\/","i":-0}"#,
    #"[0,1,-1,9223372036854775807,-9223372036854775808,1764800000000]"#,
    #"{"items":[{"id":"p1","rating":3,"tags":["a","b"],"_version":1,"_deleted":null,"_lastChangedAt":1764800000000}],"nextToken":null,"startedAt":1764800000001}"#,
    #"{"nested":{"deeper":[[],{},[{"k":""}]]}}"#,
    " \t\r\n{ \"spaced\" : [ 1 , 2 ] , \"x\" : { } } \n",
    #""\b\f\n\r\t\/ \u0041\u00DF\u20ac\uFFFF""#,
    "\"é 漢字 🎉\"",
    #"{"type":"data","id":"1","payload":{"data":{"onCreatePost":{"id":"p","title":"t"}}}}"#,
    #""text""#, "7", "-7", "0", "true", "false", "null", "[]", "{}", #""""#,
  ]

  @Test("the value of the JSONSerialization pass, for every kind, integer form and escape", arguments: texts)
  func sameAsFoundation(_ text: String) throws {
    let data = Data(text.utf8)
    let expected = try #require(Self.viaFoundation(data))
    #expect(GraphQLValueParser.parse(data) == expected)
  }

  /// Numbers `JSONSerialization` reads its own way (not always the nearest `Double`; integers
  /// beyond `Int`): left to it.
  private static let numbers = [
    "1.0", "1.5", "0.1", "1e2", "1E+2", "5e0", "-0.0", "2.5e-3", "0.30000000000000004", "9223372036854775808",
    "-9223372036854775809", "12345678901234567890123", "1e400", "[1,2.5]", #"{"a":0.1}"#,
  ]

  @Test("numbers with a fraction or an exponent, or beyond Int, are left to JSONSerialization", arguments: numbers)
  func numbersLeftToFoundation(_ text: String) {
    let data = Data(text.utf8)
    // `Optional.none`, not `nil`: that literal would be the value `null` (`ExpressibleByNilLiteral`).
    #expect(GraphQLValueParser.parse(data) == Optional<GraphQLValue>.none)
    #expect(GraphQLValue(json: data) == Self.viaFoundation(data))
  }

  /// Texts it leaves to `JSONSerialization` (which parses some and refuses others).
  private static let refused: [[UInt8]] = [
    Array("\u{FEFF}{}".utf8),  // a byte-order mark
    [0x7B, 0x00, 0x7D, 0x00],  // not UTF-8
    Array(#""\ud83d\ude00""#.utf8),  // a surrogate pair
    Array(#""\ud83d""#.utf8),  // a lone surrogate
    Array(#""a\u0000b""#.utf8),  // U+0000
    Array(#"{"a":1,"a":2}"#.utf8),  // a repeated key
    [0x22, 0xC3, 0x28, 0x22],  // invalid UTF-8 in a string
    [0x22, 0x61, 0x0A, 0x22],  // a raw control character
    Array(#""\x""#.utf8),  // an unknown escape
    Array(#""\u12""#.utf8),  // a short \u escape
    Array("{} x".utf8), Array("01".utf8), Array("1.".utf8), Array("-".utf8), Array(".5".utf8),
    Array("1e".utf8), Array("+1".utf8), Array("[1,]".utf8), Array(#"{"a":1,}"#.utf8),
    Array(#"{"a" 1}"#.utf8), Array("[1 2]".utf8), Array("tru".utf8), Array("nul".utf8), Array("".utf8),
    Array("   ".utf8), Array(#""open"#.utf8), Array("[".utf8), Array("{".utf8),
    Array(String(repeating: "[", count: 300).utf8) + Array(String(repeating: "]", count: 300).utf8),
  ]

  @Test("refuses what it does not handle exactly (the caller takes the JSONSerialization pass)")
  func refusals() {
    for bytes in Self.refused {
      #expect(GraphQLValueParser.parse(Data(bytes)) == Optional<GraphQLValue>.none, "\(bytes)")
    }
  }

  @Test("GraphQLValue(json:) still gives JSONSerialization's value for text the parser refuses")
  func fallback() throws {
    for text in [#""\ud83d\ude00""#, "\u{FEFF}[1]", #""a\u0000b""#] {
      let data = Data(text.utf8)
      #expect(GraphQLValue(json: data) == Self.viaFoundation(data), "\(text)")
    }
    #expect(GraphQLValue(json: Data(#""\ud83d\ude00""#.utf8)) == .string("😀"))
  }

  /// A seeded generator: the same values on every run.
  private struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var mixed = state
      mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
      mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
      return mixed ^ (mixed >> 31)
    }
  }

  private static func randomString(_ random: inout Generator) -> String {
    var scalars = String.UnicodeScalarView()
    for _ in 0..<Int.random(in: 0...12, using: &random) {
      let pick = Int.random(in: 0..<10, using: &random)
      let code: UInt32
      switch pick {
      case 0: code = UInt32.random(in: 1..<0x20, using: &random)  // control characters (escaped)
      case 1: code = [0x22, 0x5C, 0x2F].randomElement(using: &random)!  // " \ /
      case 2: code = UInt32.random(in: 0x80..<0xD800, using: &random)
      case 3: code = UInt32.random(in: 0xE000...0x10FFFF, using: &random)
      default: code = UInt32.random(in: 0x20..<0x7F, using: &random)
      }
      if let scalar = Unicode.Scalar(code) { scalars.append(scalar) }
    }
    return String(scalars)
  }

  private static func randomValue(_ random: inout Generator, depth: Int) -> Any {
    switch Int.random(in: 0..<(depth > 3 ? 5 : 7), using: &random) {
    case 0: return NSNull()
    case 1: return Bool.random(using: &random)
    case 2: return Int.random(in: Int.min...Int.max, using: &random) >> Int.random(in: 0..<63, using: &random)
    case 3:
      let exponent = Double(Int.random(in: -30...30, using: &random))
      let magnitude = Double.random(in: -1...1, using: &random) * pow(10, exponent)
      return Bool.random(using: &random) ? magnitude : magnitude.rounded()
    case 4: return randomString(&random)
    case 5:
      return (0..<Int.random(in: 0...4, using: &random)).map { _ in randomValue(&random, depth: depth + 1) }
    default:
      var members: [String: Any] = [:]
      for _ in 0..<Int.random(in: 0...4, using: &random) {
        members[randomString(&random)] = randomValue(&random, depth: depth + 1)
      }
      return members
    }
  }

  @Test("seeded random documents written by JSONSerialization and JSONEncoder parse to JSONSerialization's value")
  func randomDocuments() throws {
    var random = Generator(state: 13)
    var handled = 0
    for round in 0..<400 {
      let object = Self.randomValue(&random, depth: 0)
      let written = try JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed])
      let expected = try #require(Self.viaFoundation(written))
      // Its value when it parses (a document with a fraction or an exponent is left to
      // `JSONSerialization`: `numbersLeftToFoundation`).
      if let parsed = GraphQLValueParser.parse(written) {
        #expect(parsed == expected, "round \(round): \(String(decoding: written, as: UTF8.self))")
        handled += 1
      }
      // `JSONEncoder` writes escapes its own way (`\/`); without doubles, every document parses.
      if !Self.holdsDouble(expected) {
        let encoded = try JSONEncoder().encode(expected)
        #expect(GraphQLValueParser.parse(encoded) == Self.viaFoundation(encoded), "round \(round)")
        #expect(GraphQLValueParser.parse(encoded) != Optional<GraphQLValue>.none, "round \(round)")
      }
    }
    #expect(handled > 100)
  }

  private static func holdsDouble(_ value: GraphQLValue) -> Bool {
    switch value {
    case .double: return true
    case .list(let elements): return elements.contains(where: holdsDouble)
    case .object(let members): return members.values.contains(where: holdsDouble)
    default: return false
    }
  }
}
