import Foundation
import LazyModel
import LazyModelAPI
import ScalarsEnumsEmbeddedModels
import Testing

@Suite("Every scalar, enum and embedded type over HTTP")
struct ScalarsTests {
  @Test(
    "a model with every AWS scalar, enums and embedded types round-trips through create and get")
  func roundTrip() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/scalars-enums-embedded/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let sample = Sample(
      id: "s1", text: "tab\tand \"quotes\"", email: "a@example.com", json: #"{"k":[1,2]}"#,
      url: "https://example.com/x?y=1", phone: "+14155550100", ip: "127.0.0.1", count: -3,
      timestamp: 1_700_000_000, ratio: 0.25, flag: false,
      date: try Temporal.Date(iso8601String: "2026-01-31"),
      time: try Temporal.Time(iso8601String: "23:59:59.999"),
      dateTime: try Temporal.DateTime(iso8601String: "2026-01-31T23:59:59+01:00"),
      color: .darkGreen,
      colors: [.red, .darkGreen], address: Address(street: "Main 1", city: nil, tags: ["a"]),
      addresses: [Address(street: "Side 2"), nil])
    try await client.create(sample)
    #expect(log.last?.variables["input"]?["color"] == "DARK_GREEN")
    #expect(log.last?.variables["input"]?["timestamp"] == 1_700_000_000)
    let fetched = try #require(try await client.get(Sample.self, byIdentifier: .init(id: "s1")))
    #expect(
      log.last?.document
        == "query GetSample($id: ID!) { getSample(id: $id) { id text email json url phone ip count timestamp ratio flag date time dateTime color colors address { street city tags } addresses { street city tags } createdAt updatedAt __typename } }"
    )
    #expect(fetched.text == sample.text)
    #expect(fetched.json == sample.json)
    #expect(fetched.count == -3)
    #expect(fetched.timestamp == 1_700_000_000)
    #expect(fetched.ratio == 0.25)
    #expect(fetched.flag == false)
    #expect(fetched.date == sample.date)
    #expect(fetched.time == sample.time)
    #expect(fetched.dateTime == sample.dateTime)
    #expect(fetched.color == .darkGreen)
    #expect(fetched.colors == [.red, .darkGreen])
    #expect(fetched.address == sample.address)
    #expect(fetched.addresses == sample.addresses)
  }
}
