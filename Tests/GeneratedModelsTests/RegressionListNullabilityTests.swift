import Foundation
import LazyModel
import Testing

@testable import RegressionListNullabilityWithLazyBelongsTo

@Suite("Generated regression: list-nullability-with-lazy-belongs-to")
struct RegressionListNullabilityWithLazyBelongsToTests {
  let label = #"{"text":"x"}"#

  @Test func everyCombinationDecodesExactly() throws {
    let card = try JSON.decode(
      Card.self,
      #"{"id":"c","labelsA":[\#(label),null],"labelsB":null,"labelsC":[\#(label)],"labelsD":[null],"scores":[1,null],"board":null}"#
    )
    #expect(card.labelsA == [Label(text: "x"), nil])
    #expect(card.labelsB == nil)
    #expect(card.labelsC == [Label(text: "x")])
    #expect(card.labelsD == [nil])
    #expect(card.scores == [1, nil])
  }

  @Test func nullElementsSurviveARoundTrip() throws {
    let card = Card(
      id: "c", labelsA: [nil, Label(text: nil)], labelsB: [], labelsC: [], labelsD: nil,
      scores: [nil])
    let json = try JSON.encode(card)
    #expect(json.contains(#""labelsA":[null,{}]"#))
    #expect(json.contains(#""scores":[null]"#))
    let decoded = try JSON.decode(Card.self, json)
    #expect(decoded.labelsA == [nil, Label(text: nil)])
    #expect(decoded.labelsB == [])
    #expect(decoded.labelsD == nil)
    #expect(decoded.scores == [nil])
  }

  @Test func aMissingRequiredListOrANullRequiredElementIsAnError() {
    #expect(throws: DecodingError.self) {
      try JSON.decode(Card.self, #"{"id":"c","labelsC":[],"scores":[]}"#)
    }
    #expect(throws: DecodingError.self) {
      try JSON.decode(Card.self, #"{"id":"c","labelsA":[],"labelsC":[null],"scores":[]}"#)
    }
    #expect(throws: DecodingError.self) {
      try JSON.decode(
        Card.self, #"{"id":"c","labelsA":[],"labelsB":[null],"labelsC":[],"scores":[]}"#)
    }
  }

  @Test func theSchemaRecordsListAndElementNullability() {
    let fields = Dictionary(uniqueKeysWithValues: Card.schema.fields.map { ($0.name, $0) })
    #expect(fields["labelsA"]?.isRequired == true)
    #expect(fields["labelsA"]?.type == .list(.embedded(Label.self), elementRequired: false))
    #expect(fields["labelsB"]?.isRequired == false)
    #expect(fields["labelsB"]?.type == .list(.embedded(Label.self), elementRequired: true))
    #expect(fields["labelsC"]?.type == .list(.embedded(Label.self), elementRequired: true))
    #expect(fields["scores"]?.type == .list(.int, elementRequired: false))
  }

  @Test func theBoardStillLoadsLazily() async throws {
    let store = InMemoryModelStore()
    try store.save(Board(id: "b1"))
    try store.save(Card(id: "c1", labelsA: [], labelsC: [], scores: [], board: Board(id: "b1")))
    let card = try #require(try store.model(Card.self, identifier: Card.Identifier(id: "c1")))
    #expect(!card._board.isLoaded)
    #expect(try await card.board?.id == "b1")
  }
}
