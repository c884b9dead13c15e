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

  @Test func fieldLevelAuthRulesAreFieldMetadata() throws {
    let fields = Memo.schema.fields
    #expect(fields.first { $0.name == "secret" }?.authRules == [AuthRule(allow: .owner)])
    #expect(
      fields.first { $0.name == "reviewNote" }?.authRules == [
        AuthRule(allow: .owner, operations: [.read, .update]),
        AuthRule(allow: .groups, groups: ["Admin"]),
      ])
    #expect(fields.first { $0.name == "title" }?.authRules == [])
    #expect(
      Memo.schema.authRules.map(\.allow) == [.public, .private, .owner, .groups, .groups, .custom])
    #expect(Memo.schema.authRules.map(\.provider) == [.apiKey, .iam, nil, nil, nil, nil])
  }

  @Test func implicitOwnerFieldIsServiceSet() throws {
    // `owner` (Memo) and the written `ownerField: "assignee"` (Ticket) are added as nullable,
    // read-only Strings: not an initializer parameter, decoded and encoded when present.
    let owner = try #require(Memo.schema.fields.first { $0.name == "owner" })
    #expect(owner == ModelField(name: "owner", type: .string, isRequired: false, isReadOnly: true))
    #expect(
      Ticket.schema.fields.map(\.name) == ["id", "subject", "assignee", "createdAt", "updatedAt"])
    #expect(Document.schema.fields.filter { $0.name == "owner" }.isEmpty)
    let memo = Memo(id: "m1", title: "Plan")
    #expect(memo.owner == nil)
    let decoded = try JSON.decode(Memo.self, #"{"id":"m1","title":"Plan","owner":"alice::alice"}"#)
    #expect(decoded.owner == "alice::alice")
    #expect(try JSON.encode(decoded) == #"{"id":"m1","owner":"alice::alice","title":"Plan"}"#)
    let ticket = try JSON.decode(Ticket.self, #"{"id":"t1","subject":"Bug","assignee":"bob"}"#)
    #expect(ticket.assignee == "bob")
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
