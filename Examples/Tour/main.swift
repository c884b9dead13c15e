// The README's five-minute tour as a program, on the seed schema's checked-in models
// (Generated/seed-post-comment): the DataStore always, the API when a GraphQL endpoint is given.
//
//   swift run Tour                               # DataStore, in a SQLite file in a temporary directory
//   swift run Tour --endpoint http://127.0.0.1:PORT/graphql [--api-key KEY]   # and the API
//
// The lines between `// tour: NAME` and `// tour: end` are the README's code blocks, verbatim
// (ModelGenTests' TourSyncTests compares them; LazyModelAPITests' TourRunTests runs this program).
import Foundation
// tour: imports
import LazyModel
import LazyModelAPI
import LazyModelDataStore
import SeedPostCommentModels

// tour: end

/// `--endpoint URL`, `--api-key KEY`, `--db FILE` (default: `tour.sqlite` in a new temporary
/// directory, removed when the tour ends).
struct TourOptions {
  var endpoint: URL?
  var apiKey: String?
  var databaseFile: URL
  /// The directory made for the default database, or `nil` when `--db` was given.
  var temporaryDirectory: URL?

  init(_ arguments: [String]) throws {
    var endpoint: URL?
    var apiKey: String?
    var database: URL?
    var rest = arguments[...]
    while let option = rest.popFirst() {
      guard let value = rest.popFirst() else { throw TourError("\(option) needs a value") }
      switch option {
      case "--endpoint":
        guard let url = URL(string: value), url.scheme == "http" || url.scheme == "https" else {
          throw TourError("--endpoint needs an http(s) URL, not '\(value)'")
        }
        endpoint = url
      case "--api-key": apiKey = value
      case "--db": database = URL(fileURLWithPath: value)
      default: throw TourError("unknown option '\(option)'")
      }
    }
    self.endpoint = endpoint
    self.apiKey = apiKey
    if let database {
      self.databaseFile = database
    } else {
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("modelgen-tour-\(UUID().uuidString)", isDirectory: true)
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      self.temporaryDirectory = directory
      self.databaseFile = directory.appendingPathComponent("tour.sqlite")
    }
  }
}

struct TourError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// The DataStore part of the tour on the SQLite file at `url`; returns the post and its comment.
func dataStoreTour(url: URL) async throws -> (Post4V2, Comment4V2) {
  // tour: datastore
  let store = try DataStore(fileURL: url, registry: Models.registry)  // or DataStore.inMemory(registry:)
  let post = Post4V2(title: "Hello")
  try await store.save(post)
  try await store.save(Comment4V2(content: "First!", post: post))

  let comments = try await store.query(Comment4V2.self, where: Comment4V2.keys.content.beginsWith("F"))
  let comment = comments[0]  // comment.postReference.state is .notLoaded(identifiers: [id: post.id])
  let loaded = try await comment.post  // one primary-key lookup, then cached
  let list = loaded?.comments  // LazyList, not loaded
  let first = try await list?.fetch()  // one indexed query; hasNextPage / nextPage() page on
  // every comment's post: one IN (…) query per 500 keys
  let posts = try await store.loadReferences(Comment4V2.keys.post, of: comments, as: Post4V2.self)
  let same = try await LazyReference.loadAll(comments.map(\.postReference))  // the same, from the references
  // tour: end
  print("datastore: \(comments.count) comment starting with \"F\": \(comment.content)")
  print("datastore: comment.post is \(loaded?.title ?? "nil"), its comments \(first?.map(\.content) ?? [])")
  print("datastore: loadReferences \(posts.map { $0?.title ?? "nil" }), loadAll \(same.map { $0?.title ?? "nil" })")
  return (post, comment)
}

/// The API part of the tour against the GraphQL endpoint `url` (AppSync, or the local server).
func apiTour(url: URL, key: String?, post: Post4V2, comment: Comment4V2) async throws {
  let authorization: APIClient.Authorization = key.map { .apiKey($0) } ?? .none
  // tour: api
  let client = APIClient(configuration: .init(endpoint: url, authorization: authorization))
  let created = try await client.create(post)
  _ = try await client.create(comment)
  let fetched = try await client.get(Comment4V2.self, byIdentifier: .init(id: comment.id))
  let viaAPI = try await fetched?.post  // query GetPost4V2($id: ID!) { getPost4V2(id: $id) { … } }
  // the typed key of @index(name: "byPost4"): the post's id, then a condition on `content`
  let page = try await client.list(
    Comment4V2.self, index: Comment4V2.indexes.byPost4, key: post.id, sortKey: .beginsWith("F"))
  // tour: end
  print("api: created \(created.title), fetched \(fetched?.content ?? "nil"), its post \(viaAPI?.title ?? "nil")")
  print("api: \(page.items.count) comment of \(created.title) beginning with F: \(page.items.map(\.content))")
}

do {
  let options = try TourOptions(Array(CommandLine.arguments.dropFirst()))
  defer {
    if let directory = options.temporaryDirectory { try? FileManager.default.removeItem(at: directory) }
  }
  let (post, comment) = try await dataStoreTour(url: options.databaseFile)
  if let endpoint = options.endpoint {
    try await apiTour(url: endpoint, key: options.apiKey, post: post, comment: comment)
  } else {
    print("api: skipped (start the local server and pass --endpoint, see README)")
  }
} catch {
  FileHandle.standardError.write(Data("tour: error: \(error)\n".utf8))
  exit(1)
}
