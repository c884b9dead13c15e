import Foundation
import LazyModelAPI
import Testing

/// `GraphQLValue(json:)` (one `JSONSerialization` pass, the path of every untyped answer) gives the
/// value `JSONDecoder` gives through `GraphQLValue.init(from:)`, and `decodeResponse` keeps its
/// errors for every body the fast path leaves to the decoder.
@Suite("GraphQLValue from JSONSerialization")
struct GraphQLValueJSONTests {
  private static let texts = [
    #"{"a":1,"b":1.0,"c":1e2,"d":1.5,"e":true,"f":false,"g":null,"h":"x\u00e9\"\\/","i":-0}"#,
    #"[0,1,-1.0e0,2.5e-3,9223372036854775807,9223372036854775808,12345678901234567890123]"#,
    #"{"items":[{"id":"p1","rating":3,"tags":["a","b"],"_version":1,"_deleted":null,"_lastChangedAt":1764800000000}],"nextToken":null,"startedAt":1764800000001}"#,
    #"{"nested":{"deeper":[[],{},[{"k":""}]]}}"#,
    #""text""#, "7", "0.1", "true", "null", "[]", "{}",
  ]

  @Test("the same value as JSONDecoder, for every kind and number form", arguments: texts)
  func sameAsDecoder(_ text: String) throws {
    let data = Data(text.utf8)
    let decoded = try JSONDecoder().decode(GraphQLValue.self, from: data)
    #expect(GraphQLValue(json: data) == decoded)
  }

  @Test("the kinds it gives: exact integers as int, others as double, booleans as bool")
  func kinds() throws {
    let value = try #require(GraphQLValue(json: Data(Self.texts[0].utf8)))
    #expect(
      value == [
        "a": .int(1), "b": .int(1), "c": .int(100), "d": .double(1.5), "e": true, "f": false,
        "g": nil, "h": "xé\"\\/", "i": .int(0),
      ])
    let numbers = try #require(GraphQLValue(json: Data(Self.texts[1].utf8)))
    #expect(
      numbers == [
        .int(0), .int(1), .int(-1), .double(0.0025), .int(Int.max), .double(9_223_372_036_854_775_808),
        .double(Double("12345678901234567890123")!),
      ])
    #expect(GraphQLValue(json: Data("{".utf8)) == nil)
    #expect(GraphQLValue(json: Data()) == nil)
  }

  @Test("jsonText: sorted keys, parsed back to the same value; nil when it holds a Double")
  func jsonText() throws {
    let value: GraphQLValue = ["b": [1, nil, true], "a": "x/\"\n\u{1}é", "c": ["k": [:]]]
    let text = try #require(value.jsonText)
    #expect(text == #"{"a":"x/\"\n\u0001é","b":[1,null,true],"c":{"k":{}}}"#)
    #expect(GraphQLValue(json: Data(text.utf8)) == value)
    #expect(GraphQLValue.object(["d": .double(1.5)]).jsonText == nil)
  }

  @Test("decodeResponse of an untyped request: data through the fast path, errors as before")
  func untypedResponses() throws {
    let client = APIClient(configuration: .init(endpoint: URL(string: "http://127.0.0.1:9/graphql")!))
    let request = GraphQLRequest<GraphQLValue>(
      operationType: .query, operationName: "SyncPosts", document: "query SyncPosts { syncPosts { nextToken } }",
      variables: [:], responseField: "syncPosts")
    let page = Data(#"{"data":{"syncPosts":{"items":[{"id":"p","rating":2}],"nextToken":null}}}"#.utf8)
    let response = try client.decodeResponse(page, for: request)
    #expect(response.data == ["items": [["id": "p", "rating": 2]], "nextToken": nil])
    #expect(response.errors.isEmpty && response.body == page)
    #expect(
      try client.decodeResponse(Data(#"{"data":{"syncPosts":null},"errors":[]}"#.utf8), for: request).data == .null)

    // Errors beside data: decoded by JSONDecoder, as always.
    let failed = try client.decodeResponse(
      Data(#"{"data":{"syncPosts":null},"errors":[{"message":"no","errorType":"Unauthorized"}]}"#.utf8),
      for: request)
    #expect(failed.errors.map(\.message) == ["no"] && failed.errors.first?.errorType == "Unauthorized")
    // No data and no errors, a missing field, not JSON: the decoder's typed errors.
    for body in [#"{"other":1}"#, #"{"data":{}}"#, #"{"data":null}"#, "not json"] {
      #expect(throws: APIError.self) { try client.decodeResponse(Data(body.utf8), for: request) }
    }
  }
}
