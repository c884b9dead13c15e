import Testing

@testable import ModelGen
@testable import ModelGenAPISchema
@testable import ModelGenIR
@testable import ModelGenSwift
@testable import ModelGenTemplating

/// One small schema per directive feature, asserting the lines it must produce, so a failure names
/// the feature instead of a whole golden file.
@Suite("Snippets per directive feature")
struct SnippetTests {
  /// Generates `schema` and returns the files by path.
  func generate(_ schema: String, access: AccessLevel = .public) throws -> [String: String] {
    let generator = Generator(
      options: GeneratorOptions(access: access, templates: try TemplateLibrary.defaults()))
    let result = try generator.generate(source: schema, fileName: "snippet.graphql")
    #expect(!result.hasErrors, "\(result.diagnostics.map(\.description))")
    return Dictionary(uniqueKeysWithValues: result.files.map { ($0.path, $0.contents) })
  }

  /// Expects every line of `lines` (trimmed) to appear, in order, among `text`'s trimmed lines.
  func expectLines(
    _ text: String?, _ lines: [String], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard let text else {
      Issue.record("missing file", sourceLocation: sourceLocation)
      return
    }
    let actual = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    var position = actual.startIndex
    for line in lines {
      guard let found = actual[position...].firstIndex(of: line) else {
        Issue.record(
          "line not found (in order): \(line)\n---\n\(text)", sourceLocation: sourceLocation)
        return
      }
      position = found + 1
    }
  }

  @Test func modelGetsImplicitIdAndReadOnlyTimestamps() throws {
    let files = try generate("type Note @model { text: String }")
    expectLines(
      files["Note.swift"],
      [
        "public struct Note: Model {", "public let id: String", "public var text: String?",
        "public internal(set) var createdAt: Temporal.DateTime?", "id: String = UUID().uuidString,",
        "text: String? = nil",
      ])
    expectLines(
      files["Note+Schema.swift"],
      [
        "name: \"Note\",", "pluralName: \"Notes\",", "primaryKey: [CodingKeys.id],",
        ".field(CodingKeys.id, .required, .id),",
        ".field(CodingKeys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),",
      ])
    #expect(files["Models.swift"]?.contains("Note.self") == true)
  }

  @Test func referencesAreReadableThroughAPublicAccessorWithAUniqueName() throws {
    let files = try generate(
      """
      type Post @model { id: ID! comments: [Comment] @hasMany notes: [Note] @hasMany(indexName: "byPost", fields: ["id"]) }
      type Comment @model { id: ID! postReference: String setPost: String post: Post @belongsTo }
      type Note @model { id: ID! postID: ID! @index(name: "byPost") post: Post! @belongsTo(fields: ["postID"]) }
      """)
    expectLines(
      files["Comment.swift"],
      [
        "public var postReference: String?", "internal var _post: LazyReference<Post>",
        "public var postReference2: LazyReference<Post> { _post }",
        "public mutating func setPost2(_ post: Post?) {",
      ])
    expectLines(
      files["Note.swift"],
      [
        "internal var _post: LazyReference<Post>", "get async throws { try await _post.require() }",
        "public var postReference: LazyReference<Post> { _post }",
      ])
  }

  @Test func timestampsCanBeRenamedOrDisabled() throws {
    let files = try generate(
      """
      type A @model(timestamps: {createdAt: "createdOn", updatedAt: null}) { id: ID! }
      type B @model(timestamps: null) { id: ID! }
      """)
    expectLines(files["A.swift"], ["public internal(set) var createdOn: Temporal.DateTime?"])
    #expect(files["A.swift"]?.contains("updatedAt") == false)
    #expect(files["B.swift"]?.contains("Temporal.DateTime") == false)
  }

  @Test func compositePrimaryKeyGetsATypedIdentifierAndNoStringDefault() throws {
    let files = try generate(
      "type Order @model { customerId: ID! @primaryKey(sortKeyFields: [\"number\"]) number: Int! }")
    expectLines(
      files["Order.swift"],
      [
        "public let customerId: String", "public let number: Int", "customerId: String,",
        "number: Int",
      ])
    #expect(files["Order.swift"]?.contains("UUID()") == false)
    expectLines(
      files["Order+Schema.swift"],
      [
        "public init(customerId: String, number: Int) {",
        "IdentifierComponent(name: \"customerId\", value: customerId.keyValue),",
        "Identifier(customerId: customerId, number: number)",
        "primaryKey: [CodingKeys.customerId, CodingKeys.number],",
      ])
  }

  @Test func indexesKeepNameSortKeysAndQueryField() throws {
    let files = try generate(
      """
      type Book @model {
        id: ID!
        isbn: String! @index(name: "byIsbn", sortKeyFields: ["title"], queryField: "bookByIsbn")
        title: String!
      }
      """)
    expectLines(
      files["Book+Schema.swift"],
      [".index(\"byIsbn\", fields: [\"isbn\", \"title\"], queryField: \"bookByIsbn\")"])
  }

  /// Issue 17: each `@index` with a query field gets a typed key in `Indexes`, typed by its key
  /// fields (a composite sort key as a generated value); `queryField: null` gets none.
  @Test func indexesWithAQueryFieldGetTypedKeys() throws {
    let files = try generate(
      """
      enum Shelf { TOP BOTTOM }
      type Book @model {
        id: ID!
        isbn: String! @index(name: "byIsbn", queryField: "bookByIsbn")
        shelf: Shelf! @index(name: "byShelf", sortKeyFields: ["year"])
        author: String! @index(name: "byAuthor", sortKeyFields: ["year", "title"])
        year: Int!
        title: String! @index(name: "hidden", queryField: null)
      }
      """)
    let schema = files["Book+Schema.swift"]
    expectLines(
      schema,
      [
        "public enum Indexes {",
        "public static let byIsbn = ModelIndexKey<Book, String, ModelNoSortKey>(",
        "\"byIsbn\", fields: [\"isbn\"])",
        "public static let byShelf = ModelIndexKey<Book, Shelf, Int>(",
        "public struct ByAuthorSortKey: ModelCompositeSortKey {",
        "public var year: Int", "public var title: String?",
        "public init(year: Int, title: String? = nil) {",
        "public var sortKeyValues: [KeyValue?] { [year.keyValue, title?.keyValue] }",
        "public static let byAuthor = ModelIndexKey<Book, String, ByAuthorSortKey>(",
        "\"byAuthor\", fields: [\"author\", \"year\", \"title\"])",
        "public static let indexes = Indexes.self",
      ])
    #expect(schema?.contains("static let hidden") == false)
    #expect(schema?.contains(".index(\"hidden\", fields: [\"title\"], hasQueryField: false)") == true)
    let plain = try generate("type Note @model { id: ID! text: String }")
    #expect(plain["Note+Schema.swift"]?.contains("enum Indexes") == false)
  }

  @Test func hasManyWithoutFieldsAddsImplicitForeignKeysToTheChild() throws {
    let files = try generate(
      """
      type Post @model { id: ID! comments: [Comment] @hasMany }
      type Comment @model { id: ID! text: String }
      """)
    expectLines(
      files["Post.swift"],
      [
        "public var comments: LazyList<Comment>?", "comments: [Comment] = []",
        "self.comments = LazyList(comments)",
        "let parentKey = Identifier(id: id).components",
        "Comment.self, forKey: .comments, associatedFields: [\"postCommentsId\"], parent: parentKey,",
        "try container.encodeIfPresent(comments, forKey: .comments)",
      ])
    expectLines(files["Comment.swift"], ["public var postCommentsId: String?"])
    expectLines(
      files["Post+Schema.swift"],
      [".hasMany(CodingKeys.comments, .optional, Comment.self, associatedFields: [\"postCommentsId\"]),"])
  }

  @Test func belongsToTargetNamesLiveOnlyInTheLazyReference() throws {
    let files = try generate(
      """
      type Post @model { id: ID! comments: [Comment] @hasMany(indexName: "byPost", fields: ["id"]) }
      type Comment @model { id: ID! postID: ID! @index(name: "byPost") post: Post! @belongsTo(fields: ["postID"]) }
      """)
    let comment = try #require(files["Comment.swift"])
    #expect(!comment.contains("var postID"))
    expectLines(
      comment,
      [
        "internal var _post: LazyReference<Post>", "public var post: Post {",
        "get async throws { try await _post.require() }",
        "post: Post", "self._post = LazyReference(post)",
        "public mutating func setPost(_ post: Post) {",
        "public mutating func setPost(identifier: Post.Identifier) {",
        "_post = LazyReference(identifier: identifier)",
        "let _post = try values.decodeLazyReference(",
        "Post.self, forKey: .post, targetNames: [\"postID\"], decoder: decoder)",
        "self._post = _post",
        "try container.encode(_post, forKey: .post)",
      ])
    expectLines(
      files["Comment+Schema.swift"],
      [
        ".belongsTo(",
        "CodingKeys.post, .required, Post.self, targetNames: [\"postID\"], associatedFields: [\"id\"]),",
      ])
  }

  @Test func hasOneWithReferencesDecodesThroughTheChildsForeignKey() throws {
    let files = try generate(
      """
      type Customer @model { id: ID! cart: Cart @hasOne(references: ["customerId"]) }
      type Cart @model { id: ID! customerId: ID customer: Customer @belongsTo(references: ["customerId"]) }
      """)
    expectLines(
      files["Customer.swift"],
      [
        "let parentKey = Identifier(id: id).components", "let _cart = try values.decodeLazyReference(",
        "Cart.self, forKey: .cart, associatedFields: [\"customerId\"], parent: parentKey,",
        "decoder: decoder)", "self.id = id", "self._cart = _cart",
      ])
    expectLines(
      files["Customer+Schema.swift"],
      [
        ".hasOne(",
        "CodingKeys.cart, .optional, Cart.self, associatedFields: [\"customerId\"], targetNames: []),",
      ])
  }

  @Test(
    "set<Field>(identifier:) and the by-identifier initializer exist only where the model holds the FK"
  )
  func setByIdentifierOnlyWhereTheModelHoldsTheForeignKey() throws {
    let files = try generate(
      """
      type Customer @model { id: ID! cart: Cart @hasOne(references: ["customerId"]) }
      type Cart @model { id: ID! customerId: ID customer: Customer @belongsTo(references: ["customerId"]) }
      type Phone @model { id: ID! sim: Sim @hasOne(fields: ["simID"]) simID: ID }
      type Sim @model { id: ID! }
      type Desk @model { id: ID! lamp: Lamp @hasOne }
      type Lamp @model { id: ID! }
      type Shelf @model { id: ID! @primaryKey(sortKeyFields: ["row"]) row: Int! books: [Book] @hasMany(references: ["shelfId", "shelfRow"]) }
      type Book @model { id: ID! shelfId: ID shelfRow: Int shelf: Shelf @belongsTo(references: ["shelfId", "shelfRow"]) }
      """)
    // A hasOne found through the child's `references:`: the child holds the FK, so an identifier
    // set here would never be saved; only the model setter exists.
    let customer = try #require(files["Customer.swift"])
    #expect(customer.contains("public mutating func setCart(_ cart: Cart?) {"))
    #expect(!customer.contains("(identifier:"))
    #expect(!customer.contains("cartIdentifier"))
    // The model holds the FK: belongsTo with `references:` (a composite key too), hasOne with
    // `fields:`, and an implicit hasOne (`deskLampId`).
    for (file, setter, parameter) in [
      ("Cart.swift", "setCustomer(identifier: Customer.Identifier?)", "customerIdentifier: Customer.Identifier?"),
      ("Book.swift", "setShelf(identifier: Shelf.Identifier?)", "shelfIdentifier: Shelf.Identifier?"),
      ("Phone.swift", "setSim(identifier: Sim.Identifier?)", "simIdentifier: Sim.Identifier?"),
      ("Desk.swift", "setLamp(identifier: Lamp.Identifier?)", "lampIdentifier: Lamp.Identifier?"),
    ] {
      let source = try #require(files[file])
      #expect(source.contains("public mutating func \(setter) {"), "\(file)")
      #expect(source.contains(parameter), "\(file)")
    }
  }

  @Test func byIdentifierInitializerTakesEachParentsIdentifierUnderALabelNoFieldHas() throws {
    let files = try generate(
      """
      type Post @model { id: ID! comments: [Comment] @hasMany(indexName: "byPost", fields: ["id"]) }
      type Author @model { id: ID! }
      type Comment @model {
        id: ID! postID: ID! @index(name: "byPost") post: Post! @belongsTo(fields: ["postID"])
        authorIdentifier: String author: Author @hasOne
      }
      type Customer @model { id: ID! cart: Cart @hasOne(references: ["customerId"]) }
      type Cart @model { id: ID! customerId: ID customer: Customer @belongsTo(references: ["customerId"]) }
      """)
    let comment = try #require(files["Comment.swift"])
    // A required parent takes a non-optional identifier; `authorIdentifier` is a field, so the
    // author's label is `authorIdentifier2`; neither label has a default value.
    expectLines(
      comment,
      [
        "id: String = UUID().uuidString,", "postIdentifier: Post.Identifier,",
        "authorIdentifier: String? = nil,", "authorIdentifier2: Author.Identifier?",
        "self._post = LazyReference(identifier: postIdentifier)",
        "self.authorIdentifier = authorIdentifier",
        "self._author = LazyReference(identifier: authorIdentifier2)",
      ])
    #expect(comment.components(separatedBy: "public init(\n").count == 3)  // memberwise, by identifier
    // A hasOne the child finds through its `references:` holds no FK here: no by-identifier form.
    #expect(files["Customer.swift"]?.contains("cartIdentifier") == false)
    expectLines(
      files["Cart.swift"],
      ["customerIdentifier: Customer.Identifier?", "self._customer = LazyReference(identifier: customerIdentifier)"])
  }

  @Test func hasOneWithoutFieldsStoresImplicitTargetNamesOnTheParent() throws {
    let files = try generate(
      """
      type Project @model { id: ID! team: Team @hasOne }
      type Team @model { id: ID! name: String }
      """)
    expectLines(
      files["Project+Schema.swift"],
      [
        ".hasOne(",
        "CodingKeys.team, .optional, Team.self, associatedFields: [\"id\"],",
        "targetNames: [\"projectTeamId\"]),",
      ])
    #expect(files["Project.swift"]?.contains("var projectTeamId") == false)
  }

  @Test func manyToManyCreatesAJoinModel() throws {
    let files = try generate(
      """
      type Article @model { id: ID! tags: [Tag] @manyToMany(relationName: "ArticleTags") }
      type Tag @model { id: ID! articles: [Article] @manyToMany(relationName: "ArticleTags") }
      """)
    expectLines(
      files["ArticleTags.swift"],
      [
        "public struct ArticleTags: Model {", "internal var _article: LazyReference<Article>",
        "internal var _tag: LazyReference<Tag>",
      ])
    expectLines(files["Models.swift"], ["Article.self,", "ArticleTags.self,", "Tag.self,"])
  }

  @Test func authRulesAreRenderedAsWritten() throws {
    let files = try generate(
      """
      type Doc @model @auth(rules: [
        {allow: owner, ownerField: "author", operations: [create, read]}
        {allow: groups, groups: ["Admin"], provider: userPools}
      ]) { id: ID! author: String }
      """)
    expectLines(
      files["Doc+Schema.swift"],
      [
        "AuthRule(allow: .owner, ownerField: \"author\", operations: [.create, .read]),",
        "AuthRule(allow: .groups, provider: .userPools, groups: [\"Admin\"]),",
      ])
  }

  @Test func defaultsBecomeDefaultArguments() throws {
    let files = try generate(
      """
      enum Status { DRAFT LIVE }
      type S @model { id: ID! n: Int! @default(value: "3") s: Status! @default(value: "LIVE") t: String @default(value: "x") }
      """)
    expectLines(files["S.swift"], ["n: Int = 3,", "s: Status = .live,", "t: String? = \"x\""])
  }

  @Test func enumsKeepRawValuesAndEscapeKeywords() throws {
    let files = try generate("enum Kind { public IN_PROGRESS self }")
    expectLines(
      files["Kind.swift"],
      [
        "public enum Kind: String, Codable, Sendable, CaseIterable, KeyValueConvertible {",
        "case `public` = \"public\"",
        "case inProgress = \"IN_PROGRESS\"", "case selfValue = \"self\"",
      ])
  }

  @Test func nonModelTypesAreEmbeddable() throws {
    let files = try generate("type Address { street: String! lines: [String!] }")
    expectLines(
      files["Address.swift"],
      [
        "public struct Address: Embeddable {", "public var street: String",
        "public var lines: [String]?",
        "name: \"Address\",",
        ".field(keys.lines, .optional, .list(.string, elementRequired: true)),",
      ])
    // No models: the registry is there, empty.
    #expect(files["Models.swift"]?.contains("ModelRegistry(\n    models: []\n  )") == true)
  }

  @Test func keywordsAreEscapedInEveryPosition() throws {
    let files = try generate(
      """
      type Self @model { default: ID! @primaryKey  for: String  in: Self @belongsTo  operator: [Self] @hasMany  identifier: Int }
      """)
    expectLines(
      files["SelfType.swift"],
      [
        "public struct SelfType: Model {", "public let `default`: String",
        "public var `for`: String?",
        "public var identifierValue: Int?", "public var `in`: SelfType? {", "`default`: String,",
        "self.`default` = `default`", "public mutating func setIn(_ `in`: SelfType?) {",
        "let `default` = try values.decode(String.self, forKey: .`default`)",
        "let parentKey = Identifier(default: `default`).components",
        "self.`default` = `default`",
      ])
    expectLines(
      files["SelfType+Schema.swift"],
      [
        "case `default`", "case identifierValue = \"identifier\"",
        "public init(`default`: String) {", "name: \"Self\",",
      ])
  }

  /// `init(from:)` decodes every field into a local and assigns the properties last (assigning
  /// each property as it decoded made the compiler copy the whole model out of the initializer and
  /// destroy the original, issue 11); a local named like one of the initializer's own (`values`,
  /// `decoder`, the parent key) gets a suffix.
  @Test func initFromDecodesIntoLocalsNamedApartFromItsOwn() throws {
    let files = try generate(
      "type L @model { values: ID! @primaryKey decoder: String parentKey: String kids: [L] @hasMany }")
    expectLines(
      files["L.swift"],
      [
        "let values = try decoder.container(keyedBy: CodingKeys.self)",
        "let values2 = try values.decode(String.self, forKey: .values)",
        "let decoder2 = try values.decodeIfPresent(String.self, forKey: .decoder)",
        "let parentKey = try values.decodeIfPresent(String.self, forKey: .parentKey)",
        "let parentKey2 = Identifier(values: values2).components",
        "let kids = try values.decodeLazyList(",
        "self.values = values2", "self.decoder = decoder2", "self.parentKey = parentKey",
        "self.kids = kids",
      ])
  }

  @Test func generatedMembersNeverCollideWithFields() throws {
    let files = try generate(
      "type P @model { id: ID! _q: String setQ: Int q: P @belongsTo kids: [P] @hasMany parentKey: String }"
    )
    expectLines(
      files["P.swift"],
      [
        "public var _q: String?", "public var setQ: Int?", "internal var _q2: LazyReference<P>",
        "get async throws { try await _q2.get() }", "public mutating func setQ2(_ q: P?) {",
        "let parentKey2 = Identifier(id: id).components",
      ])
  }

  @Test func internalAccessLevel() throws {
    let files = try generate("type Note @model { id: ID! }", access: .internal)
    expectLines(
      files["Note.swift"],
      [
        "internal struct Note: Model {", "internal let id: String",
        "internal var createdAt: Temporal.DateTime?", "internal init(",
      ])
    #expect(files["Note.swift"]?.contains("public") == false)
    #expect(files["Note+Schema.swift"]?.contains("public") == false)
  }

  @Test func schemaErrorsProduceNoFilesAndPositionedDiagnostics() throws {
    let generator = Generator(options: GeneratorOptions(templates: try TemplateLibrary.defaults()))
    let result = try generator.generate(
      source: "type A @model {\n  b: Missing\n}\n", fileName: "bad.graphql")
    #expect(result.files.isEmpty)
    #expect(result.hasErrors)
    let first = try #require(result.diagnostics.first)
    #expect(first.fileName == "bad.graphql")
    #expect(first.line == 2)
    #expect(first.code.rawValue.hasPrefix("MG"))
  }
}
