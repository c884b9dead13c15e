import LazyModel
import Testing

/// Issue 15 (s15): the protected fields a hand-written `ModelSchema` computes (`protectedFields:`
/// left `nil`) cover the fields the auth transformer's access-control matrix covers, the fields
/// the GraphQL type declares (`collectFieldNames`). A schema mirroring
///
///     type Tip @model @auth(rules: [{allow: owner}]) {
///       text: String
///       audit: String @auth(rules: [{allow: owner}, {allow: groups, groups: ["Auditors"], operations: [read]}])
///     }
///
/// lists the `id` the model transformer inserts: the `Auditors` role, which only `audit`'s rules
/// name, may not read it under the model's rules, so the old computation listed `["id", "text"]`
/// where the transformer (and modelgen's generated `protectedFields`) has `["text"]` alone.
@Suite struct ComputedProtectedFieldsTests {
  private static let owner = AuthRule(allow: .owner)
  private static let auditors = AuthRule(allow: .groups, groups: ["Auditors"], operations: [.read])

  private func schema(id: ModelField, primaryKey: [String] = ["id"], extra: [ModelField] = []) -> ModelSchema {
    ModelSchema(
      name: "Tip", pluralName: "Tips", primaryKey: primaryKey,
      fields: [id] + extra + [
        ModelField(name: "text", type: .string, isRequired: false),
        ModelField(name: "audit", type: .string, isRequired: false, authRules: [Self.owner, Self.auditors]),
        ModelField(name: "owner", type: .string, isRequired: false, isReadOnly: true),
        ModelField(name: "createdAt", type: .scalar(.awsDateTime), isRequired: false, isReadOnly: true),
        ModelField(name: "updatedAt", type: .scalar(.awsDateTime), isRequired: false, isReadOnly: true),
      ],
      authRules: [Self.owner])
  }

  @Test func anInsertedIdIsNotProtected() {
    // The old code computed ["id", "text"] (the inserted `id` under the model's rules).
    #expect(schema(id: ModelField(name: "id", type: .id, isRequired: true)).protectedFields == ["text"])
  }

  @Test func fieldsThatAreNotTheInsertedIdStayInTheMatrix() {
    // An `id` with field rules of its own was declared (only a declared field carries rules): it
    // is computed as any other field, here protected (the Auditors may not read it).
    let ruled = ModelField(name: "id", type: .id, isRequired: true, authRules: [Self.owner])
    #expect(schema(id: ruled).protectedFields == ["id", "text"])
    // A key that is not `id` alone is declared (`@primaryKey`), so its fields stay too.
    let composite = schema(
      id: ModelField(name: "id", type: .id, isRequired: true), primaryKey: ["id", "slot"],
      extra: [ModelField(name: "slot", type: .int, isRequired: true)])
    #expect(composite.protectedFields == ["id", "slot", "text"])
    // Given explicitly (as generated schemas do), the list is taken as it is.
    let given = ModelSchema(
      name: "Tip", pluralName: "Tips", primaryKey: ["id"],
      fields: [ModelField(name: "id", type: .id, isRequired: true)], authRules: [Self.owner],
      protectedFields: ["id"])
    #expect(given.protectedFields == ["id"])
  }
}
