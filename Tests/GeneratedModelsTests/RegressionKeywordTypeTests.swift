import Foundation
import LazyModel
import RegressionTypeNameLowercasesToKeyword
import Testing

@Suite("Generated regression: type-name-lowercases-to-keyword")
struct RegressionTypeNameLowercasesToKeywordTests {
  @Test func shiftsWithBreaksRoundTrip() throws {
    let shift = Shift(id: "s", breaks: [Break(minutes: 15, paid: true), nil])
    let decoded = try JSON.decode(Shift.self, try JSON.encode(shift))
    #expect(decoded.breaks == [Break(minutes: 15, paid: true), nil])
    #expect(Break.schema.name == "Break")
    #expect(
      Shift.schema.field(named: "breaks")?.type
        == .list(.embedded(Break.self), elementRequired: false))
    #expect(Models.registry.model(named: "Shift") != nil)
  }
}
