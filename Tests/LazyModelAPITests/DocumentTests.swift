import Foundation
import LazyModel
import LazyModelAPI
import RegressionCompositeKeyNonStringComponents
import RegressionHasOneBelongsToCompositeKeys
import RegressionListNullabilityWithLazyBelongsTo
import RegressionReferencesHasOneHasMany
import Testing

@testable import SeedPostCommentModels

/// Exact documents and variables for every operation, without a server.
@Suite("Documents and variables built from ModelSchema")
struct DocumentTests {
  let commentSelection = "{ id content postID post { id __typename } createdAt updatedAt __typename }"

  @Test(
    "get: every key field is an argument typed after its GraphQL type; values only in variables")
  func get() throws {
    let request = try ModelQueries.get(
      Comment4V2.self, byIdentifier: .init(id: "a\"b\\c#d 😀 $x } {"))
    #expect(request.operationType == .query)
    #expect(request.operationName == "GetComment4V2")
    #expect(request.responseField == "getComment4V2")
    #expect(
      request.document
        == "query GetComment4V2($id: ID!) { getComment4V2(id: $id) \(commentSelection) }")
    #expect(request.variables == ["id": .string("a\"b\\c#d 😀 $x } {")])

    let composite = try ModelQueries.get(
      Project.self,
      identifiers: [
        IdentifierComponent(name: "name", value: .string("N")),
        IdentifierComponent(name: "projectId", value: .string("P")),
      ])
    #expect(
      composite.document
        == "query GetProject($projectId: ID!, $name: String!) { getProject(projectId: $projectId, name: $name) { projectId name projectTeamTeamId projectTeamName team { teamId name __typename } createdAt updatedAt __typename } }"
    )
    #expect(composite.variables == ["projectId": "P", "name": "N"])
  }

  @Test(
    "get with identifiers that are not the primary key, or of the wrong type, is an invalid request"
  )
  func getInvalid() {
    #expect(throws: APIError.self) {
      try ModelQueries.get(
        Project.self, identifiers: [IdentifierComponent(name: "projectId", value: .string("P"))])
    }
    #expect(throws: APIError.self) {
      try ModelQueries.get(
        Comment4V2.self, identifiers: [IdentifierComponent(name: "postID", value: .string("P"))])
    }
    do {
      _ = try ModelQueries.get(
        Reading.self,
        identifiers: ["id", "takenAt", "day", "time", "seq", "priority", "value"].map {
          IdentifierComponent(name: $0, value: .string("x"))
        })
      Issue.record("expected an error")
    } catch let APIError.invalidRequest(name, reason) {
      #expect(name == "GetReading")
      #expect(reason.contains("Reading.seq is Int"))
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test("list: filter, limit and nextToken are variables; absent ones are not sent")
  func list() throws {
    let all = try ModelQueries.list(Comment4V2.self)
    #expect(
      all.document
        == "query ListComment4V2s($filter: ModelComment4V2FilterInput, $limit: Int, $nextToken: String) { listComment4V2s(filter: $filter, limit: $limit, nextToken: $nextToken) { items \(commentSelection) nextToken } }"
    )
    #expect(all.variables.isEmpty)
    let filtered = try ModelQueries.list(
      Comment4V2.self,
      where: Comment4V2.keys.content.beginsWith("a") || !Comment4V2.keys.post.eq(Post4V2.Identifier(id: "p")),
      limit: 25, nextToken: "tok")
    #expect(filtered.document == all.document)
    #expect(
      filtered.variables == [
        "filter": ["or": [["content": ["beginsWith": "a"]], ["not": ["postID": ["eq": "p"]]]]],
        "limit": 25,
        "nextToken": "tok",
      ])
    // The escape hatch sends its filter input as written, checked against nothing.
    let raw = try ModelQueries.list(
      Comment4V2.self,
      uncheckedFilter: .unchecked(field: "content", .beginsWith("a"))
        || .not(.unchecked(field: "postID", .eq("p"))),
      limit: 25, nextToken: "tok")
    #expect(raw.document == all.document && raw.variables == filtered.variables)
  }

  @Test("QueryPredicate filters: belongsTo fields become their target names")
  func predicates() throws {
    let simple = try ModelQueries.list(
      Comment4V2.self,
      where: Comment4V2.keys.content.beginsWith("x") && Comment4V2.keys.post.eq(Post4V2.Identifier(id: "p1")), limit: 10
    )
    #expect(
      simple.variables["filter"] == [
        "and": [["content": ["beginsWith": "x"]], ["postID": ["eq": "p1"]]]
      ])
    let composite = try ModelQueries.list(
      Team.self, where: Team.keys.project.eq(Project.Identifier(projectId: "P", name: "N")))
    #expect(
      composite.variables["filter"] == [
        "and": [["teamProjectProjectId": ["eq": "P"]], ["teamProjectName": ["eq": "N"]]]
      ])
    let nulls = try ModelQueries.list(
      // `content` is required, so its typed key has no `isNotNil()`: the untyped predicate.
      Comment4V2.self, where: Comment4V2.keys.post.isNil() || !QueryPredicate(unchecked: .field("content", .ne(nil))))
    #expect(
      nulls.variables["filter"] == [
        "or": [
          ["postID": ["attributeExists": false]], ["not": ["content": ["attributeExists": true]]],
        ]
      ])
    #expect(try ModelQueries.list(Comment4V2.self, where: .all).variables.isEmpty)
    #expect(throws: APIError.self) {
      try ModelQueries.list(Team.self, where: .init(unchecked: .field("project", .eq(.string("P")))))
    }
    #expect(throws: APIError.self) {
      try ModelQueries.list(Comment4V2.self, where: .init(unchecked: .field("nope", .eq(.string("x")))))
    }
  }

  @Test("index query: default query field name, partition key typed non-null, sort key condition")
  func indexQuery() throws {
    let request = try ModelQueries.query(
      Comment4V2.self, index: Comment4V2.indexes.byPost4, partitionKey: "p", sortKey: .beginsWith("c"),
      sortDirection: .descending, limit: 5)
    let unchecked = try ModelQueries.query(
      Comment4V2.self, uncheckedIndex: "byPost4", partitionKey: .string("p"),
      sortKeyCondition: ["beginsWith": "c"], sortDirection: .descending, limit: 5)
    #expect(unchecked.document == request.document && unchecked.variables == request.variables)
    #expect(request.operationName == "Comment4V2sByPostIDAndContent")
    #expect(request.responseField == "comment4V2sByPostIDAndContent")
    #expect(
      request.document
        == "query Comment4V2sByPostIDAndContent($postID: ID!, $content: ModelStringKeyConditionInput, $sortDirection: ModelSortDirection, $filter: ModelComment4V2FilterInput, $limit: Int, $nextToken: String) { comment4V2sByPostIDAndContent(postID: $postID, content: $content, sortDirection: $sortDirection, filter: $filter, limit: $limit, nextToken: $nextToken) { items \(commentSelection) nextToken } }"
    )
    #expect(
      request.variables == [
        "postID": "p", "content": ["beginsWith": "c"], "sortDirection": "DESC", "limit": 5,
      ])
    #expect(throws: APIError.self) {
      try ModelQueries.query(Comment4V2.self, uncheckedIndex: "nope", partitionKey: .string("p"))
    }
    #expect(throws: APIError.self) {
      try ModelQueries.query(Comment4V2.self, uncheckedIndex: "byPost4", partitionKey: .int(1))
    }
  }

  @Test("a hasMany uses the serving index when there is one, else list + filter")
  func hasManyRequests() throws {
    let indexed = try ModelQueries.list(
      Comment4V2.self, whereFields: ["postID"], equal: [.string("p")], limit: 100, nextToken: "t")
    #expect(indexed.operationName == "Comment4V2sByPostIDAndContent")
    #expect(indexed.variables == ["postID": "p", "limit": 100, "nextToken": "t"])
    let scanned = try ModelQueries.list(
      Order.self, whereFields: ["customerId"], equal: [.string("c")])
    #expect(scanned.operationName == "ListOrders")
    #expect(scanned.variables == ["filter": ["customerId": ["eq": "c"]]])
    let composite = try ModelQueries.list(
      Team.self, whereFields: ["teamProjectProjectId", "teamProjectName"],
      equal: [.string("P"), .string("N")])
    #expect(
      composite.variables == [
        "filter": [
          "and": [["teamProjectProjectId": ["eq": "P"]], ["teamProjectName": ["eq": "N"]]]
        ]
      ])
    #expect(throws: APIError.self) {
      try ModelQueries.list(Order.self, whereFields: ["customerId"], equal: [])
    }
  }

  @Test("selection sets: embedded types with their fields, hasOne(references:) by key, includes")
  func selectionSets() {
    #expect(
      ModelDocument.selectionSet(of: Card.schema)
        == "{ id labelsA { text } labelsB { text } labelsC { text } labelsD { text } scores boardCardsId board { id __typename } createdAt updatedAt __typename }"
    )
    #expect(
      ModelDocument.selectionSet(of: Customer.schema)
        == "{ id name activeCart { customerId __typename } createdAt updatedAt __typename }")
    #expect(
      ModelDocument.selectionSet(of: Customer.schema, includes: ["activeCart", "orders"])
        == "{ id name activeCart { id items customerId customer { id __typename } createdAt updatedAt __typename } orders { items { id total customerId customer { id __typename } createdAt updatedAt __typename } nextToken } createdAt updatedAt __typename }"
    )
  }

  @Test("create/update/delete: input and condition as variables; target names from the reference")
  func mutations() throws {
    let post = Post4V2(id: "p1", title: "T")
    let comment = Comment4V2(id: "c1", content: "hi", post: post)
    let create = try ModelMutations.create(
      comment, uncheckedCondition: .unchecked(field: "content", .attributeExists(false)))
    #expect(create.operationType == .mutation)
    #expect(create.operationName == "CreateComment4V2")
    #expect(
      create.document
        == "mutation CreateComment4V2($input: CreateComment4V2Input!, $condition: ModelComment4V2ConditionInput) { createComment4V2(input: $input, condition: $condition) \(commentSelection) }"
    )
    #expect(
      create.variables == [
        "input": ["id": "c1", "content": "hi", "postID": "p1"],
        "condition": ["content": ["attributeExists": false]],
      ])

    let orphan = Comment4V2(id: "c2", content: "alone")
    #expect(
      try ModelMutations.update(orphan).variables == [
        "input": ["id": "c2", "content": "alone", "postID": nil]
      ])
    #expect(try ModelMutations.delete(orphan).variables == ["input": ["id": "c2"]])
    let byIdentifier = try ModelMutations.delete(Comment4V2.self, byIdentifier: .init(id: "c3"))
    #expect(
      byIdentifier.document
        == "mutation DeleteComment4V2($input: DeleteComment4V2Input!, $condition: ModelComment4V2ConditionInput) { deleteComment4V2(input: $input, condition: $condition) \(commentSelection) }"
    )
    #expect(byIdentifier.variables == ["input": ["id": "c3"]])

    let project = Project(projectId: "P", name: "N", team: Team(teamId: "T", name: "TN"))
    #expect(
      try ModelMutations.create(project).variables["input"]
        == ["projectId": "P", "name": "N", "projectTeamTeamId": "T", "projectTeamName": "TN"])
    let customer = Customer(id: "c", name: nil, activeCart: Cart(id: "cart", items: []), orders: [])
    #expect(try ModelMutations.update(customer).variables["input"] == ["id": "c", "name": nil])
  }

  @Test("a not-loaded reference fills target names from its identifiers")
  func notLoadedReferenceInput() throws {
    let json = Data(#"{"id":"c9","content":"x","post":{"id":"p9","__typename":"Post4V2"}}"#.utf8)
    let comment = try JSONDecoder().decode(Comment4V2.self, from: json)
    #expect(
      comment._post.notLoadedIdentifiers == [IdentifierComponent(name: "id", value: .string("p9"))])
    #expect(
      try ModelMutations.update(comment).variables["input"] == [
        "id": "c9", "content": "x", "postID": "p9",
      ])
  }

  @Test("GraphQLValue keeps integers and floats apart and round-trips JSON")
  func values() throws {
    let value: GraphQLValue = ["i": 7, "d": 2.5, "s": "x\"\\", "b": true, "n": nil, "l": [1, "a"]]
    let data = try JSONEncoder().encode(value)
    #expect(try JSONDecoder().decode(GraphQLValue.self, from: data) == value)
    #expect(GraphQLValue(KeyValue.int(3)) == .int(3))
    #expect(GraphQLValue.int(3).keyValue(as: .double) == .double(3))
    #expect(GraphQLValue.string("3").keyValue(as: .int) == nil)
  }

  @Test(
    "the HTTP body holds operationName, query and variables with sorted keys; decodeResponse reads it back"
  )
  func httpBody() throws {
    let client = APIClient(
      configuration: .init(endpoint: URL(string: "http://127.0.0.1:9/graphql")!))
    let request = try ModelQueries.get(Post4V2.self, byIdentifier: .init(id: "a\"/b"))
    let body = String(decoding: try client.httpBody(for: request), as: UTF8.self)
    #expect(
      body
        == #"{"operationName":"GetPost4V2","query":"query GetPost4V2($id: ID!) { getPost4V2(id: $id) { id title createdAt updatedAt __typename } }","variables":{"id":"a\"/b"}}"#
    )
    let response = Data(
      #"{"data":{"getPost4V2":{"id":"a","title":"T","__typename":"Post4V2"}}}"#.utf8)
    #expect(try client.decodeResponse(response, for: request).data??.title == "T")
    let missing = Data(#"{"data":{"getPost4V2":null}}"#.utf8)
    #expect(try client.decodeResponse(missing, for: request).data.map { $0 == nil } == true)
    #expect(throws: APIError.self) {
      try client.decodeResponse(Data(#"{"other":1}"#.utf8), for: request)
    }
    let nonFinite = GraphQLRequest<Post4V2?>(
      operationType: .query, operationName: "GetPost4V2", document: request.document,
      variables: ["id": .double(.nan)],
      responseField: "getPost4V2")
    #expect(throws: APIError.self) { try client.httpBody(for: nonFinite) }
  }

  /// The encoder the body writer replaces, for comparing bytes.
  private struct EncodedBody: Encodable {
    let query: String
    let operationName: String
    let variables: [String: GraphQLValue]
  }

  @Test("the HTTP body is byte for byte what JSONEncoder with sorted keys writes, for every JSON value")
  func httpBodyMatchesJSONEncoder() throws {
    let client = APIClient(
      configuration: .init(endpoint: URL(string: "http://127.0.0.1:9/graphql")!))
    let controls = String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self)
    let awkward = controls + "\"\\/ é ünï 日本 🙂 \u{7F} \u{2028} \u{2029} </script>"
    let cases: [[String: GraphQLValue]] = [
      [:],
      ["id": .string(awkward)],
      [
        "input": [
          "Zeta": "z", "alpha": .int(-42), "Alpha": .bool(true), "a10": .null, "a9": .bool(false),
          "_x": .list([.int(Int.max), .int(Int.min), .string(""), .list([]), .object([:])]),
          "postCommentsId": "p", "postID": .object(["b": "1", "B": "2", "ä": "3", "z": "4"]),
        ]
      ],
    ]
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    for variables in cases {
      let request = GraphQLRequest<Post4V2?>(
        operationType: .query, operationName: "Op\(awkward)", document: "query { x \(awkward) }",
        variables: variables, responseField: "x")
      let expected = try encoder.encode(
        EncodedBody(query: request.document, operationName: request.operationName, variables: variables))
      let written = try client.httpBody(for: request)
      #expect(
        written == expected,
        "\(String(decoding: written, as: UTF8.self)) != \(String(decoding: expected, as: UTF8.self))")
    }
    // A Double keeps the encoder's number format (the encoder writes it).
    let doubles = GraphQLRequest<Post4V2?>(
      operationType: .query, operationName: "D", document: "q",
      variables: ["v": .list([.double(2.5), .double(1e-7), .double(3), .double(-0.0)])],
      responseField: "x")
    #expect(
      try client.httpBody(for: doubles)
        == encoder.encode(EncodedBody(query: "q", operationName: "D", variables: doubles.variables)))
  }
}
