// These feature modules share no type names except `Models`, which is qualified where used.
import AuthRulesModels
import DefaultValuesModels
import Foundation
import LazyModel
import ManyToManyModels
import ModelTimestampsModels
import PrimaryKeyCompositeModels
import Testing

@Suite("Generated: directive feature modules")
struct FeatureModulesTests {
  @Test func defaultsApplyInTheInitializer() throws {
    let setting = Setting()
    #expect(setting.name == "untitled")
    #expect(setting.count == 3)
    #expect(setting.ratio == 0.5)
    #expect(setting.enabled)
    #expect(setting.status == .draft)
    #expect(setting.since == (try Temporal.Date(iso8601String: "2024-01-31")))
    #expect(try JSON.decode(Setting.self, try JSON.encode(setting)).status == .draft)
  }

  @Test func authRulesAreMetadataAsWritten() {
    #expect(
      Document.schema.authRules == [
        AuthRule(allow: .public, provider: .apiKey, operations: [.read]),
        AuthRule(allow: .private, provider: .iam),
        AuthRule(
          allow: .owner, ownerField: "author", identityClaim: "sub",
          operations: [.create, .update, .delete, .read]),
        AuthRule(allow: .groups, groupClaim: "cognito:groups", groups: ["Admin", "Editors"]),
        AuthRule(allow: .groups, groupsField: "readers"),
        AuthRule(allow: .custom, provider: .function),
      ])
  }

  @Test func manyToManyGoesThroughTheJoinModel() async throws {
    #expect(
      ManyToManyModels.Models.registry.models.map { $0.modelName } == [
        "Article", "ArticleTags", "Tag",
      ])
    let store = InMemoryModelStore()
    let article = Article(id: "a1", title: "Swift")
    let tag = Tag(id: "t1", label: "lang")
    try store.save(article)
    try store.save(tag)
    try store.save(ArticleTags(id: "j1", article: article, tag: tag))
    let loaded = try #require(
      try store.model(Article.self, identifier: Article.Identifier(id: "a1")))
    let joins = try #require(try await loaded.tags?.fetch())
    #expect(joins.map(\.id) == ["j1"])
    #expect(try await joins[0].tag.label == "lang")
  }

  @Test func timestampsAreRenamedDisabledOrDeclared() {
    #expect(Note.schema.fields.filter(\.isReadOnly).map(\.name) == ["createdAt", "updatedAt"])
    #expect(Renamed.schema.fields.filter(\.isReadOnly).map(\.name) == ["createdOn", "updatedOn"])
    #expect(Untimed.schema.fields.map(\.name) == ["id", "text"])
    #expect(Declared.schema.field(named: "createdAt") != nil)
  }

  @Test func compositeKeysHaveTypedIdentifiers() throws {
    let order = Order(
      customerId: "c1", placedAt: try Temporal.DateTime(iso8601String: "2024-01-01T00:00:00Z"),
      number: 2, total: 9.5)
    #expect(
      order.identifier.components.map(\.value) == [
        .string("c1"), .string("2024-01-01T00:00:00Z"), .int(2),
      ])
    #expect(Customer.schema.primaryKey == ["email"])
    #expect(try JSON.decode(Order.self, try JSON.encode(order)).identifier == order.identifier)
  }
}
