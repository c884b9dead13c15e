import Foundation
import LazyModel
import Testing

enum Priority: String, Codable, Sendable, CaseIterable, KeyValueConvertible {
  case low = "LOW"
  case `default` = "DEFAULT"
}

/// A key of every component type: String, Int, Double, Bool, enum, Temporal.
struct Reading: Model {
  let sensor: String
  let sequence: Int
  let value: Double
  let valid: Bool
  let priority: Priority
  let day: Temporal.Date

  enum CodingKeys: String, ModelKey { case sensor, sequence, value, valid, priority, day }
  static let keys = CodingKeys.self
  struct Identifier: ModelIdentifierProtocol {
    let sensor: String
    let sequence: Int
    let value: Double
    let valid: Bool
    let priority: Priority
    let day: Temporal.Date
    var components: [IdentifierComponent] {
      [
        IdentifierComponent(name: "sensor", sensor),
        IdentifierComponent(name: "sequence", sequence),
        IdentifierComponent(name: "value", value), IdentifierComponent(name: "valid", valid),
        IdentifierComponent(name: "priority", priority), IdentifierComponent(name: "day", day),
      ]
    }
  }
  var identifier: Identifier {
    Identifier(
      sensor: sensor, sequence: sequence, value: value, valid: valid, priority: priority, day: day)
  }
  static let schema = ModelSchema(
    name: "Reading", pluralName: "Readings",
    primaryKey: [keys.sensor, keys.sequence, keys.value, keys.valid, keys.priority, keys.day],
    fields: [
      .field(keys.sensor, .required, .id), .field(keys.sequence, .required, .int),
      .field(keys.value, .required, .double), .field(keys.valid, .required, .bool),
      .field(keys.priority, .required, .enumeration("Priority")),
      .field(keys.day, .required, .scalar(.awsDate)),
    ])
}

@Suite struct IdentifierTests {
  static let hostile: [String] = [
    "", "#", "##", "\"", "\"\"", "\\", "\\\"", "\"#\"", "a\"#\"b", "\\#", "#\\", "e\u{301}",
    "\u{E9}",
    "😀👩‍👩‍👧", "\u{0}", "line\nbreak", "tab\tquote\"", "\u{202E}rtl", "Ω≈ç√", "\"a\"#\"b\"",
  ]

  @Test func canonicalStringsOfHostileCompositeKeysNeverCollide() throws {
    var seen: [String: [String]] = [:]
    for first in Self.hostile {
      for second in Self.hostile {
        let identifier = ModelIdentifier(
          modelName: "Pair",
          components: [
            IdentifierComponent(name: "a", first), IdentifierComponent(name: "b", second),
          ])
        let text = identifier.canonicalString
        // Compare scalars, not Swift's canonically-equivalent String equality.
        let key = text.unicodeScalars.map { String($0.value) }.joined(separator: ",")
        #expect(seen[key] == nil, "\([first, second]) collides with \(seen[key] ?? [])")
        seen[key] = [first, second]
      }
    }
    #expect(seen.count == Self.hostile.count * Self.hostile.count)
  }

  @Test func hostileComponentsRoundTripScalarForScalar() throws {
    let schema = ModelSchema(
      name: "Pair", pluralName: "Pairs", primaryKey: ["a", "b"],
      fields: [
        ModelField(name: "a", type: .id, isRequired: true),
        ModelField(name: "b", type: .string, isRequired: true),
      ])
    for first in Self.hostile {
      for second in Self.hostile {
        let components = [
          IdentifierComponent(name: "a", first), IdentifierComponent(name: "b", second),
        ]
        let text = ModelIdentifier(modelName: "Pair", components: components).canonicalString
        let parsed = try ModelIdentifier(canonicalString: text, schema: schema)
        #expect(parsed.modelName == "Pair")
        #expect(parsed.components.map(\.name) == ["a", "b"])
        let values = parsed.components.compactMap { $0.value(as: String.self) }
        #expect(
          values.map { Array($0.unicodeScalars) } == [
            Array(first.unicodeScalars), Array(second.unicodeScalars),
          ])
      }
    }
  }

  @Test func canonicalFormIsReadable() throws {
    #expect(Post.Identifier(id: "p1").canonicalString == #""p1""#)
    #expect(Shelf.Identifier(building: "a#b", number: 3).canonicalString == ##""a#b"#3"##)
    #expect(
      Shelf.Identifier(building: ##"say "hi"\"##, number: -1).canonicalString
        == ##""say \"hi\"\\"#-1"##)
    let reading = Reading.Identifier(
      sensor: "s", sequence: 1, value: 1, valid: true, priority: .default,
      day: try Temporal.Date(iso8601String: "2024-01-01"))
    #expect(reading.canonicalString == ##""s"#1#1.0#true#"DEFAULT"#"2024-01-01""##)
    let negativeZero = ModelIdentifier(
      modelName: "X", components: [IdentifierComponent(name: "v", -0.0)])
    #expect(negativeZero.canonicalString == "0.0")
  }

  @Test func typedComponentsParseBackThroughTheSchema() throws {
    let day = try Temporal.Date(iso8601String: "2024-02-29+01:00")
    let reading = Reading(
      sensor: "s#1", sequence: -42, value: 2.5e-8, valid: false, priority: .low, day: day)
    let parsed = try ModelIdentifier(
      Reading.self, canonicalString: reading.identifier.canonicalString)
    #expect(parsed == reading.modelIdentifier)
    #expect(parsed.value(of: "sensor", as: String.self) == "s#1")
    #expect(parsed.value(of: "sequence", as: Int.self) == -42)
    #expect(parsed.value(of: "value", as: Double.self) == 2.5e-8)
    #expect(parsed.value(of: "valid", as: Bool.self) == false)
    #expect(parsed.value(of: "priority", as: Priority.self) == .low)
    #expect(parsed.value(of: "day", as: Temporal.Date.self) == day)
    #expect(parsed.value(of: "sequence", as: String.self) == nil)
    #expect(parsed.value(of: "nothing", as: String.self) == nil)

    let shelf = try ModelIdentifier(Shelf.self, canonicalString: ##""B"#7"##)
    #expect(shelf.components == Shelf.Identifier(building: "B", number: 7).components)
    // A Float key takes an integer literal as a double.
    let whole = try ModelIdentifier(
      Reading.self, canonicalString: ##""s"#1#2#true#"LOW"#"2024-01-01""##)
    #expect(whole.value(of: "value", as: Double.self) == 2)
    #expect(whole.components[2].value == .double(2))
  }

  @Test(
    arguments: [
      (##""B"#7#8"##, 0, ModelIdentifierParseError.Reason.componentCount(expected: 2, found: 3)),
      (#""B""#, 0, .componentCount(expected: 2, found: 1)),
      (##""B"#"7""##, 4, .typeMismatch(field: "number", expected: "Int")),
      (##"B#7"##, 0, .invalidLiteral("B")),
      (##""B#7"##, 0, .unterminatedString),
      (##""B\x"#7"##, 2, .invalidEscape),
      (##""B"x#7"##, 3, .expectedSeparator),
      (##""B"#"##, 4, .invalidLiteral("")),
      (##""B"#7.5"##, 4, .typeMismatch(field: "number", expected: "Int")),
    ] as [(String, Int, ModelIdentifierParseError.Reason)])
  func malformedStringsAreTypedErrors(
    text: String, offset: Int, reason: ModelIdentifierParseError.Reason
  ) {
    #expect(
      throws: ModelIdentifierParseError(model: "Shelf", text: text, offset: offset, reason: reason)
    ) {
      try ModelIdentifier(Shelf.self, canonicalString: text)
    }
  }

  @Test func temporalKeysAreValidated() {
    let text = ##""s"#1#1.0#true#"LOW"#"2024-02-30""##
    #expect(
      throws: ModelIdentifierParseError(
        model: "Reading", text: text, offset: 21,
        reason: .typeMismatch(field: "day", expected: "AWSDate"))
    ) {
      try ModelIdentifier(Reading.self, canonicalString: text)
    }
  }

  @Test func descriptionIsReadable() {
    let identifier = Shelf.Identifier(building: "B", number: 7)
    #expect(
      ModelIdentifier(modelName: "Shelf", components: identifier.components).description
        == #"Shelf(building: "B", number: 7)"#)
  }
}
