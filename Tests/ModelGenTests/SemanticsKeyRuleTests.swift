import Testing

@testable import ModelGen
@testable import ModelGenAPISchema
@testable import ModelGenIR
@testable import ModelGenSwift
@testable import ModelGenTemplating

/// `@primaryKey` and `@index`.
@Suite struct SemanticsKeyRuleTests {
  @Test func compositePrimaryKey() throws {
    let graph = try #require(
      analyzeClean(
        #"type Post @model { id: ID! @primaryKey(sortKeyFields: ["title", "rank"]) title: String! rank: Int! }"#))
    let post = try graph.requireModel("Post")
    #expect(post.primaryKey == PrimaryKey(partitionKey: "id", sortKeyFields: ["title", "rank"]))
    #expect(post.hasCompositeKey)
    #expect(post.fieldNames == ["id", "title", "rank", "createdAt", "updatedAt"])
  }

  @Test func customPartitionKeySuppressesImplicitID() throws {
    let graph = try #require(analyzeClean("type Customer @model { email: AWSEmail! @primaryKey name: String }"))
    let customer = try graph.requireModel("Customer")
    #expect(customer.fieldNames == ["email", "name", "createdAt", "updatedAt"])
    #expect(customer.primaryKey == PrimaryKey(partitionKey: "email"))
  }

  @Test func singleStringCoercesToAList() throws {
    let graph = try #require(analyzeClean(#"type P @model { id: ID! @primaryKey(sortKeyFields: "n") n: Int! }"#))
    #expect(try graph.requireModel("P").primaryKey.sortKeyFields == ["n"])
  }

  @Test func keyFieldErrors() {
    expectDiagnostics(
      """
      type Label { text: String }
      type A @model { id: 1️⃣ID @primaryKey(sortKeyFields: [2️⃣"nope", 3️⃣"tags", 4️⃣"label", 5️⃣"id"]) tags: [String]! label: Label! }
      type B @model { id: 6️⃣ID }
      type C @model { id: ID! @primaryKey name: String! 7️⃣@primaryKey }
      """,
      [
        (ModelGenDiagnosticCode.nullableKeyField, "1️⃣"), (ModelGenDiagnosticCode.missingField, "2️⃣"),
        (ModelGenDiagnosticCode.invalidKeyFieldType, "3️⃣"), (ModelGenDiagnosticCode.invalidKeyFieldType, "4️⃣"),
        (ModelGenDiagnosticCode.invalidArgumentValue, "5️⃣"), (ModelGenDiagnosticCode.nullableKeyField, "6️⃣"),
        (ModelGenDiagnosticCode.duplicatePrimaryKey, "7️⃣"),
      ])
  }

  /// Issue 17 (found trying the typed keys as a new user): a Boolean as the only sort key field of
  /// an `@index` or `@primaryKey` generated `ModelBooleanKeyConditionInput`, which the transformer
  /// never makes (its `addKeyConditionInputs` refuses the schema: "Sort Key Condition could not be
  /// constructed"), while the client's document asked for `ModelStringKeyConditionInput`: the
  /// query failed on the server. It is MG073 at the field in `sortKeyFields:`; a Boolean in a
  /// composite sort key stays valid.
  @Test func booleanAsTheOnlySortKeyFieldIsAnError() {
    expectDiagnostics(
      """
      type Job @model {
        id: ID!
        priority: Int! @index(name: "byPriority", sortKeyFields: [1️⃣"done"])
        done: Boolean!
        owner: String! @index(name: "byOwner", sortKeyFields: ["done", "priority"])
      }
      type Flag @model { name: String! @primaryKey(sortKeyFields: 2️⃣"on") on: Boolean! }
      type Pair @model { name: String! @primaryKey(sortKeyFields: ["on", "n"]) on: Boolean! n: Int! }
      """,
      [(ModelGenDiagnosticCode.booleanSortKey, "1️⃣"), (ModelGenDiagnosticCode.booleanSortKey, "2️⃣")])
    let (result, _) = analyzeMarked(
      #"type Flag @model { name: String! @primaryKey(sortKeyFields: ["on"]) on: Boolean! }"#)
    #expect(
      result.diagnostics.map(\.message) == [
        "the Boolean `Flag.on` cannot be the only sort key field of @primaryKey: the transformer has no key condition input for a Boolean (only String, ID, Int and Float) and refuses the schema"
      ])
    #expect(result.diagnostics.first?.severity == .error)
  }

  @Test func nullableSortKeyField() {
    expectDiagnostics(
      #"type A @model { id: ID! @primaryKey(sortKeyFields: [1️⃣"n"]) n: Int }"#,
      [(ModelGenDiagnosticCode.nullableKeyField, "1️⃣")])
  }

  @Test func missingSortKeyFieldSuggestsAField() {
    let (result, _) = analyzeMarked(#"type A @model { id: ID! @primaryKey(sortKeyFields: ["titel"]) title: String! }"#)
    #expect(result.diagnostics.map(\.code) == [ModelGenDiagnosticCode.missingField])
    #expect(result.diagnostics.first?.hint == "did you mean `title`?")
  }

  @Test func indexesWithNamesDefaultsAndQueryFields() throws {
    let graph = try #require(
      analyzeClean(
        #"""
        type Post @model {
          id: ID!
          title: String! @index(name: "byTitle", queryField: "postsByTitle") @index(sortKeyFields: ["views"])
          views: Int!
          status: Status @index
        }
        enum Status { DRAFT }
        type Category @model { id: ID! name: String @index }
        """#))
    let post = try graph.requireModel("Post")
    #expect(post.indexes.map(\.name) == ["byTitle", "postsByTitleAndViews", "postsByStatus"])
    #expect(post.indexes.map(\.fields) == [["title"], ["title", "views"], ["status"]])
    #expect(post.indexes.map(\.queryField) == ["postsByTitle", nil, nil])
    #expect(post.indexes.allSatisfy { $0.origin == .declared })
    #expect(try graph.requireModel("Category").indexes.map(\.name) == ["categoriesByName"])
  }

  @Test func queryFieldsMustBeUnique() {
    expectDiagnostics(
      #"""
      type Post @model {
        id: ID!
        title: String @index(queryField: "postsByTitle")
        body: String @index(queryField: 1️⃣"postsByTitle")
        slug: String @index(queryField: 2️⃣"listPosts")
      }
      """#,
      [(ModelGenDiagnosticCode.duplicateQueryField, "1️⃣"), (ModelGenDiagnosticCode.duplicateQueryField, "2️⃣")])
  }

  @Test func rootFieldsOfDifferentModelsMustBeUnique() {
    // `Person` and `People` both list as `listPeople`; a renamed mutation repeats `createA`; a
    // renamed get repeats the model's own list; a default index query repeats another's list.
    expectDiagnostics(
      #"""
      type Person @model { id: ID! }
      type 1️⃣People @model { id: ID! }
      type A @model { id: ID! }
      type 2️⃣B @model(mutations: {create: "createA"}) { id: ID! }
      type 3️⃣M @model(queries: {get: "listMS"}) { id: ID! }
      type Post @model { id: ID! }
      type X @model { id: ID! p: String @index(name: "byP", queryField: 5️⃣"listPosts") }
      """#,
      [
        (ModelGenDiagnosticCode.duplicateQueryField, "1️⃣"),
        (ModelGenDiagnosticCode.duplicateQueryField, "2️⃣"),
        (ModelGenDiagnosticCode.duplicateQueryField, "3️⃣"),
        (ModelGenDiagnosticCode.duplicateQueryField, "5️⃣"),
      ])
  }

  @Test func indexErrors() {
    expectDiagnostics(
      """
      type Label { text: String }
      type Post @model {
        id: ID!
        title: String @index(name: "byTitle", sortKeyFields: [1️⃣"missing"])
        body: String @index(name: 2️⃣"byTitle")
        label: 3️⃣Label @index(name: "byLabel")
      }
      """,
      [
        (ModelGenDiagnosticCode.missingField, "1️⃣"), (ModelGenDiagnosticCode.duplicateIndexName, "2️⃣"),
        (ModelGenDiagnosticCode.invalidKeyFieldType, "3️⃣"),
      ])
  }
}
