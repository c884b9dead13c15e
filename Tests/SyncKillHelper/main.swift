// A child process for the sync test that kills a client while its outbox drains
// (Tests/LazyModelSyncTests/KillWhileDrainingTests.swift):
//
//   SyncKillHelper <database file> <endpoint> <round> <count>
//     Opens the store on the file, synced to the local server at <endpoint>. Offline (before
//     `start()`), saves <count> posts `k<round>-<i>` (tags `["r<round>"]`) and, from round 1 on,
//     updates the previous round's posts `k<round-1>-<i>` (tags `["r<round-1>", "r<round>"]`);
//     prints `saved`. Then starts sync and prints `processed <identifier>` for each mutation the
//     server answered and `error <description>` for each that failed, `empty` when the outbox is
//     empty, and runs until it is killed (the test sends SIGKILL in the middle of the drain).
import Foundation
import LazyModelAPI
import LazyModelDataStore
import SyncBlogModels

/// Prints `line` at once (stdout unbuffered: what the test reads is what happened).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

let arguments = CommandLine.arguments
guard arguments.count == 5, let endpoint = URL(string: arguments[2]), let round = Int(arguments[3]),
  let count = Int(arguments[4])
else {
  FileHandle.standardError.write(Data("usage: SyncKillHelper <file> <endpoint> <round> <count>\n".utf8))
  exit(64)
}
var configuration = SyncConfiguration(client: APIClient(configuration: .init(endpoint: endpoint, timeout: 5)))
configuration.retry = SyncRetryPolicy(initialDelay: .milliseconds(50), maximumDelay: .milliseconds(200))
configuration.errorHandler = { error in say("error \(error)") }
let store = try DataStore(fileURL: URL(fileURLWithPath: arguments[1]), registry: Models.registry, sync: configuration)
for index in 0..<count {
  try await store.save(Post(id: "k\(round)-\(index)", title: "created in round \(round)", tags: ["r\(round)"]))
  if round > 0 {
    try await store.save(
      Post(id: "k\(round - 1)-\(index)", title: "updated in round \(round)", tags: ["r\(round - 1)", "r\(round)"]))
  }
}
say("saved")
let events = store.syncEvents
try await store.start()
for await event in events {
  switch event {
  case .outboxMutationProcessed(_, let identifier, _, _): say("processed \(identifier)")
  case .error(let error): say("error \(error)")
  case .outboxStatus(isEmpty: true): say("empty")
  default: break
  }
}
