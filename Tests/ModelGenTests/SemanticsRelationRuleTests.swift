import Testing

@testable import ModelGen
@testable import ModelGenAPISchema
@testable import ModelGenIR
@testable import ModelGenSwift
@testable import ModelGenTemplating

/// `@hasMany`, `@hasOne`, `@belongsTo`, `@manyToMany`, and relation pairing.
@Suite struct SemanticsRelationRuleTests {
  @Test func uniDirectionalHasManyAddsStoredForeignKeysWithTheListsNullability() throws {
    let graph = try #require(
      analyzeClean(
        #"""
        type Post @model { id: ID! @primaryKey(sortKeyFields: ["title"]) title: String! comments: [Comment!]! @hasMany }
        type Comment @model { id: ID! content: String }
        """#))
    let post = try graph.requireModel("Post")
    let comment = try graph.requireModel("Comment")
    let hasMany = try #require(post.hasMany("comments"))
    #expect(hasMany.foreignKeyFields == ["postCommentsId", "postCommentsTitle"])
    #expect(hasMany.associatedFields == ["postCommentsId", "postCommentsTitle"])
    #expect(hasMany.style == .implicit && hasMany.pairedField == nil && hasMany.indexName == nil)
    #expect(comment.fieldNames == ["id", "content", "postCommentsId", "postCommentsTitle", "createdAt", "updatedAt"])
    #expect(comment.storedFieldNames == comment.fieldNames)
    let fk = try #require(comment.field(named: "postCommentsTitle"))
    #expect(fk.type == .scalar(.string) && fk.isRequired && fk.origin == .implicitForeignKey)
    #expect(post.field(named: "comments")?.type == .list(.model("Comment"), elementRequired: true))
    #expect(post.field(named: "comments")?.isRequired == true)
  }

  @Test func bareHasManyPairedWithBelongsToFields() throws {
    let graph = try #require(
      analyzeClean(
        #"""
        type Blog @model { id: ID! posts: [Post] @hasMany }
        type Post @model { id: ID! blogID: ID! blog: Blog @belongsTo(fields: ["blogID"]) }
        """#))
    let blog = try graph.requireModel("Blog")
    #expect(blog.hasMany("posts")?.foreignKeyFields == ["blogID"])
    #expect(blog.hasMany("posts")?.associatedFields == ["blog"])
    let post = try graph.requireModel("Post")
    #expect(post.belongsTo("blog")?.targetNames == ["blogID"])
    #expect(post.storedFieldNames == ["id", "blog", "createdAt", "updatedAt"])
  }

  @Test func implicitForeignKeyNullabilityFollowsTheHasManyField() throws {
    let graph = try #require(
      analyzeClean(
        """
        type Blog @model { id: ID! posts: [Post] @hasMany drafts: [Draft]! @hasMany }
        type Post @model { id: ID! blog: Blog! @belongsTo }
        type Draft @model { id: ID! blog: Blog @belongsTo }
        """))
    let post = try graph.requireModel("Post")
    #expect(post.field(named: "blogPostsId")?.isRequired == false)
    #expect(post.belongsTo("blog")?.style == .implicit)
    #expect(try graph.requireModel("Draft").field(named: "blogDraftsId")?.isRequired == true)
  }

  @Test func hasManyFieldsWithoutIndexUseTheChildPrimaryKey() throws {
    let graph = try #require(
      analyzeClean(
        #"""
        type Order @model { id: ID! lines: [Line] @hasMany(fields: ["id"]) }
        type Line @model { orderId: ID! @primaryKey(sortKeyFields: ["n"]) n: Int! }
        """#))
    let lines = try #require(try graph.requireModel("Order").hasMany("lines"))
    #expect(lines.foreignKeyFields == ["orderId"] && lines.indexName == nil && lines.style == .fields)
  }

  @Test func hasOneWithFieldsAndImplicit() throws {
    let graph = try #require(
      analyzeClean(
        #"""
        type Project @model { id: ID! teamID: ID team: Team @hasOne(fields: ["teamID"]) lead: Person! @hasOne }
        type Team @model { id: ID! name: String }
        type Person @model { id: ID! }
        """#))
    let project = try graph.requireModel("Project")
    let team = try #require(project.hasOne("team"))
    #expect(team.targetNames == ["teamID"] && team.associatedFields == ["id"] && team.relatedFields == ["id"])
    #expect(team.style == .fields && team.pairedField == nil)
    let lead = try #require(project.hasOne("lead"))
    #expect(lead.targetNames == ["projectLeadId"])
    #expect(project.field(named: "projectLeadId")?.isRequired == true)
    #expect(project.fieldNames == ["id", "teamID", "team", "lead", "projectLeadId", "createdAt", "updatedAt"])
    #expect(project.storedFieldNames == ["id", "team", "lead", "createdAt", "updatedAt"])
  }

  @Test func selfReferencingModel() throws {
    let graph = try #require(
      analyzeClean(
        """
        type Employee @model {
          id: ID!
          manager: Employee @belongsTo
          reports: [Employee] @hasMany
        }
        """))
    let employee = try graph.requireModel("Employee")
    #expect(employee.hasMany("reports")?.foreignKeyFields == ["employeeReportsId"])
    #expect(employee.hasMany("reports")?.associatedFields == ["manager"])
    #expect(employee.belongsTo("manager")?.targetNames == ["employeeReportsId"])
    #expect(employee.belongsTo("manager")?.pairedField == "reports")
  }

  @Test func twoRelationsBetweenTheSameModelsPairedByIndex() throws {
    let graph = try #require(
      analyzeClean(
        #"""
        type User @model {
          id: ID!
          written: [Post] @hasMany(indexName: "byAuthor", fields: ["id"])
          edited: [Post] @hasMany(indexName: "byEditor", fields: ["id"])
        }
        type Post @model {
          id: ID!
          authorID: ID! @index(name: "byAuthor")
          editorID: ID! @index(name: "byEditor")
          author: User @belongsTo(fields: ["authorID"])
          editor: User @belongsTo(fields: ["editorID"])
        }
        """#))
    let user = try graph.requireModel("User")
    #expect(user.hasMany("written")?.associatedFields == ["author"])
    #expect(user.hasMany("edited")?.associatedFields == ["editor"])
    #expect(user.hasMany("edited")?.foreignKeyFields == ["editorID"])
    #expect(try graph.requireModel("Post").belongsTo("editor")?.pairedField == "edited")
  }

  @Test func manyToManyCreatesAJoinModel() throws {
    let graph = try #require(
      analyzeClean(
        #"""
        type Post @model @auth(rules: [{allow: public}]) {
          id: ID! @primaryKey(sortKeyFields: ["title"])
          title: String!
          tags: [Tag] @manyToMany(relationName: "PostTags")
        }
        type Tag @model @auth(rules: [{allow: private}]) { id: ID! label: String posts: [Post] @manyToMany(relationName: "PostTags") }
        """#))
    #expect(graph.models.map(\.name) == ["Post", "Tag", "PostTags"])
    let join = try graph.requireModel("PostTags")
    #expect(join.origin == .manyToManyJoin(relationName: "PostTags"))
    #expect(join.pluralName == "PostTags")
    #expect(join.fieldNames == ["id", "postId", "posttitle", "tagId", "post", "tag", "createdAt", "updatedAt"])
    #expect(join.storedFieldNames == ["id", "post", "tag", "createdAt", "updatedAt"])
    #expect(join.indexes.map(\.name) == ["byPost", "byTag"])
    #expect(join.indexes.map(\.fields) == [["postId", "posttitle"], ["tagId"]])
    #expect(join.indexes.allSatisfy { $0.origin == .manyToMany })
    #expect(join.belongsTo("post")?.targetNames == ["postId", "posttitle"])
    #expect(join.belongsTo("post")?.associatedFields == ["id", "title"])
    #expect(join.field(named: "post")?.isRequired == true)
    #expect(join.authRules.map(\.allow) == [.public, .private])
    let tags = try #require(try graph.requireModel("Post").hasMany("tags"))
    #expect(tags.relatedModel == "PostTags" && tags.associatedFields == ["post"])
    #expect(tags.foreignKeyFields == ["postId", "posttitle"] && tags.indexName == "byPost")
    #expect(
      try graph.requireModel("Post").field(named: "tags")?.type == .list(.model("PostTags"), elementRequired: false))
    #expect(try graph.requireModel("Tag").hasMany("posts")?.foreignKeyFields == ["tagId"])
  }

  /// The many-to-many transformer names the join model `graphqlName(toUpper(relationName))`
  /// (`getGraphqlRelationName`), so `relationName: "postTags"` gives `type PostTags`, and the two
  /// sides pair by that name (`"postTags"` with `"PostTags"`); the join model was `postTags` and the
  /// pair was MG026. Its indexes stay `by<Model>` as the model is written (`bypost`).
  @Test func manyToManyJoinModelNameUpperCasesTheRelationName() throws {
    let graph = try #require(
      analyzeClean(
        #"""
        type post @model { id: ID! tags: [tag] @manyToMany(relationName: "postTags") }
        type tag @model { id: ID! posts: [post] @manyToMany(relationName: "PostTags") }
        """#))
    #expect(graph.models.map(\.name) == ["post", "tag", "PostTags"])
    let join = try graph.requireModel("PostTags")
    #expect(join.origin == .manyToManyJoin(relationName: "PostTags"))
    #expect(join.fieldNames == ["id", "postId", "tagId", "post", "tag", "createdAt", "updatedAt"])
    #expect(join.indexes.map(\.name) == ["bypost", "bytag"])
    #expect(try graph.requireModel("post").hasMany("tags")?.relatedModel == "PostTags")
    let text = APISchemaEmitter.render(graph, sourceFileName: "t.graphql")
    #expect(text.contains("\ntype PostTags {\n  id: ID!\n  postId: ID!\n  tagId: ID!\n  post: post!\n  tag: tag!\n"))
    #expect(text.contains("  getPostTags(id: ID!): PostTags\n"))
    #expect(
      text.contains(
        "  tags(filter: ModelPostTagsFilterInput, sortDirection: ModelSortDirection, limit: Int, nextToken: String): ModelPostTagsConnection\n"
      ))
    #expect(!text.contains("postTags {") && !text.contains(": postTags"))
  }

  @Test func targetNameInThePrimaryKeyStaysStored() throws {
    let graph = try #require(
      analyzeClean(
        #"""
        type Order @model { id: ID! lines: [Line] @hasMany(fields: ["id"]) }
        type Line @model { orderId: ID! @primaryKey(sortKeyFields: ["n"]) n: Int! order: Order @belongsTo(fields: ["orderId"]) }
        """#))
    let line = try graph.requireModel("Line")
    #expect(line.belongsTo("order")?.targetNames == ["orderId"])
    #expect(line.storedFieldNames == ["orderId", "n", "order", "createdAt", "updatedAt"])
  }

  @Test func twoWayOneToOneWithFieldsOnBothSides() throws {
    let graph = try #require(
      analyzeClean(
        #"""
        type Person @model { id: ID! passportID: ID passport: Passport @hasOne(fields: ["passportID"]) }
        type Passport @model { id: ID! personID: ID holder: Person @belongsTo(fields: ["personID"]) }
        """#))
    let person = try graph.requireModel("Person")
    #expect(person.hasOne("passport")?.targetNames == ["passportID"])
    #expect(person.hasOne("passport")?.associatedFields == ["holder"])
    #expect(person.hasOne("passport")?.pairedField == "holder")
    let passport = try graph.requireModel("Passport")
    #expect(passport.belongsTo("holder")?.targetNames == ["personID"])
    #expect(passport.belongsTo("holder")?.pairedKind == .hasOne)
    #expect(person.storedFieldNames == ["id", "passport", "createdAt", "updatedAt"])
    #expect(passport.storedFieldNames == ["id", "holder", "createdAt", "updatedAt"])
  }

  @Test func belongsToWithoutCounterpart() {
    expectDiagnostics(
      """
      type Post @model { id: ID! }
      type Comment @model { id: ID! post: Post 1️⃣@belongsTo }
      """, [(ModelGenDiagnosticCode.belongsToWithoutCounterpart, "1️⃣")])
    // Issue 17: the `fields:` / `references:` of a belongsTo without a counterpart are checked
    // too (until s15 a field that does not exist got only MG006); counts and types as well.
    expectDiagnostics(
      """
      type Post @model { id: ID! }
      type Comment @model { id: ID! q: Post 1️⃣@belongsTo(fields: [2️⃣"nope"]) }
      type Note @model { id: ID! q: Post 3️⃣@belongsTo(references: [4️⃣"postRef"]) }
      type Mark @model { id: ID! n: Int q: Post 5️⃣@belongsTo(fields: [6️⃣"n"]) }
      """,
      [
        (ModelGenDiagnosticCode.belongsToWithoutCounterpart, "1️⃣"), (ModelGenDiagnosticCode.missingField, "2️⃣"),
        (ModelGenDiagnosticCode.belongsToWithoutCounterpart, "3️⃣"), (ModelGenDiagnosticCode.missingField, "4️⃣"),
        (ModelGenDiagnosticCode.belongsToWithoutCounterpart, "5️⃣"), (ModelGenDiagnosticCode.keyTypeMismatch, "6️⃣"),
      ])
    let (result, _) = analyzeMarked(
      """
      type Post @model { id: ID! }
      type Comment @model { id: ID! q: Post @belongsTo(fields: ["nope"]) }
      """)
    #expect(
      result.diagnostics.last?.message.contains("`nope`") == true, "\(result.diagnostics.map(\.message))")
  }

  @Test func unknownParentRelationTypeDoesNotCascade() {
    expectDiagnostics(
      #"""
      type Post @model { id: ID! comments: [1️⃣Coment] @hasMany }
      type Comment @model { id: ID! postID: ID post: Post @belongsTo(fields: ["postID"]) }
      """#, [(ModelGenDiagnosticCode.unknownType, "1️⃣")])
  }

  @Test func unknownKeyFieldTypeDoesNotCascade() {
    expectDiagnostics(
      #"""
      type Post @model { id: ID! @primaryKey(sortKeyFields: ["title"]) title: 1️⃣Strng! @index(sortKeyFields: ["n"]) n: 2️⃣Nt comments: [Comment] @hasMany }
      type Comment @model { id: ID! postID: 3️⃣IDD post: Post @belongsTo(fields: ["postID"]) }
      type Blog @model { id: ID! posts: [Post] @hasMany }
      """#,
      [
        (ModelGenDiagnosticCode.unknownType, "1️⃣"), (ModelGenDiagnosticCode.unknownType, "2️⃣"),
        (ModelGenDiagnosticCode.unknownType, "3️⃣"),
      ])
  }

  @Test func ambiguousPairings() {
    expectDiagnostics(
      """
      type Post @model { id: ID! comments: [Comment] @hasMany pinned: [Comment] @hasMany }
      type Comment @model { id: ID! post: Post 1️⃣@belongsTo }
      type Blog @model { id: ID! posts: [Entry] 2️⃣@hasMany }
      type Entry @model { id: ID! blog: Blog @belongsTo other: Blog @belongsTo }
      """,
      [(ModelGenDiagnosticCode.ambiguousRelation, "1️⃣"), (ModelGenDiagnosticCode.ambiguousRelation, "2️⃣")])
  }

  @Test func keyCountAndTypeMismatches() {
    expectDiagnostics(
      #"""
      type Post @model { id: ID! @primaryKey(sortKeyFields: ["title"]) title: String! comments: [Comment] @hasMany }
      type Comment @model { id: ID! postID: Int post: Post @belongsTo(fields: 1️⃣[2️⃣"postID"]) }
      type Team @model { id: ID! n: Int! lead: Person @hasOne(fields: [3️⃣"n"]) member: Person @hasOne(fields: [4️⃣"gone"]) }
      type Person @model { id: ID! }
      """#,
      [
        (ModelGenDiagnosticCode.keyCountMismatch, "1️⃣"), (ModelGenDiagnosticCode.keyTypeMismatch, "2️⃣"),
        (ModelGenDiagnosticCode.keyTypeMismatch, "3️⃣"), (ModelGenDiagnosticCode.missingField, "4️⃣"),
      ])
  }

  @Test func hasManyIndexAndFieldErrors() {
    expectDiagnostics(
      #"""
      type Post @model {
        id: ID!
        title: String
        a: [Comment] @hasMany(indexName: 1️⃣"byPots", fields: ["id"])
        b: [Comment] @hasMany(indexName: "byPost", fields: 2️⃣["title"])
        c: [Comment] @hasMany(indexName: "byPost", fields: [3️⃣"nope"])
        d: [Comment] @hasMany(references: [4️⃣"missing"])
      }
      type Comment @model { id: ID! postID: ID! @index(name: "byPost") }
      """#,
      [
        (ModelGenDiagnosticCode.indexNotFound, "1️⃣"), (ModelGenDiagnosticCode.fieldsNotPrimaryKey, "2️⃣"),
        (ModelGenDiagnosticCode.missingField, "3️⃣"), (ModelGenDiagnosticCode.missingField, "4️⃣"),
      ])
    let (result, _) = analyzeMarked(
      #"""
      type Post @model { id: ID! a: [Comment] @hasMany(indexName: "byPots", fields: ["id"]) }
      type Comment @model { id: ID! postID: ID! @index(name: "byPost") }
      """#)
    #expect(result.diagnostics.first?.hint == "did you mean `byPost`?")
  }

  @Test func referencesOnOneSideOnly() {
    expectDiagnostics(
      #"""
      type Customer @model { id: ID! orders: [Order] 1️⃣@hasMany(references: ["customerId"]) }
      type Order @model { id: ID! customerId: ID customer: Customer @belongsTo(fields: ["customerId"]) }
      """#, [(ModelGenDiagnosticCode.relationStyleMismatch, "1️⃣")])
  }

  @Test func relationFieldShapes() {
    expectDiagnostics(
      """
      type Label { text: String }
      type Post @model {
        id: ID!
        a: 1️⃣Comment @hasMany
        b: 2️⃣[Comment] @hasOne
        c: 3️⃣[Label] @hasMany
        d: Comment @hasOne 4️⃣@belongsTo
      }
      type Comment @model { id: ID! }
      """,
      [
        (ModelGenDiagnosticCode.relationFieldType, "1️⃣"), (ModelGenDiagnosticCode.relationFieldType, "2️⃣"),
        (ModelGenDiagnosticCode.relationFieldType, "3️⃣"), (ModelGenDiagnosticCode.misplacedDirective, "4️⃣"),
      ])
  }

  @Test func manyToManyErrors() {
    expectDiagnostics(
      """
      type Post @model { id: ID! tags: [Tag] @manyToMany(relationName: 1️⃣"Lonely") other: [Tag] @manyToMany(relationName: 2️⃣"Tag") }
      type Tag @model { id: ID! posts: [Post] @manyToMany(relationName: "Tag") }
      """,
      [(ModelGenDiagnosticCode.invalidManyToMany, "1️⃣"), (ModelGenDiagnosticCode.invalidManyToMany, "2️⃣")])
  }

  @Test func implicitForeignKeyNameTakenByAFieldOfAnotherType() {
    expectDiagnostics(
      """
      type Post @model { id: ID! comments: [Comment] @hasMany }
      type Comment @model { id: ID! postCommentsId: 1️⃣Int }
      """, [(ModelGenDiagnosticCode.keyTypeMismatch, "1️⃣")])
  }
}
