import Foundation
import ModelGen
import Testing

/// The API schema emitter: whole-file goldens and one snippet test per transformer feature.
///
/// The goldens are the checked-in `Generated/<stem>/schema.api.graphql` (regressions:
/// `Generated/regressions/<stem>/`), the same files the Swift models sit beside, the API tests and
/// the local GraphQL server's self-test serve; only the feature tour, which has no `Schemas/`
/// example, keeps its golden in `Tests/GraphQLServer/fixtures/`. Re-record all of them after an
/// intended change with `MODELGEN_RECORD=1 swift test --filter "GoldenFileTests|APISchemaEmitterTests"`,
/// then read `git diff Generated/ Tests/GraphQLServer/fixtures/`.
@Suite struct APISchemaEmitterTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let fixtures = root.appendingPathComponent("Tests/GraphQLServer/fixtures")

  /// The checked-in emitted schema of the `Schemas/` (or `Schemas/regressions/`) file named `stem`.
  static func golden(_ stem: String) -> URL {
    let example = root.appendingPathComponent("Generated/\(stem)/schema.api.graphql")
    return FileManager.default.fileExists(atPath: example.path)
      ? example : root.appendingPathComponent("Generated/regressions/\(stem)/schema.api.graphql")
  }

  static let goldens: [(ModelGraph, String)] = [
    (APISchemaGraphs.seed, "seed-post-comment"),
    (APISchemaGraphs.reading, "composite-key-non-string-components"),
    (APISchemaGraphs.task, "composite-key-sort-key-named-id"),
    (APISchemaGraphs.board, "list-nullability-with-lazy-belongs-to"),
    (APISchemaGraphs.projectTeam, "has-one-belongs-to-composite-keys"),
    (APISchemaGraphs.references, "references-has-one-has-many"),
    (APISchemaGraphs.explicitForeignKeyIndex, "has-many-explicit-fk-index"),
    (APISchemaGraphs.albumPhotos, "lazy-list-read-before-fetch"),
    (APISchemaGraphs.enumKeywords, "enum-values-swift-keywords"),
    (APISchemaGraphs.breaks, "type-name-lowercases-to-keyword"),
  ]

  static func render(_ graph: ModelGraph) -> String {
    APISchemaEmitter.render(graph, sourceFileName: graph.sourceFileName)
  }

  /// A readable account of where `actual` departs from `expected`: the first differing line with
  /// its neighbours, or `nil` when they are equal.
  static func lineDiff(expected: String, actual: String) -> String? {
    guard expected != actual else { return nil }
    let old = expected.components(separatedBy: "\n")
    let new = actual.components(separatedBy: "\n")
    let line =
      zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }?.offset
      ?? min(old.count, new.count)
    let range = max(0, line - 2)..<(line + 3)
    let show = { (lines: [String], mark: String) in
      range.filter { $0 < lines.count }.map { "\(mark)\($0 + 1): \(lines[$0])" }.joined(
        separator: "\n")
    }
    return
      "first difference at line \(line + 1)\n--- golden\n\(show(old, "-"))\n+++ rendered\n\(show(new, "+"))"
  }

  /// The block of the definition that starts with `header` (`type Query {`), through its closing brace.
  static func block(_ header: String, in schema: String) -> String? {
    guard let start = schema.range(of: "\n" + header) else { return nil }
    let rest = schema[start.upperBound...]
    guard let end = rest.range(of: "\n}") else { return nil }
    return header + String(rest[..<end.upperBound])
  }

  /// Recorded by `GoldenFileTests` (`MODELGEN_RECORD=1`), which writes every file of `Generated/`.
  @Test(arguments: 0..<goldens.count)
  func matchesGolden(_ index: Int) throws {
    let (graph, stem) = Self.goldens[index]
    let rendered = Self.render(graph)
    let golden = try String(contentsOf: Self.golden(stem), encoding: .utf8)
    let difference = Self.lineDiff(expected: golden, actual: rendered)
    #expect(
      difference == nil,
      "\(difference ?? ""); re-record with MODELGEN_RECORD=1 and read the diff")
  }

  /// The same goldens from the real pipeline stage before: `Schemas/` text → semantic analyzer → emitter.
  @Test(arguments: 0..<goldens.count)
  func analyzedSchemaMatchesGolden(_ index: Int) throws {
    let (graph, stem) = Self.goldens[index]
    let schemas = Self.root.appendingPathComponent("Schemas")
    let candidates = [
      schemas.appendingPathComponent("\(stem).graphql"),
      schemas.appendingPathComponent("regressions/\(stem).graphql"),
    ]
    guard let url = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) })
    else {
      #expect(graph.sourceFileName == "topic-post-comment.graphql", "no schema file for \(stem)")
      return
    }
    let analysis = SemanticAnalyzer.analyze(
      source: try String(contentsOf: url, encoding: .utf8), fileName: "\(stem).graphql")
    let analyzed = try #require(analysis.graph, "\(analysis.diagnostics)")
    let golden = try String(contentsOf: Self.golden(stem), encoding: .utf8)
    let rendered = APISchemaEmitter.render(analyzed, sourceFileName: "\(stem).graphql")
    let difference = Self.lineDiff(expected: golden, actual: rendered)
    #expect(difference == nil, "\(difference ?? "")")
  }

  /// The schemas whose goldens live in `Tests/GraphQLServer/fixtures/`: the feature tour (every
  /// feature the emitter renders: enums, non-model types, `@default`, renamed and disabled
  /// timestamps, `@model(queries:, subscriptions:)`, indexes with and without sort keys, composite
  /// index sort keys, implicit hasMany/belongsTo, `@manyToMany`, AWS scalars) and the owner-only
  /// relationships of issue 15 (`auth-relations`), each analyzed and rendered with its manifest;
  /// the server self-test serves the goldens.
  @Test(arguments: ["feature-tour", "auth-relations"])
  func fixtureMatchesGolden(stem: String) throws {
    let fileName = "\(stem).graphql"
    let source = try String(contentsOf: Self.fixtures.appendingPathComponent(fileName), encoding: .utf8)
    let analysis = SemanticAnalyzer.analyze(source: source, fileName: fileName)
    let graph = try #require(analysis.graph, "\(analysis.diagnostics)")
    let rendered = APISchemaEmitter.render(graph, sourceFileName: fileName)
    let url = Self.fixtures.appendingPathComponent("\(stem).api.graphql")
    if ProcessInfo.processInfo.environment["MODELGEN_RECORD"] == "1" {
      try rendered.write(to: url, atomically: true, encoding: .utf8)
    }
    let difference = Self.lineDiff(
      expected: try String(contentsOf: url, encoding: .utf8), actual: rendered)
    #expect(difference == nil, "\(difference ?? ""); re-record with MODELGEN_RECORD=1")
    // The local server's manifest of the same schema (`<stem>.local.json`, which the server
    // reads beside `<stem>.api.graphql`).
    let manifest = APILocalManifest.render(graph, sourceFileName: fileName)
    let manifestURL = Self.fixtures.appendingPathComponent("\(stem).local.json")
    if ProcessInfo.processInfo.environment["MODELGEN_RECORD"] == "1" {
      try manifest.write(to: manifestURL, atomically: true, encoding: .utf8)
    }
    let manifestDifference = Self.lineDiff(
      expected: try String(contentsOf: manifestURL, encoding: .utf8), actual: manifest)
    #expect(manifestDifference == nil, "\(manifestDifference ?? ""); re-record with MODELGEN_RECORD=1")
  }

  @Test func headerDeterminismAndLineEnds() {
    let first = Self.render(APISchemaGraphs.seed)
    #expect(
      first.hasPrefix(
        "# Generated by modelgen from seed-post-comment.graphql. Do not edit.\n\ntype Post4V2 @aws_api_key {\n"))
    // Deployable as it is: no declaration of AppSync's scalars or directives, no modelgen directive.
    #expect(!first.contains("scalar ") && !first.contains("directive @") && !first.contains("@modelgen"))
    #expect(first == Self.render(APISchemaGraphs.seed))
    #expect(first.hasSuffix("}\n") && !first.hasSuffix("\n\n"))
    #expect(!first.contains("\r"))
  }

  @Test func seedModelTypesKeepForeignKeysAndTimestamps() {
    let schema = Self.render(APISchemaGraphs.seed)
    #expect(
      Self.block("type Comment4V2 ", in: schema) == """
        type Comment4V2 @aws_api_key {
          id: ID!
          postID: ID!
          content: String!
          post: Post4V2
          createdAt: AWSDateTime!
          updatedAt: AWSDateTime!
        }
        """)
    #expect(
      schema.contains(
        """
          comments(content: ModelStringKeyConditionInput, filter: ModelComment4V2FilterInput, sortDirection: ModelSortDirection, limit: Int, nextToken: String): ModelComment4V2Connection
        """))
  }

  @Test func seedRootTypes() {
    let schema = Self.render(APISchemaGraphs.seed)
    #expect(
      Self.block("type Query {", in: schema) == """
        type Query {
          getPost4V2(id: ID!): Post4V2 @aws_api_key
          listPost4V2s(filter: ModelPost4V2FilterInput, limit: Int, nextToken: String): ModelPost4V2Connection @aws_api_key
          getComment4V2(id: ID!): Comment4V2 @aws_api_key
          listComment4V2s(filter: ModelComment4V2FilterInput, limit: Int, nextToken: String): ModelComment4V2Connection @aws_api_key
          comment4V2sByPostIDAndContent(postID: ID!, content: ModelStringKeyConditionInput, sortDirection: ModelSortDirection, filter: ModelComment4V2FilterInput, limit: Int, nextToken: String): ModelComment4V2Connection @aws_api_key
        }
        """)
    #expect(
      schema.contains(
        """
          createComment4V2(input: CreateComment4V2Input!, condition: ModelComment4V2ConditionInput): Comment4V2 @aws_api_key
        """))
    #expect(
      schema.contains(
        """
          onDeletePost4V2(filter: ModelSubscriptionPost4V2FilterInput): Post4V2 @aws_subscribe(mutations: ["deletePost4V2"]) @aws_api_key
        """))
  }

  @Test func seedMutationInputs() {
    let schema = Self.render(APISchemaGraphs.seed)
    #expect(
      Self.block("input CreateComment4V2Input {", in: schema) == """
        input CreateComment4V2Input {
          id: ID
          postID: ID!
          content: String!
        }
        """)
    #expect(
      Self.block("input UpdateComment4V2Input {", in: schema) == """
        input UpdateComment4V2Input {
          id: ID!
          postID: ID
          content: String
        }
        """)
    #expect(
      Self.block("input DeleteComment4V2Input {", in: schema)
        == "input DeleteComment4V2Input {\n  id: ID!\n}")
    #expect(
      Self.block("input ModelComment4V2ConditionInput {", in: schema) == """
        input ModelComment4V2ConditionInput {
          postID: ModelIDInput
          content: ModelStringInput
          and: [ModelComment4V2ConditionInput]
          or: [ModelComment4V2ConditionInput]
          not: ModelComment4V2ConditionInput
          createdAt: ModelStringInput
          updatedAt: ModelStringInput
        }
        """)
    #expect(
      Self.block("type ModelComment4V2Connection ", in: schema) == """
        type ModelComment4V2Connection @aws_api_key {
          items: [Comment4V2]!
          nextToken: String
        }
        """)
  }

  @Test func sharedScalarInputs() {
    let schema = Self.render(APISchemaGraphs.seed)
    #expect(
      Self.block("input ModelIntInput {", in: schema) == """
        input ModelIntInput {
          ne: Int
          eq: Int
          le: Int
          lt: Int
          ge: Int
          gt: Int
          between: [Int]
          attributeExists: Boolean
          attributeType: ModelAttributeTypes
        }
        """)
    #expect(
      Self.block("input ModelStringKeyConditionInput {", in: schema) == """
        input ModelStringKeyConditionInput {
          eq: String
          le: String
          lt: String
          ge: String
          gt: String
          between: [String]
          beginsWith: String
        }
        """)
    #expect(schema.contains("enum ModelSortDirection {\n  ASC\n  DESC\n}"))
    #expect(schema.contains("input ModelSizeInput {"))
    #expect(schema.contains("enum ModelAttributeTypes {\n  binary\n"))
    #expect(
      !schema.contains("ModelIntKeyConditionInput"), "only key condition inputs in use are declared"
    )
  }

  @Test func compositeKeyWithNonStringComponents() {
    let schema = Self.render(APISchemaGraphs.reading)
    #expect(
      schema.contains(
        """
          getReading(id: ID!, takenAt: AWSDateTime!, day: AWSDate!, time: AWSTime!, seq: Int!, priority: Priority!, value: Float!): Reading
        """))
    #expect(
      schema.contains(
        """
          listReadings(id: ID, takenAtDayTimeSeqPriorityValue: ModelReadingPrimaryCompositeKeyConditionInput, filter: ModelReadingFilterInput, limit: Int, nextToken: String, sortDirection: ModelSortDirection): ModelReadingConnection
        """))
    #expect(
      Self.block("input ModelReadingPrimaryCompositeKeyInput {", in: schema) == """
        input ModelReadingPrimaryCompositeKeyInput {
          takenAt: AWSDateTime
          day: AWSDate
          time: AWSTime
          seq: Int
          priority: Priority
          value: Float
        }
        """)
    #expect(
      Self.block("input ModelReadingPrimaryCompositeKeyConditionInput {", in: schema) == """
        input ModelReadingPrimaryCompositeKeyConditionInput {
          eq: ModelReadingPrimaryCompositeKeyInput
          le: ModelReadingPrimaryCompositeKeyInput
          lt: ModelReadingPrimaryCompositeKeyInput
          ge: ModelReadingPrimaryCompositeKeyInput
          gt: ModelReadingPrimaryCompositeKeyInput
          between: [ModelReadingPrimaryCompositeKeyInput]
          beginsWith: ModelReadingPrimaryCompositeKeyInput
        }
        """)
    #expect(
      Self.block("input DeleteReadingInput {", in: schema) == """
        input DeleteReadingInput {
          id: ID!
          takenAt: AWSDateTime!
          day: AWSDate!
          time: AWSTime!
          seq: Int!
          priority: Priority!
          value: Float!
        }
        """)
    #expect(
      Self.block("input ModelPriorityInput {", in: schema)
        == "input ModelPriorityInput {\n  eq: Priority\n  ne: Priority\n}")
    #expect(schema.contains("  priority: ModelSubscriptionStringInput\n"))
    // The key order the local server needs is in the manifest, not in the deployable schema.
    #expect(schema.contains("type Reading {\n"))
    #expect(
      APILocalManifest.render(APISchemaGraphs.reading, sourceFileName: "x.graphql").contains(
        #""primaryKey": ["id", "takenAt", "day", "time", "seq", "priority", "value"]"#))
  }

  @Test func compositeKeyWithSortKeyNamedId() {
    let schema = Self.render(APISchemaGraphs.task)
    #expect(schema.contains("  getTask(ownerId: String!, id: ID!): Task\n"))
    #expect(
      schema.contains(
        "  listTasks(ownerId: String, id: ModelIDKeyConditionInput, filter: ModelTaskFilterInput, limit: Int, nextToken: String, sortDirection: ModelSortDirection): ModelTaskConnection\n"
      ))
    #expect(
      Self.block("input DeleteTaskInput {", in: schema)
        == "input DeleteTaskInput {\n  ownerId: String!\n  id: ID!\n}")
    #expect(
      Self.block("input UpdateTaskInput {", in: schema)
        == "input UpdateTaskInput {\n  ownerId: String!\n  id: ID!\n  title: String\n}")
    #expect(
      Self.block("input CreateTaskInput {", in: schema)
        == "input CreateTaskInput {\n  ownerId: String!\n  id: ID\n  title: String!\n}")
    #expect(
      Self.block("input ModelTaskConditionInput {", in: schema)?.contains("ownerId") == false,
      "key fields are not conditions")
    #expect(
      Self.block("input ModelIDKeyConditionInput {", in: schema)?.contains("beginsWith: ID") == true
    )
  }

  @Test func nonModelTypesGetInputTwinsAndListShapesAreKept() {
    let schema = Self.render(APISchemaGraphs.board)
    #expect(Self.block("type Label {", in: schema) == "type Label {\n  text: String\n}")
    #expect(Self.block("input LabelInput {", in: schema) == "input LabelInput {\n  text: String\n}")
    #expect(
      Self.block("input CreateCardInput {", in: schema) == """
        input CreateCardInput {
          id: ID
          labelsA: [LabelInput]!
          labelsB: [LabelInput!]
          labelsC: [LabelInput!]!
          labelsD: [LabelInput]
          scores: [Int]!
          boardCardsId: ID
        }
        """)
    #expect(schema.contains("  labelsC: [Label!]!\n"))
    #expect(
      schema.contains(
        "  cards(filter: ModelCardFilterInput, sortDirection: ModelSortDirection, limit: Int, nextToken: String): ModelCardConnection\n"
      ))
    #expect(
      Self.block("input ModelCardFilterInput {", in: schema)?.contains("labelsA") == false,
      "non-model fields are not filterable")
    #expect(
      Self.block("input ModelCardFilterInput {", in: schema)?.contains("scores: ModelIntInput")
        == true)
  }

  /// Issue 17: a model held by a non-model type (an embedded value) keeps its type in the object
  /// type and takes its `Create<Model>Input` in the input twin; without a create mutation there is
  /// no such input and the field is left out of the twin.
  @Test func modelsHeldByNonModelTypesUseTheirCreateInput() throws {
    let analysis = SemanticAnalyzer.analyze(
      source: """
        type Product @model { id: ID! name: String! }
        type Catalog @model(mutations: null) { id: ID! title: String }
        type OrderLine { product: Product! alternatives: [Product!] catalog: Catalog quantity: Int! }
        type Order @model { id: ID! lines: [OrderLine!]! }
        """, fileName: "orders.graphql")
    let schema = Self.render(try #require(analysis.graph, "\(analysis.diagnostics)"))
    #expect(
      Self.block("type OrderLine {", in: schema)
        == "type OrderLine {\n  product: Product!\n  alternatives: [Product!]\n  catalog: Catalog\n  quantity: Int!\n}")
    #expect(
      Self.block("input OrderLineInput {", in: schema)
        == "input OrderLineInput {\n  product: CreateProductInput!\n  alternatives: [CreateProductInput!]\n  quantity: Int!\n}"
    )
    #expect(!schema.contains("CreateCatalogInput"))
  }

  @Test func hasOneWithImplicitCompositeForeignKey() {
    let schema = Self.render(APISchemaGraphs.projectTeam)
    #expect(
      schema.contains(
        "  team: Team\n"
      ))
    #expect(
      schema.contains(
        "  project: Project\n"
      ))
    #expect(
      Self.block("input UpdateProjectInput {", in: schema) == """
        input UpdateProjectInput {
          projectId: ID!
          name: String!
          projectTeamTeamId: ID
          projectTeamName: String
        }
        """)
  }

  @Test func referencesRelationsResolveThroughTheChildsForeignKey() {
    let schema = Self.render(APISchemaGraphs.references)
    #expect(
      schema.contains(
        "  activeCart: Cart\n"
      ))
    #expect(
      schema.contains(
        "  orders(filter: ModelOrderFilterInput, sortDirection: ModelSortDirection, limit: Int, nextToken: String): ModelOrderConnection\n"
      ))
    #expect(
      Self.block("input CreateCartInput {", in: schema)
        == "input CreateCartInput {\n  id: ID\n  items: [String]!\n  customerId: ID\n}")
  }

  @Test func enumValuesAndNonModelTypesKeepTheirGraphQLSpelling() {
    let enums = Self.render(APISchemaGraphs.enumKeywords)
    #expect(enums.contains("enum Visibility {\n  public\n  private\n  default\n}"))
    #expect(enums.contains("  visibility: ModelVisibilityInput\n"))
    let breaks = Self.render(APISchemaGraphs.breaks)
    #expect(breaks.contains("type Break {\n  minutes: Int\n  paid: Boolean\n}"))
    #expect(breaks.contains("input BreakInput {\n  minutes: Int\n  paid: Boolean\n}"))
    #expect(
      Self.block("input CreateShiftInput {", in: breaks)
        == "input CreateShiftInput {\n  id: ID\n  breaks: [BreakInput]\n}")
  }

  /// Blocks as the transformer prints them for this schema (Amplify Gen 1 → Gen 2 migration output).
  @Test func implicitForeignKeysComeLastAsTheTransformerPrintsThem() {
    let schema = Self.render(APISchemaGraphs.topicPostComment)
    #expect(
      Self.block("type Post ", in: schema)?.components(separatedBy: "\n").dropFirst().joined(
        separator: "\n") == """
            id: ID!
            createdByUserId: String!
            content: String!
            comments(filter: ModelCommentFilterInput, sortDirection: ModelSortDirection, limit: Int, nextToken: String): ModelCommentConnection
            topic: Topic
            createdAt: AWSDateTime!
            updatedAt: AWSDateTime!
            topicPostsId: ID
          }
          """)
    #expect(
      Self.block("input ModelPostFilterInput {", in: schema) == """
        input ModelPostFilterInput {
          id: ModelIDInput
          createdByUserId: ModelStringInput
          content: ModelStringInput
          createdAt: ModelStringInput
          updatedAt: ModelStringInput
          and: [ModelPostFilterInput]
          or: [ModelPostFilterInput]
          not: ModelPostFilterInput
          topicPostsId: ModelIDInput
        }
        """)
    #expect(
      Self.block("input ModelPostConditionInput {", in: schema) == """
        input ModelPostConditionInput {
          createdByUserId: ModelStringInput
          content: ModelStringInput
          and: [ModelPostConditionInput]
          or: [ModelPostConditionInput]
          not: ModelPostConditionInput
          createdAt: ModelStringInput
          updatedAt: ModelStringInput
          topicPostsId: ModelIDInput
        }
        """)
    #expect(
      Self.block("input CreatePostInput {", in: schema) == """
        input CreatePostInput {
          id: ID
          createdByUserId: String!
          content: String!
          topicPostsId: ID
        }
        """)
    #expect(
      Self.block("input UpdatePostInput {", in: schema) == """
        input UpdatePostInput {
          id: ID!
          createdByUserId: String
          content: String
          topicPostsId: ID
        }
        """)
    #expect(
      Self.block("input ModelSubscriptionPostFilterInput {", in: schema) == """
        input ModelSubscriptionPostFilterInput {
          id: ModelSubscriptionIDInput
          createdByUserId: ModelSubscriptionStringInput
          content: ModelSubscriptionStringInput
          createdAt: ModelSubscriptionStringInput
          updatedAt: ModelSubscriptionStringInput
          and: [ModelSubscriptionPostFilterInput]
          or: [ModelSubscriptionPostFilterInput]
          postCommentsId: ModelSubscriptionIDInput
        }
        """)
    #expect(
      Self.block("input ModelSubscriptionCommentFilterInput {", in: schema)?.contains(
        "postCommentsId") == false)
  }

  @Test func modelOperationsArgumentRenamesAndDisables() {
    var graph = APISchemaGraphs.task
    graph.models[0].operations = ModelOperations(
      queries: .object([
        .init(name: "get", value: .string("fetchTask")), .init(name: "list", value: .null),
      ]),
      mutations: .object([.init(name: "delete", value: .null)]),
      subscriptions: .null)
    let schema = Self.render(graph)
    #expect(schema.contains("  fetchTask(ownerId: String!, id: ID!): Task\n"))
    #expect(!schema.contains("listTasks"))
    #expect(
      schema.contains("  createTask(") && schema.contains("  updateTask(")
        && !schema.contains("deleteTask("))
    #expect(!schema.contains("DeleteTaskInput") && !schema.contains("type Subscription"))
  }

  @Test func indexQueryNamesFollowTheTransformer() {
    var graph = APISchemaGraphs.seed
    graph.models[1].indexes = [
      IndexDefinition(
        name: "byPost4", fields: ["postID", "content"], queryField: "commentsByPost",
        location: APISchemaGraphs.at(13)),
      IndexDefinition(name: "byContent", fields: ["content"], location: APISchemaGraphs.at(14)),
    ]
    let schema = Self.render(graph)
    #expect(
      schema.contains(
        "  commentsByPost(postID: ID!, content: ModelStringKeyConditionInput, sortDirection: "))
    #expect(
      schema.contains(
        "  comment4V2sByContent(content: String!, sortDirection: ModelSortDirection, filter: ModelComment4V2FilterInput, limit: Int, nextToken: String): ModelComment4V2Connection @aws_api_key\n"
      ))
  }
}
