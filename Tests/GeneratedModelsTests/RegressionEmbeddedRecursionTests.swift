import Foundation
import LazyModel
import RegressionEmbeddedTypeRecursiveThroughList
import Testing

/// `Schemas/regressions/embedded-type-recursive-through-list.graphql`: non-model types that contain
/// themselves only through lists compile, and nested values survive an encode/decode round trip.
@Suite("Generated regression: embedded-type-recursive-through-list")
struct RegressionEmbeddedRecursionTests {
  @Test func nestedOutlinesRoundTrip() throws {
    let leaf = Outline(title: "leaf", children: [])
    let figure = Figure(caption: "fig", inset: [leaf, nil])
    let root = Outline(
      title: "root", children: [leaf, Outline(title: "mid", children: [leaf], cover: figure)],
      seeAlso: [nil, leaf])
    let doc = Doc(id: "d1", outline: root, figures: [figure])

    let json = try JSON.encode(doc)
    let decoded = try JSON.decode(Doc.self, json)

    #expect(decoded.outline.title == "root")
    #expect(decoded.outline.children.map(\.title) == ["leaf", "mid"])
    #expect(decoded.outline.children[1].children.map(\.title) == ["leaf"])
    #expect(decoded.outline.children[1].cover?.caption == "fig")
    #expect(decoded.outline.children[1].cover?.inset?.map { $0?.title } == ["leaf", nil])
    #expect(decoded.outline.seeAlso?.map { $0?.title } == [nil, "leaf"])
    #expect(decoded.figures == [figure])
    #expect(decoded.outline == root)
  }

  @Test func aMissingRequiredChildListIsAnError() throws {
    #expect(throws: DecodingError.self) {
      try JSON.decode(Doc.self, #"{"id":"d1","outline":{"title":"root"}}"#)
    }
  }

  @Test func theSchemaRecordsTheRecursiveListFields() {
    let outline = Outline.schema
    #expect(outline.fields.map(\.name) == ["title", "children", "seeAlso", "cover"])
    #expect(
      outline.fields[1].type == .list(.embedded(Outline.self), elementRequired: true))
    #expect(outline.fields[1].isRequired)
    #expect(Figure.schema.fields[1].type == .list(.embedded(Outline.self), elementRequired: false))
  }
}
