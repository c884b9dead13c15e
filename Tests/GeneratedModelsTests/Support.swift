import Foundation
import LazyModel

/// JSON helpers for the generated-model tests.
enum JSON {
  /// Encodes `value` with sorted keys, so payloads compare as text.
  static func encode<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  /// Decodes `text` without a decoding context (lazy values have no provider).
  static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(text.utf8))
  }

  /// Parses `text` as a JSON object, for comparing payloads independent of key order.
  static func object(_ text: String) throws -> NSDictionary {
    try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary ?? [:]
  }
}

extension LazyReference {
  /// `true` when the reference is not loaded and holds exactly `identifiers`.
  func holds(_ identifiers: [IdentifierComponent]) -> Bool {
    if case .notLoaded(let held) = state { return held == identifiers }
    return false
  }
}
