// A child process for the DataStore's SIGKILL test (Tests/LazyModelDataStoreTests/KillTests.swift):
//
//   DataStoreKillHelper <database file> <first transaction number>
//
// Writes transactions for ever, each one post `t<n>` and 20 comments `t<n>-<i>` in one `write`,
// the comments saved before their post (foreign keys checked at commit), and prints `<n>` on stdout
// after each commit returns. The test kills it with SIGKILL at a random moment and checks the file.
import Foundation
import LazyModelDataStore
import SeedPostCommentModels

let arguments = CommandLine.arguments
guard arguments.count == 3, let first = Int(arguments[2]) else {
  FileHandle.standardError.write(Data("usage: DataStoreKillHelper <file> <first>\n".utf8))
  exit(64)
}
let store = try DataStore(fileURL: URL(fileURLWithPath: arguments[1]), registry: Models.registry)
var number = first
while true {
  let id = "t\(number)"
  try await store.write { tx in
    let post = Post4V2(id: id, title: "transaction \(id)")
    for index in 0..<20 {
      try tx.save(Comment4V2(id: "\(id)-\(index)", content: "comment \(index) of \(id)", post: post))
    }
    try tx.save(post)
  }
  FileHandle.standardOutput.write(Data("\(number)\n".utf8))  // unbuffered: printed = committed
  number += 1
}
