// The Blog example: saves a blog, a post and two comments into a SQLite file through the
// DataStore, reads the post back, and follows its lazy relationships. `Blog`, `Post` and `Comment`
// are generated from blog.graphql by ModelGenPlugin at build time; nothing here is hand-written
// model code.
import Foundation
import LazyModel
import LazyModelDataStore

/// Stops the program with a message when the example does not behave as documented.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition {
    FileHandle.standardError.write(Data("BlogApp: FAILED: \(message())\n".utf8))
    exit(1)
  }
}

let directory = FileManager.default.temporaryDirectory
  .appendingPathComponent("BlogApp-\(ProcessInfo.processInfo.processIdentifier)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let databaseFile = directory.appendingPathComponent("blog.sqlite")

// Save: a blog, one post in it, two comments on the post.
do {
  let store = try DataStore(fileURL: databaseFile, registry: Models.registry)
  let blog = Blog(id: "blog-1", name: "Lazy loading in Swift")
  let post = Post(id: "post-1", title: "Hello, models", blog: blog)
  try await store.save(blog)
  try await store.save(post)
  try await store.save(Comment(id: "comment-1", content: "First!", post: post))
  try await store.save(Comment(id: "comment-2", content: "Nice post", post: post))
  print("saved 1 blog, 1 post, 2 comments to \(databaseFile.lastPathComponent)")
}

// Load from a fresh store on the same file: relationships arrive not loaded and load on first use.
let store = try DataStore(fileURL: databaseFile, registry: Models.registry)
let found = try await store.query(Post.self, byIdentifier: Post.Identifier(id: "post-1"))
guard let post = found else {
  expect(false, "post-1 was not found after saving it")
  exit(1)
}
print("post: \(post.title)")

if case .notLoaded(let identifiers) = post._blog.state {
  print("post.blog before loading: not loaded, \(identifiers.map { "\($0.name)=\($0.value)" })")
} else {
  expect(false, "a queried post's blog should not be loaded yet")
}
let blog = try await post.blog
expect(blog?.name == "Lazy loading in Swift", "post.blog loaded \(String(describing: blog?.name))")
print("post.blog after loading: \(blog?.name ?? "nil")")

guard let comments = post.comments else {
  expect(false, "a queried post should carry a (not loaded) comments list")
  exit(1)
}
let contents = try await comments.fetch().map(\.content).sorted()
expect(contents == ["First!", "Nice post"], "post.comments loaded \(contents)")
print("post.comments: \(contents)")

let firstComment = try await comments.fetch()[0]
let commentPost = try await firstComment.post
expect(commentPost?.id == "post-1", "comment.post loaded \(String(describing: commentPost?.id))")
print("comment.post: \(commentPost?.title ?? "nil")")
print("BlogApp: OK")
