// A child process for the DataStore tests that need another process on the same file:
//
//   DataStoreKillHelper <database file> <first transaction number>
//     (Tests/LazyModelDataStoreTests/KillTests.swift) Writes transactions for ever, each one post
//     `t<n>` and 20 comments `t<n>-<i>` in one `write`, the comments saved before their post
//     (foreign keys checked at commit), and prints `<n>` on stdout after each commit returns. The
//     test kills it with SIGKILL at a random moment and checks the file.
//
//   DataStoreKillHelper <database file> events
//     (OtherProcessEventTests) Writes a fixed script — saves, an update, a delete, a rolled-back
//     write, a save refused at commit, a cascading delete — and prints `done`.
//
//   DataStoreKillHelper <database file> observe <count>
//     (OtherProcessEventTests) Observes `Comment4V2`, prints `ready` once registered in the file's
//     change log, then one line per event (`saved <id> <content>` / `deleted <id> <content>`) and
//     exits after <count> events.
//
//   DataStoreKillHelper <database file> lock
//     (BusyCancellationTests) Saves post `held` inside a `write` and keeps that transaction — the
//     file's write lock — open, printing `locked`, until a line arrives on stdin; then commits and
//     prints `released`.
//
//   DataStoreKillHelper <database file> rename <post id> <title>
//     (SiblingBatchVersionTests) Sets the title of post <post id> to <title> in one save, prints
//     `renamed` after the commit and exits: a commit of another process, with no observer anywhere.
import Foundation
import LazyModelDataStore
import SeedPostCommentModels

/// Prints `line` at once (stdout unbuffered: what the test reads is what happened).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
  FileHandle.standardError.write(
    Data("usage: DataStoreKillHelper <file> (<first> | events | observe <count> | lock | rename <id> <title>)\n".utf8))
  exit(64)
}
let store = try DataStore(fileURL: URL(fileURLWithPath: arguments[1]), registry: Models.registry)

switch arguments[2] {
case "events":
  struct Abandon: Error {}
  let post = Post4V2(id: "p", title: "Hello")
  try await store.save(post)
  try await store.write { tx in
    try tx.save(Comment4V2(id: "c1", content: "one", post: post))
    try tx.save(Comment4V2(id: "c2", content: "two", post: post))
  }
  try await store.save(Comment4V2(id: "c1", content: "one, edited", post: post))
  try await store.delete(Comment4V2.self, byIdentifier: .init(id: "c2"))
  _ = try? await store.write { tx in
    try tx.save(Comment4V2(id: "c3", content: "rolled back", post: post))
    throw Abandon()
  }
  // A comment whose post does not exist: refused at COMMIT, nothing written.
  _ = try? await store.write { tx in
    try tx.save(Comment4V2(id: "c4", content: "orphan", post: Post4V2(id: "none", title: "")))
  }
  try await store.delete(post)  // cascades to c1
  say("done")

case "observe":
  guard arguments.count == 4, let count = Int(arguments[3]) else { exit(64) }
  let events = store.observe(Comment4V2.self)
  // The registration is a job of the writer's queue queued by `observe`: this write runs after it.
  try await store.write { _ in }
  say("ready")
  var seen = 0
  for await event in events {
    switch event {
    case .saved(let comment): say("saved \(comment.id) \(comment.content)")
    case .deleted(let comment): say("deleted \(comment.id) \(comment.content)")
    }
    seen += 1
    if seen == count { break }
  }

case "lock":
  try await store.write { tx in
    try tx.save(Post4V2(id: "held", title: "by the helper"))
    say("locked")
    // Blocks the helper's writer queue thread (its own process), holding the lock.
    _ = readLine()
  }
  say("released")

case "rename":
  guard arguments.count == 5,
    var post = try await store.query(Post4V2.self, byIdentifier: .init(id: arguments[3]))
  else { exit(65) }
  post.title = arguments[4]
  try await store.save(post)
  say("renamed")

default:
  guard let first = Int(arguments[2]) else { exit(64) }
  var number = first
  while true {
    let id = "t\(number)"
    try await store.write { tx in
      let post = Post4V2(id: id, title: "transaction \(id)")
      for index in 0..<20 {
        try tx.save(
          Comment4V2(id: "\(id)-\(index)", content: "comment \(index) of \(id)", post: post))
      }
      try tx.save(post)
    }
    say("\(number)")  // printed = committed
    number += 1
  }
}
