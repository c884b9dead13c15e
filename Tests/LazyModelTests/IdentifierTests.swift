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
  /// The typed keys of predicates and sorts, as generated models have them.
  enum Keys {
    static let sensor = ModelFieldKey<Reading, String>("sensor")
    static let sequence = ModelFieldKey<Reading, Int>("sequence")
    static let value = ModelFieldKey<Reading, Double>("value")
    static let valid = ModelFieldKey<Reading, Bool>("valid")
    static let priority = ModelFieldKey<Reading, Priority>("priority")
    static let day = ModelFieldKey<Reading, Temporal.Date>("day")
  }
  static let keys = Keys.self
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
    primaryKey: [
      CodingKeys.sensor, CodingKeys.sequence, CodingKeys.value, CodingKeys.valid, CodingKeys.priority,
      CodingKeys.day,
    ],
    fields: [
      .field(CodingKeys.sensor, .required, .id), .field(CodingKeys.sequence, .required, .int),
      .field(CodingKeys.value, .required, .double), .field(CodingKeys.valid, .required, .bool),
      .field(CodingKeys.priority, .required, .enumeration("Priority")),
      .field(CodingKeys.day, .required, .scalar(.awsDate)),
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

/// Key values compare by Unicode scalars, as SQLite (BINARY collation) and DynamoDB (UTF-8 bytes)
/// compare keys: `"\u{E9}"` ("é" precomposed) and `"e\u{301}"` ("e" and a combining acute accent)
/// are canonically equivalent, so Swift's `String ==` finds them equal, but they are two keys.
@Suite struct ExactKeyComparisonTests {
  static let precomposed = "\u{E9}"
  static let decomposed = "e\u{301}"

  @Test func stringKeyValuesAreEqualOnlyWithTheSameScalars() {
    // What Swift's String does, and what a key must not do.
    #expect(Self.precomposed == Self.decomposed)
    #expect(KeyValue.string(Self.precomposed) != .string(Self.decomposed))
    // U+212A KELVIN SIGN decomposes canonically to the ASCII letter K.
    #expect("\u{212A}" == "K")
    #expect(KeyValue.string("\u{212A}") != .string("K"))
    let keys: Set<KeyValue> = [.string(Self.precomposed), .string(Self.decomposed)]
    #expect(keys.count == 2)
    #expect(
      KeyValue.string(Self.precomposed).hashValue != KeyValue.string(Self.decomposed).hashValue)
  }

  @Test func equalScalarsAreEqualWhateverStringBuiltThem() {
    let literal = "caf\u{E9}#\u{1F600}"
    let fromBytes = String(decoding: Array(literal.utf8), as: UTF8.self)
    let fromScalars = String(String.UnicodeScalarView(Array(literal.unicodeScalars)))
    let fromSubstring = String("x\(literal)".dropFirst())
    for other in [fromBytes, fromScalars, fromSubstring] {
      #expect(KeyValue.string(literal) == .string(other))
      #expect(KeyValue.string(literal).hashValue == KeyValue.string(other).hashValue)
    }
    #expect(KeyValue.string("") == .string(""))
    #expect(KeyValue.string("ab") != .string("abc"))
    // Composite keys whose strings split the same bytes differently stay apart.
    let splits: Set<[KeyValue]> = [[.string("ab"), .string("c")], [.string("a"), .string("bc")]]
    #expect(splits.count == 2)
  }

  @Test func otherCasesCompareAsTheirSwiftValues() {
    #expect(KeyValue.int(1) == .int(1))
    #expect(KeyValue.int(1) != .double(1))
    #expect(KeyValue.int(1) != .string("1"))
    #expect(KeyValue.bool(true) != .int(1))
    #expect(KeyValue.double(0.0) == .double(-0.0))
    #expect(KeyValue.double(0.0).hashValue == KeyValue.double(-0.0).hashValue)
    #expect(KeyValue.double(.nan) != .double(.nan))
    #expect(Set<KeyValue>([.int(1), .double(1), .bool(true), .string("1"), .int(1)]).count == 4)
  }

  @Test func componentsAndIdentifiersCompareExactly() {
    let a = IdentifierComponent(name: "id", Self.precomposed)
    let b = IdentifierComponent(name: "id", Self.decomposed)
    #expect(a != b)
    #expect(Set([[a], [b], [a]]).count == 2)
    #expect(IdentifierComponent(name: "\u{212A}", "x") != IdentifierComponent(name: "K", "x"))
    let first = ModelIdentifier(modelName: "Post", components: [a])
    let second = ModelIdentifier(modelName: "Post", components: [b])
    #expect(first != second)
    #expect(Set([first, second, first]).count == 2)
    #expect(first != ModelIdentifier(modelName: "Comment", components: [a]))
    #expect(first == ModelIdentifier(modelName: "Post", components: [a]))
    // Typed identifiers (generated, or hand-written like these) compare by their components.
    #expect(Post.Identifier(id: Self.precomposed) != Post.Identifier(id: Self.decomposed))
    #expect(Post.Identifier(id: Self.precomposed) == Post.Identifier(id: "\u{E9}"))
    let typed = Set([Post.Identifier(id: Self.precomposed), Post.Identifier(id: Self.decomposed)])
    #expect(typed.count == 2)
    #expect(
      Shelf.Identifier(building: Self.precomposed, number: 1)
        != Shelf.Identifier(building: Self.decomposed, number: 1))
    #expect(
      Shelf.Identifier(building: "B", number: 1) != Shelf.Identifier(building: "B", number: 2))
    // Their canonical strings differ too (as scalars; Swift's == would call them equal).
    #expect(
      Array(first.canonicalString.unicodeScalars) != Array(second.canonicalString.unicodeScalars))
  }

  @Test func inMemoryStoreKeepsBothRows() throws {
    let store = InMemoryModelStore()
    try store.save(Post(id: Self.precomposed, title: "precomposed"))
    try store.save(Post(id: Self.decomposed, title: "decomposed"))
    #expect(try store.models(Post.self).map(\.title) == ["precomposed", "decomposed"])
    #expect(
      try store.model(Post.self, identifier: Post.Identifier(id: Self.decomposed))?.title
        == "decomposed")
    #expect(
      try store.models(Post.self, where: [IdentifierComponent(name: "id", Self.precomposed)])
        .map(\.title) == ["precomposed"])
    #expect(store.delete(Post.self, identifier: Post.Identifier(id: Self.precomposed)))
    #expect(try store.models(Post.self).map(\.title) == ["decomposed"])
    #expect(try store.model(Post.self, identifier: Post.Identifier(id: Self.precomposed)) == nil)
  }
}
