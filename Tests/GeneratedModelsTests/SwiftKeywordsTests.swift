import Foundation
import LazyModel
import SwiftKeywordsModels
import Testing

@Suite("Generated: swift-keywords")
struct SwiftKeywordsTests {
  @Test func keywordNamedMembersRoundTripUnderTheirGraphQLNames() throws {
    let model = SelfType(
      default: "d", for: "f", identifierValue: "i", protocol: .class,
      extension: Extension(where: "w", selfValue: 1, type: true), `inout`: 3)
    let json = try JSON.encode(model)
    let object = try JSON.object(json)
    #expect(object["default"] as? String == "d")
    #expect(object["identifier"] as? String == "i")
    #expect(object["protocol"] as? String == "class")
    #expect((object["extension"] as? NSDictionary)?["self"] as? Int == 1)
    #expect((object["extension"] as? NSDictionary)?["Type"] as? Bool == true)
    let decoded = try JSON.decode(SelfType.self, json)
    #expect(decoded.identifier == SelfType.Identifier(default: "d", for: "f"))
    #expect(decoded.protocol == .class)
    #expect(decoded.extension?.selfValue == 1)
    #expect(SelfType.schema.name == "Self")
    #expect(SelfType.schema.primaryKey == ["default", "for"])
  }

  @Test func enumCasesKeepRawValues() {
    #expect(
      ProtocolType.allCases.map(\.rawValue) == ["class", "Type", "self", "IN_OUT", "default"])
    #expect(ProtocolType.selfValue.keyValue == .string("self"))
  }

  @Test func fieldsNamedLikeCodingLocalsRoundTrip() async throws {
    let model = Locals(
      values: "v", decoder: "d", container: 2, encoder: true, keys: ["k", nil], schema: "s",
      parentKey: "p")
    let decoded = try JSON.decode(Locals.self, try JSON.encode(model))
    #expect(decoded.values == "v")
    #expect(decoded.decoder == "d")
    #expect(decoded.container == 2)
    #expect(decoded.encoder == true)
    #expect(decoded.keys == ["k", nil])
    #expect(decoded.parentKey == "p")
    #expect(Locals.schema.field(named: "schema") != nil)

    let store = InMemoryModelStore()
    try store.save(Locals(values: "root"))
    try store.save(Locals(values: "leaf", localsChildrenValues: "root"))
    let root = try #require(
      try store.model(Locals.self, identifier: Locals.Identifier(values: "root")))
    #expect(try await root.children?.fetch().map(\.values) == ["leaf"])
  }

  @Test func aKeyNamedComponentsAndATypeNamedModelsStayDistinct() throws {
    let model = ModelsType(components: "c", name: "n")
    #expect(model.identifier.componentsValue == "c")
    #expect(
      model.identifier.components == [IdentifierComponent(name: "components", value: .string("c"))])
    #expect(ModelsType.schema.name == "Models")
    #expect(SwiftKeywordsModels.Models.registry.model(named: "Models") != nil)
    #expect(try JSON.decode(ModelsType.self, try JSON.encode(model)).identifier == model.identifier)
  }
}
