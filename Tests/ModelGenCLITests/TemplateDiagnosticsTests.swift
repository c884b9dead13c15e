import Foundation
import Testing

/// Issue 17 for templates: a user's broken `--templates DIR/*.mustache` is reported like every
/// other input error, at `DIR/name.mustache:line:col` (the tag's `{{`), with a stable code
/// (`MGC029` does not compile, `MGC030` fails while rendering a file) and a hint line that says
/// what to do. Every case runs the real binary (`SpawnedRun`) in a temporary directory with a
/// relative `--templates T`, and pins everything it prints; nothing is written.
@Suite("CLI template diagnostics (spawned binary)")
struct TemplateDiagnosticsTests {
  let schema = "enum Color { RED }\n"
  let noFiles = "error: no files written\n"

  /// Runs `modelgen generate s.graphql --output Out --templates T` with `templates` in `T/`.
  private func generate(_ templates: [String: String]) async throws -> (SpawnedRun, TemporaryDirectory) {
    let directory = try TemporaryDirectory()
    try directory.write("s.graphql", schema)
    for (name, text) in templates { try directory.write("T/\(name)", text) }
    let run = try await SpawnedRun.spawn(
      ["generate", "s.graphql", "--output", "Out", "--templates", "T"], in: directory.path)
    #expect(!run.timedOut)
    #expect(!FileManager.default.fileExists(atPath: directory.url("Out")))
    return (run, directory)
  }

  @Test func aSectionNeverClosedIsReportedAtItsOpeningTagWithTheClosingTagToWrite() async throws {
    let (run, _) = try await generate(["enum.mustache": "{{> header}}\nok\n  {{#cases}}\n"])
    #expect(run.status == 64)
    #expect(
      run.errors
        == "T/enum.mustache:3:3: error: section 'cases' is never closed [MGC029]\n"
        + "  hint: close it with '{{/cases}}'\n" + noFiles)
  }

  @Test func aMismatchedClosingTagNamesTheSectionToCloseFirst() async throws {
    let (run, _) = try await generate(["enum.mustache": "{{#cases}}\n{{#docLines}}\nx {{/cases}}\n"])
    #expect(run.status == 64)
    #expect(
      run.errors
        == "T/enum.mustache:3:3: error: closing tag 'cases' does not match section 'docLines' opened on line 2 [MGC029]\n"
        + "  hint: close 'docLines' first with '{{/docLines}}' (sections close innermost first)\n"
        + noFiles)
  }

  @Test func anUnterminatedTagIsReportedAtItsBraces() async throws {
    let (run, _) = try await generate(["enum.mustache": "enum {{typeName\n"])
    #expect(run.status == 64)
    #expect(
      run.errors
        == "T/enum.mustache:1:6: error: unterminated tag: expected '}}' on the same line [MGC029]\n"
        + "  hint: end the tag with '}}' on this line (a tag cannot span lines)\n" + noFiles)
  }

  @Test func anUnknownPartialSuggestsTheClosestTemplate() async throws {
    let (run, _) = try await generate(["enum.mustache": "x\n  {{> headr}}\n"])
    #expect(run.status == 64)
    #expect(
      run.errors
        == "T/enum.mustache:2:3: error: unknown partial 'headr' [MGC029]\n"
        + "  hint: did you mean '{{> header}}'?\n" + noFiles)
  }

  @Test func anUnknownPartialFarFromEveryTemplateListsThem() async throws {
    let (run, _) = try await generate(["enum.mustache": "{{> footer_block}}\n"])
    #expect(run.status == 64)
    #expect(
      run.errors
        == "T/enum.mustache:1:1: error: unknown partial 'footer_block' [MGC029]\n"
        + "  hint: add footer_block.mustache to the templates directory, or include one of the "
        + "templates: embedded, enum, header, model, registry, schema\n" + noFiles)
  }

  @Test func aRecursivePartialSaysWhichTagToRemove() async throws {
    let (run, _) = try await generate(["model.mustache": "{{> header}}\n{{> model}}\n"])
    #expect(run.status == 64)
    #expect(
      run.errors
        == "T/model.mustache:2:1: error: recursive partial 'model' (model → model) [MGC029]\n"
        + "  hint: remove '{{> model}}' here: a partial cannot include itself, directly or through "
        + "other partials\n" + noFiles)
  }

  @Test func aMisspelledValueIsARenderErrorWithDidYouMean() async throws {
    let (run, _) = try await generate(["enum.mustache": "{{> header}}\nenum {{typeNmae}} {}\n"])
    #expect(run.status == 64)
    #expect(
      run.errors
        == "T/enum.mustache:2:6: error: no value named 'typeNmae' (while rendering Color.swift) [MGC030]\n"
        + "  hint: did you mean 'typeName'?\n" + noFiles)
  }

  @Test func aMisspelledValueInAPartialIsReportedInThePartial() async throws {
    let (run, _) = try await generate([
      "header.mustache": "// from {{sourceFileNam}}\n", "enum.mustache": "{{> header}}\n",
    ])
    #expect(run.status == 64)
    #expect(
      run.errors
        == "T/header.mustache:1:9: error: no value named 'sourceFileNam' (while rendering Color.swift) [MGC030]\n"
        + "  hint: did you mean 'sourceFileName'?\n" + noFiles)
  }

  @Test func placingAListSaysToUseASection() async throws {
    let (run, _) = try await generate(["enum.mustache": "{{> header}}\n// {{cases}}\n"])
    #expect(run.status == 64)
    #expect(
      run.errors
        == "T/enum.mustache:2:4: error: 'cases' is a list or an object: use a section to enter it (while rendering Color.swift) [MGC030]\n"
        + "  hint: write '{{#cases}}…{{/cases}}' and place its members inside, or place one member "
        + "('{{cases.member}}')\n" + noFiles)
  }
}
