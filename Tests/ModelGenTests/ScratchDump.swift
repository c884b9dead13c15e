import Foundation
import Testing
@testable import ModelGen

@Test func scratchDump() throws {
  let generator = Generator(options: GeneratorOptions(templates: try TemplateLibrary.defaults()))
  let files = try generator.render(RenderingFixtures.seed)
  try? FileManager.default.createDirectory(atPath: "/tmp/scratch", withIntermediateDirectories: true)
  for file in files { try file.contents.write(toFile: "/tmp/scratch/" + file.path, atomically: true, encoding: .utf8) }
  #expect(files.count == 7)
}
