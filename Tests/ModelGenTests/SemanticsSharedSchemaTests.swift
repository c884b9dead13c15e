import Foundation
import Testing

@testable import ModelGen
@testable import ModelGenAPISchema
@testable import ModelGenIR
@testable import ModelGenSwift
@testable import ModelGenTemplating

/// Every schema in the shared schema set analyses clean, with the graph values the generated code relies on.
@Suite struct SemanticsSharedSchemaTests {
  @Test func seedPostComment() throws {
    let graph = try #require(
      analyzeClean(try sharedSchema("seed-post-comment.graphql"), fileName: "seed-post-comment.graphql"))
    #expect(graph.sourceFileName == "seed-post-comment.graphql")
    #expect(graph.models.map(\.name) == ["Post4V2", "Comment4V2"])
    let post = try graph.requireModel("Post4V2")
    let comment = try graph.requireModel("Comment4V2")
    #expect(post.pluralName == "Post4V2s")
    #expect(comment.pluralName == "Comment4V2s")
    #expect(post.fieldNames == ["id", "title", "comments", "createdAt", "updatedAt"])
    #expect(comment.fieldNames == ["id", "postID", "content", "post", "createdAt", "updatedAt"])
    #expect(comment.storedFieldNames == ["id", "content", "post", "createdAt", "updatedAt"])
    #expect(comment.primaryKey == PrimaryKey(partitionKey: "id", isImplicit: true))
    #expect(comment.indexes.map(\.name) == ["byPost4"])
    #expect(comment.indexes.first?.fields == ["postID", "content"])
    #expect(comment.indexes.first?.queryField == nil)
    let belongsTo = try #require(comment.belongsTo("post"))
    #expect(belongsTo.targetNames == ["postID"])
    #expect(belongsTo.associatedFields == ["id"])
    #expect(belongsTo.pairedField == "comments")
    #expect(belongsTo.pairedKind == .hasMany)
    #expect(belongsTo.style == .fields)
    let hasMany = try #require(post.hasMany("comments"))
    #expect(hasMany.relatedModel == "Comment4V2")
    #expect(hasMany.associatedFields == ["post"])
    #expect(hasMany.foreignKeyFields == ["postID"])
    #expect(hasMany.indexName == "byPost4")
    #expect(post.field(named: "comments")?.type == .list(.model("Comment4V2"), elementRequired: false))
    #expect(post.field(named: "comments")?.isRequired == false)
    #expect(comment.field(named: "post")?.type == .model("Post4V2"))
    let createdAt = try #require(comment.field(named: "createdAt"))
    #expect(createdAt.type == .scalar(.awsDateTime))
    #expect(createdAt.isReadOnly && !createdAt.isRequired && createdAt.origin == .timestamp)
    #expect(post.authRules.map(\.allow) == [.public])
    #expect(post.authRules.first?.provider == nil && post.authRules.first?.operations == nil)
  }

  @Test func compositeKeyNonStringComponents() throws {
    let graph = try #require(analyzeClean(try sharedSchema("regressions/composite-key-non-string-components.graphql")))
    let reading = try graph.requireModel("Reading")
    #expect(reading.primaryKey.fields == ["id", "takenAt", "day", "time", "seq", "priority", "value"])
    #expect(
      reading.primaryKeyFields.map(\.type) == [
        .scalar(.id), .scalar(.awsDateTime), .scalar(.awsDate), .scalar(.awsTime), .scalar(.int),
        .enumeration("Priority"), .scalar(.float),
      ])
    #expect(graph.enums.map(\.name) == ["Priority"])
    #expect(graph.enums.first?.values.map(\.name) == ["LOW", "HIGH"])
    #expect(reading.pluralName == "Readings")
  }

  @Test func compositeKeySortKeyNamedID() throws {
    let analysis = SemanticAnalyzer.analyze(
      source: try sharedSchema("regressions/composite-key-sort-key-named-id.graphql"), fileName: "test.graphql")
    #expect(analysis.diagnostics.map(\.code) == [ModelGenDiagnosticCode.renamedSwiftType])  // `Task` → `TaskType`
    let graph = try #require(analysis.graph)
    let task = try graph.requireModel("Task")
    #expect(task.primaryKey == PrimaryKey(partitionKey: "ownerId", sortKeyFields: ["id"]))
    #expect(task.fieldNames == ["ownerId", "id", "title", "createdAt", "updatedAt"])
    #expect(task.fields.allSatisfy { $0.origin != .implicitIdentifier })
  }

  @Test func enumValuesSwiftKeywords() throws {
    let graph = try #require(analyzeClean(try sharedSchema("regressions/enum-values-swift-keywords.graphql")))
    #expect(graph.enums.first?.values.map(\.name) == ["public", "private", "default"])
    #expect(try graph.requireModel("Post").field(named: "visibility")?.type == .enumeration("Visibility"))
  }

  @Test func hasManyExplicitForeignKeyIndex() throws {
    let graph = try #require(analyzeClean(try sharedSchema("regressions/has-many-explicit-fk-index.graphql")))
    let post = try graph.requireModel("Post")
    let comment = try graph.requireModel("Comment")
    let hasMany = try #require(post.hasMany("comments"))
    #expect(hasMany.associatedFields == ["postID"])
    #expect(hasMany.foreignKeyFields == ["postID"])
    #expect(hasMany.indexName == "byPost")
    #expect(hasMany.pairedField == nil)
    #expect(comment.storedFieldNames == ["id", "postID", "content", "createdAt", "updatedAt"])
    #expect(comment.indexes.map(\.fields) == [["postID", "content"]])
  }

  @Test func hasOneBelongsToCompositeKeys() throws {
    let graph = try #require(analyzeClean(try sharedSchema("regressions/has-one-belongs-to-composite-keys.graphql")))
    let project = try graph.requireModel("Project")
    let team = try graph.requireModel("Team")
    #expect(
      project.fieldNames == [
        "projectId", "name", "team", "projectTeamTeamId", "projectTeamName", "createdAt", "updatedAt",
      ])
    #expect(project.storedFieldNames == ["projectId", "name", "team", "createdAt", "updatedAt"])
    let hasOne = try #require(project.hasOne("team"))
    #expect(hasOne.targetNames == ["projectTeamTeamId", "projectTeamName"])
    #expect(hasOne.associatedFields == ["project"])
    #expect(hasOne.relatedFields == ["teamId", "name"])
    #expect(hasOne.style == .implicit)
    #expect(project.field(named: "projectTeamTeamId")?.type == .scalar(.id))
    #expect(project.field(named: "projectTeamTeamId")?.isRequired == false)
    #expect(project.field(named: "projectTeamName")?.type == .scalar(.string))
    #expect(
      team.fieldNames == [
        "teamId", "name", "project", "teamProjectProjectId", "teamProjectName", "createdAt", "updatedAt",
      ])
    let belongsTo = try #require(team.belongsTo("project"))
    #expect(belongsTo.targetNames == ["teamProjectProjectId", "teamProjectName"])
    #expect(belongsTo.associatedFields == ["projectId", "name"])
    #expect(belongsTo.pairedKind == .hasOne)
    #expect(team.field(named: "teamProjectProjectId")?.origin == .implicitForeignKey)
    #expect(team.field(named: "teamProjectProjectId")?.isStoredProperty == false)
  }

  @Test func lazyListReadBeforeFetch() throws {
    let graph = try #require(analyzeClean(try sharedSchema("regressions/lazy-list-read-before-fetch.graphql")))
    let album = try graph.requireModel("Album")
    let photo = try graph.requireModel("Photo")
    #expect(album.hasMany("photos")?.associatedFields == ["album"])
    #expect(album.hasMany("photos")?.foreignKeyFields == ["albumPhotosId"])
    #expect(album.hasMany("photos")?.indexName == nil)
    #expect(album.hasMany("photos")?.style == .implicit)
    #expect(photo.belongsTo("album")?.targetNames == ["albumPhotosId"])
    #expect(photo.fieldNames == ["id", "caption", "album", "albumPhotosId", "createdAt", "updatedAt"])
    #expect(photo.storedFieldNames == ["id", "caption", "album", "createdAt", "updatedAt"])
    #expect(photo.field(named: "albumPhotosId")?.isRequired == false)
  }

  @Test func listNullabilityWithLazyBelongsTo() throws {
    let graph = try #require(
      analyzeClean(try sharedSchema("regressions/list-nullability-with-lazy-belongs-to.graphql")))
    let card = try graph.requireModel("Card")
    func shape(_ name: String) -> (FieldType?, Bool?) {
      (card.field(named: name)?.type, card.field(named: name)?.isRequired)
    }
    #expect(shape("labelsA") == (.list(.embedded("Label"), elementRequired: false), true))
    #expect(shape("labelsB") == (.list(.embedded("Label"), elementRequired: true), false))
    #expect(shape("labelsC") == (.list(.embedded("Label"), elementRequired: true), true))
    #expect(shape("labelsD") == (.list(.embedded("Label"), elementRequired: false), false))
    #expect(shape("scores") == (.list(.scalar(.int), elementRequired: false), true))
    #expect(graph.nonModels.map(\.name) == ["Label"])
    #expect(graph.nonModels.first?.fields.map(\.name) == ["text"])
    #expect(card.belongsTo("board")?.targetNames == ["boardCardsId"])
    #expect(try graph.requireModel("Board").hasMany("cards")?.associatedFields == ["board"])
  }

  @Test func referencesHasOneHasMany() throws {
    let graph = try #require(analyzeClean(try sharedSchema("regressions/references-has-one-has-many.graphql")))
    let customer = try graph.requireModel("Customer")
    let cart = try graph.requireModel("Cart")
    let order = try graph.requireModel("Order")
    let activeCart = try #require(customer.hasOne("activeCart"))
    #expect(activeCart.targetNames == [])
    #expect(activeCart.associatedFields == ["customerId"])
    #expect(activeCart.relatedFields == ["customerId"])
    #expect(activeCart.style == .references)
    #expect(activeCart.pairedField == "customer")
    let orders = try #require(customer.hasMany("orders"))
    #expect(orders.associatedFields == ["customer"])
    #expect(orders.foreignKeyFields == ["customerId"])
    #expect(orders.style == .references)
    #expect(cart.belongsTo("customer")?.targetNames == ["customerId"])
    #expect(cart.belongsTo("customer")?.associatedFields == ["id"])
    #expect(cart.storedFieldNames == ["id", "items", "customer", "createdAt", "updatedAt"])
    #expect(order.storedFieldNames == ["id", "total", "customer", "createdAt", "updatedAt"])
    #expect(customer.fieldNames == ["id", "name", "activeCart", "orders", "createdAt", "updatedAt"])
  }

  @Test func typeNameLowercasesToKeyword() throws {
    let graph = try #require(analyzeClean(try sharedSchema("regressions/type-name-lowercases-to-keyword.graphql")))
    #expect(graph.nonModels.map(\.name) == ["Break"])
    #expect(
      try graph.requireModel("Shift").field(named: "breaks")?.type == .list(.embedded("Break"), elementRequired: false))
    #expect(try graph.requireModel("Shift").pluralName == "Shifts")
  }
}

/// Every `.graphql` file under the shared schema set and the project's `Schemas/` analyses clean.
@Suite struct SemanticsAllSchemasTests {
  static func schemaFiles() -> [URL] {
    let directories =
      [
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Schemas"),
        URL(fileURLWithPath: "/work/shared/schemas"),
      ] + (ProcessInfo.processInfo.environment["MODELGEN_EXTRA_SCHEMAS"].map { [URL(fileURLWithPath: $0)] } ?? [])
    var files: [URL] = []
    for directory in directories {
      guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
        continue
      }
      for case let url as URL in enumerator where url.pathExtension == "graphql" {
        files.append(url)
      }
    }
    return files.sorted { $0.path < $1.path }
  }

  @Test func everySchemaAnalysesClean() throws {
    let files = Self.schemaFiles()
    #expect(files.count >= 10)
    for file in files {
      let text = try String(contentsOf: file, encoding: .utf8)
      let result = SemanticAnalyzer.analyze(source: text, fileName: file.lastPathComponent)
      // Only the MGW001/MGW002/MGW003 warnings of the schemas with names Swift cannot take as written.
      #expect(
        result.diagnostics.allSatisfy {
          $0.code == ModelGenDiagnosticCode.renamedSwiftType || $0.code == ModelGenDiagnosticCode.renamedSwiftMember
            || $0.code == ModelGenDiagnosticCode.renamedIndexKey
        },
        "\(file.path): \(result.diagnostics.map(\.description))")
      #expect(
        (result.graph?.models.isEmpty == false)
          == !["schema-without-models.graphql", "root-fields-without-models.graphql"].contains(file.lastPathComponent),
        "\(file.path)")
    }
  }
}

/// A large synthetic schema (1,000 models in a chain of paired hasMany/belongsTo) analyses clean with
/// every relation resolved.
@Suite struct SemanticsLargeSchemaTests {
  @Test func thousandModelChain() throws {
    let count = 1_000
    var source = "enum Level { LOW HIGH }\n"
    for index in 0..<count {
      source += "type Node\(index) @model {\n  id: ID!\n  name: String! @index\n  level: Level\n"
      if index + 1 < count { source += "  children: [Node\(index + 1)] @hasMany\n" }
      if index > 0 { source += "  parent: Node\(index - 1) @belongsTo\n" }
      source += "}\n"
    }
    let graph = try #require(analyzeClean(source, fileName: "large.graphql"))
    #expect(graph.models.count == count)
    let middle = try graph.requireModel("Node500")
    #expect(middle.belongsTo("parent")?.targetNames == ["node499ChildrenId"])
    #expect(middle.hasMany("children")?.foreignKeyFields == ["node500ChildrenId"])
    #expect(middle.indexes.map(\.name) == ["node500sByName"])
  }
}
