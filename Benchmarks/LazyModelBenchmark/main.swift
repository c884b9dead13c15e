// LazyModel runtime costs, measured in a release build:
//   swift run -c release LazyModelBenchmark
// Prints one table row per case: the median of 7 runs and the cost per operation.
import BenchmarkSupport
import Foundation
import LazyModel

// MARK: Models in the generated shape (a post with comments, a composite key).

struct Post: Model {
  let id: String
  var title: String
  var comments: LazyList<Comment>?

  init(id: String, title: String) {
    self.id = id
    self.title = title
  }

  init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    title = try values.decode(String.self, forKey: .title)
    comments = try values.decodeLazyList(
      Comment.self, forKey: .comments, associatedFields: ["postID"],
      parent: Identifier(id: id).components,
      decoder: decoder)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(title, forKey: .title)
    try container.encodeIfPresent(comments, forKey: .comments)
  }

  enum CodingKeys: String, ModelKey { case id, title, comments }
  struct Identifier: ModelIdentifierProtocol {
    let id: String
    var components: [IdentifierComponent] { [IdentifierComponent(name: "id", value: .string(id))] }
  }
  var identifier: Identifier { Identifier(id: id) }
  static let schema = ModelSchema(
    name: "Post", pluralName: "Posts", primaryKey: [CodingKeys.id],
    fields: [
      .field(CodingKeys.id, .required, .id), .field(CodingKeys.title, .required, .string),
      .hasMany(CodingKeys.comments, .optional, Comment.self, associatedFields: ["post"]),
    ])
}

struct Comment: Model {
  let id: String
  var content: String
  var _post: LazyReference<Post>

  init(id: String, content: String, post: Post?) {
    self.id = id
    self.content = content
    _post = LazyReference(post)
  }

  init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    content = try values.decode(String.self, forKey: .content)
    _post = try values.decodeLazyReference(Post.self, forKey: .post, decoder: decoder)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(content, forKey: .content)
    try container.encode(_post, forKey: .post)
  }

  enum CodingKeys: String, ModelKey { case id, content, post }
  struct Identifier: ModelIdentifierProtocol {
    let id: String
    var components: [IdentifierComponent] { [IdentifierComponent(name: "id", value: .string(id))] }
  }
  var identifier: Identifier { Identifier(id: id) }
  static let schema = ModelSchema(
    name: "Comment", pluralName: "Comments", primaryKey: [CodingKeys.id],
    fields: [
      .field(CodingKeys.id, .required, .id), .field(CodingKeys.content, .required, .string),
      .belongsTo(
        CodingKeys.post, .optional, Post.self, targetNames: ["postID"], associatedFields: ["id"]),
    ])
}

// MARK: Measuring

struct Row {
  let name: String
  let operations: Int
  let median: Duration
}

func measure(_ name: String, operations: Int, runs: Int = 7, _ body: () async throws -> Void)
  async rethrows -> Row
{
  try await measure(name, operations: operations, runs: runs, setUp: {}, { _ in try await body() })
}

/// Times `body` only; `setUp` prepares each run's input untimed (fresh not-loaded references).
func measure<Input>(
  _ name: String, operations: Int, runs: Int = 7, setUp: () throws -> Input,
  _ body: (Input) async throws -> Void
) async rethrows -> Row {
  var times: [Duration] = []
  for _ in 0..<runs {
    let input = try setUp()
    let clock = ContinuousClock()
    let start = clock.now
    try await body(input)
    times.append(clock.now - start)
  }
  return Row(name: name, operations: operations, median: times.sorted()[runs / 2])
}

func milliseconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
}

func format(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }

/// Runs every case off the main actor (top-level code is main-actor isolated, and awaiting from it
/// would add two executor hops to every call measured).
enum Benchmark {
  static func run() async throws {
    let postCount = 100
    let commentCount = 10_000
    let store = InMemoryModelStore(pageSize: 100)
    let posts = (0..<postCount).map { Post(id: "post-\($0)", title: "Post \($0)") }
    try store.save(posts)
    try store.save(
      (0..<commentCount).map {
        Comment(id: "comment-\($0)", content: "\($0)", post: posts[$0 % postCount])
      })
    let payload = try JSONEncoder().encode(try store.models(Comment.self))

    var rows: [Row] = []

    let loaded = LazyReference(posts[0])
    rows.append(
      try await measure("get() on a loaded reference", operations: 100_000) {
        for _ in 0..<100_000 { _ = try await loaded.get() }
      })

    rows.append(
      try await measure("decode 10,000 comments (not-loaded post)", operations: commentCount) {
        _ = try store.decoder().decode([Comment].self, from: payload)
      })

    let decodeComments = { try store.decoder().decode([Comment].self, from: payload) }
    rows.append(
      try await measure(
        "get() per comment: 10,000 loads", operations: commentCount, setUp: decodeComments
      ) {
        for comment in $0 { _ = try await comment._post.get() }
      })

    rows.append(
      try await measure(
        "loadAll(10,000 references): 1 batch", operations: commentCount, setUp: decodeComments
      ) {
        _ = try await LazyReference.loadAll($0.map(\._post))
      })

    rows.append(
      try await measure(
        "loadAll(10,000 references), all loaded", operations: commentCount,
        setUp: {
          (0..<commentCount).map { LazyReference(posts[$0 % postCount]) }
        }
      ) {
        _ = try await LazyReference.loadAll($0)
      })

    rows.append(
      try await measure("1,000 concurrent get() on one reference", operations: 1_000) {
        let reference = LazyReference<Post>(
          identifiers: [IdentifierComponent(name: "id", value: .string("post-1"))],
          provider: store.referenceProvider(for: Post.self, identifiers: []))
        try await withThrowingTaskGroup(of: Void.self) { group in
          for _ in 0..<1_000 { group.addTask { _ = try await reference.get() } }
          try await group.waitForAll()
        }
      })

    rows.append(
      try await measure("fetch() + nextPage() over 100 comments", operations: 100) {
        let post = try store.decoder().decode(
          Post.self, from: Data(#"{"id":"post-7","title":"x"}"#.utf8))
        guard let list = post.comments else { return }
        try await list.fetch()
        while list.hasNextPage { try await list.nextPage() }
      })

    let identifiers = (0..<100_000).map {
      ModelIdentifier(
        modelName: "Shelf",
        components: [
          IdentifierComponent(name: "building", value: .string("B#\"\($0)\"")),
          IdentifierComponent(name: "number", value: .int($0)),
        ])
    }
    let shelfSchema = ModelSchema(
      name: "Shelf", pluralName: "Shelves", primaryKey: ["building", "number"],
      fields: [
        ModelField(name: "building", type: .string, isRequired: true),
        ModelField(name: "number", type: .int, isRequired: true),
      ])
    var texts: [String] = []
    rows.append(
      await measure("canonicalString of a composite key", operations: identifiers.count) {
        texts = identifiers.map(\.canonicalString)
      })
    rows.append(
      try await measure("parse canonical string (schema-typed)", operations: texts.count) {
        for text in texts { _ = try ModelIdentifier(canonicalString: text, schema: shelfSchema) }
      })

    let dateTimes = try (0..<100_000).map {
      try Temporal.DateTime(Date(timeIntervalSince1970: Double($0) * 997.123)).iso8601String
    }
    rows.append(
      try await measure("Temporal.DateTime(iso8601String:)", operations: dateTimes.count) {
        for text in dateTimes { _ = try Temporal.DateTime(iso8601String: text) }
      })
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    let someDateTimes = dateTimes.prefix(10_000)
    rows.append(
      await measure("ISO8601DateFormatter.date(from:) (reference)", operations: someDateTimes.count) {
        for text in someDateTimes { _ = formatter.date(from: text) }
      })

    let host = ProcessInfo.processInfo
    print(
      "LazyModel benchmark (release, median of 7 runs; \(host.activeProcessorCount) cores, \(host.operatingSystemVersionString))"
    )
    print("")
    let table = rows.map { row -> [String] in
      let total = milliseconds(row.median)
      return [
        row.name, String(row.operations), format(total, 2),
        format(total * 1000 / Double(row.operations), 3),
      ]
    }
    print(BenchmarkFormat.table(["case", "operations", "median ms", "per operation µs"], table))
    let statistics = store.statistics
    print("")
    print(
      "provider calls over all runs: \(statistics.referenceLoads) single loads, \(statistics.batchLoads) batch loads (\(statistics.batchIdentifiers) identifier sets), \(statistics.pageLoads) pages"
    )
  }
}

try await Benchmark.run()
