import DescriptionsModels
import Foundation
import LazyModel
import RegressionSchemaWithoutModels
import RegressionTypeNamesShadowStandardTypes
import Testing

/// Issue 17, names and descriptions: the renamed types of `type-names-shadow-standard-types`
/// compile beside the standard types they would have shadowed and keep their GraphQL names on
/// the wire; a schema without models has an empty registry; descriptions are doc comments that
/// inject nothing (the module compiles, and its text holds the escaped lines).
@Suite("Generated: Swift names and descriptions")
struct NamesAndDescriptionsTests {
  @Test func renamedTypesLeaveTheStandardTypesUsable() async throws {
    // `Task`, `Result`, `URL` and `UUID` still name the standard types in a module importing the models.
    let task: Task<Int, Never> = Task { 42 }
    #expect(await task.value == 42)
    let result: Result<Int, any Error> = .success(1)
    #expect(try result.get() == 1)
    #expect(URL(string: "https://example.com")?.host == "example.com")
    #expect(UUID(uuidString: "00000000-0000-0000-0000-000000000000") != nil)

    let todo = TaskType(id: "t1", title: "Write", status: .failed, link: URLType(host: "example.com", path: "/a"))
    let json = try JSON.object(try JSON.encode(todo))
    #expect(json["status"] as? String == "FAILED")
    #expect((json["link"] as? NSDictionary)?["host"] as? String == "example.com")
    let decoded = try JSON.decode(TaskType.self, try JSON.encode(todo))
    #expect(decoded.status == .failed)
    #expect(decoded.link == URLType(host: "example.com", path: "/a"))
    #expect(TaskType.schema.name == "Task")
    #expect(TemporalType.schema.name == "Temporal")
    #expect(URLType.schema.name == "URL")
    #expect(ResultType.ok.rawValue == "OK")
  }

  @Test func theUserTypeKeepsItsNameAndTheRenamedOneGetsTheNextSuffix() {
    #expect(UUIDType.schema.name == "UUIDType")
    #expect(UUIDType2.schema.name == "UUID")
    let registry = RegressionTypeNamesShadowStandardTypes.Models.registry
    #expect(registry.model(named: "UUID").map(ObjectIdentifier.init) == ObjectIdentifier(UUIDType2.self))
    #expect(registry.model(named: "UUIDType").map(ObjectIdentifier.init) == ObjectIdentifier(UUIDType.self))
    #expect(registry.models.count == 8)
  }

  @Test func aSchemaWithoutModelsHasAnEmptyRegistry() throws {
    #expect(RegressionSchemaWithoutModels.Models.registry.models.isEmpty)
    #expect(RegressionSchemaWithoutModels.Models.runtimeVersion == LazyModelRuntimeVersion.v2)
    let note = Note(text: "hi", level: .high)
    #expect(try JSON.object(try JSON.encode(note))["level"] as? String == "HIGH")
  }

  @Test func descriptionsAreEscapedDocComments() throws {
    let post = Post(id: "p", title: "T", body: "B", status: .published)
    #expect(post.title == "T")
    #expect(Status.published.rawValue == "PUBLISHED")
    #expect(Place(name: "here").name == "here")
    let generated = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../Generated/descriptions").standardized
    let text = try String(contentsOf: generated.appendingPathComponent("Post.swift"), encoding: .utf8)
    #expect(
      text.contains(
        """
        /// A blog post.
        ///
        /// Written by one author; see `Comment`.
        public struct Post: Model {
          /// The identifier.
          public let id: String
          /// The title.
          /// *\\/ } struct Injected {
          /// #if false
          /// }
          public var title: String
          /// Ends the comment? *\\/ no: \\u{0} nul, tab\\t, \\\\ backslash /\\* open
          public var body: String?
        """))
    let comment = try String(contentsOf: generated.appendingPathComponent("Comment.swift"), encoding: .utf8)
    #expect(comment.contains("  /// The post it belongs to.\n  public var post: Post? {\n"))
    #expect(comment.contains("  /// The text.\n  /// #endif\n  /// }\n  public var content: String?\n"))
    let status = try String(contentsOf: generated.appendingPathComponent("Status.swift"), encoding: .utf8)
    #expect(status.contains("/// A publication state.\npublic enum Status"))
    #expect(status.contains("  /// Visible to everyone.\n  case published = \"PUBLISHED\"\n"))
    // No line outside a comment holds description text.
    for file in [text, comment, status] {
      for line in file.split(separator: "\n")
      where line.contains("Injected") || line.contains("#if") || line.contains("#endif") {
        #expect(line.trimmingCharacters(in: .whitespaces).hasPrefix("///"), "\(line)")
      }
    }
  }
}
