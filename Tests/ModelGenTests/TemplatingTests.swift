import Testing

@testable import ModelGen
@testable import ModelGenAPISchema
@testable import ModelGenIR
@testable import ModelGenSwift
@testable import ModelGenTemplating

@Suite("Templating")
struct TemplatingTests {
  private func render(_ source: String, _ value: TemplateValue, partials: [String: String] = [:])
    throws -> String
  {
    var sources = partials
    sources["main"] = source
    return try TemplateSet(sources: sources).render("main", value)
  }

  @Test func variablesAreReplacedWithoutHTMLEscaping() throws {
    let output = try render(
      "let x: {{type}} = {{{value}}} {{& value}}\n",
      ["type": "[String: Int]", "value": "a < b && \"c\""])
    #expect(output == "let x: [String: Int] = a < b && \"c\" a < b && \"c\"\n")
  }

  @Test func dottedNamesAndTheImplicitIterator() throws {
    let output = try render(
      "{{a.b.c}}|{{#list}}<{{.}}>{{/list}}", ["a": ["b": ["c": "deep"]], "list": ["x", "y"]])
    #expect(output == "deep|<x><y>")
  }

  @Test func sectionsFollowSpecTruthiness() throws {
    let value: TemplateValue = [
      "yes": true, "no": false, "none": .null, "empty": [], "text": "", "object": ["k": "v"],
    ]
    let output = try render(
      "{{#yes}}Y{{/yes}}{{#no}}N{{/no}}{{#none}}0{{/none}}{{#empty}}E{{/empty}}{{#text}}T{{/text}}{{#object}}{{k}}{{/object}}",
      value)
    #expect(output == "YTv")
  }

  @Test func invertedSectionsRenderForFalseyValues() throws {
    let output = try render(
      "{{^no}}a{{/no}}{{^empty}}b{{/empty}}{{^yes}}c{{/yes}}",
      ["no": false, "empty": [], "yes": true])
    #expect(output == "ab")
  }

  @Test func innerContextsShadowOuterOnesAndOuterNamesStayVisible() throws {
    let value: TemplateValue = ["name": "outer", "access": "public", "items": [["name": "inner"]]]
    #expect(
      try render("{{#items}}{{access}} {{name}}{{/items}} {{name}}", value) == "public inner outer")
  }

  @Test func standaloneTagLinesAreRemoved() throws {
    let source = """
      struct S {
        {{! a comment line }}
      {{#items}}
        let {{.}}: Int
      {{/items}}
      {{^items}}
        // none
      {{/items}}
      }

      """
    #expect(
      try render(source, ["items": ["a", "b"]]) == "struct S {\n  let a: Int\n  let b: Int\n}\n")
    #expect(try render(source, ["items": []]) == "struct S {\n  // none\n}\n")
  }

  @Test func inlineSectionTagsKeepTheirLine() throws {
    #expect(try render("  a{{#x}}b{{/x}}c\n", ["x": true]) == "  abc\n")
  }

  @Test func standalonePartialsAreIndentedLikeTheirTag() throws {
    let output = try render(
      "struct S {\n  {{> body}}\n}\n", ["name": "x"],
      partials: ["body": "let {{name}} = 1\n\nvar y = 2\n"])
    #expect(output == "struct S {\n  let x = 1\n\n  var y = 2\n}\n")
  }

  @Test func unknownNamesAreErrorsWithTemplateNameAndLine() throws {
    #expect(
      throws: TemplateError(
        templateName: "main", line: 2, column: 9, message: "no value named 'nmae'",
        hint: "did you mean 'name'?")
    ) {
      try render("ok\nlet x = {{nmae}}\n", ["name": "x"])
    }
    #expect(
      throws: TemplateError(
        templateName: "main", line: 1, column: 1, message: "no value named 'a.missing'",
        hint: "the names here are: b")
    ) {
      try render("{{a.missing}}", ["a": ["b": "c"]])
    }
    // A name far from every name: the hint lists the names of every context on the stack.
    #expect(
      throws: TemplateError(
        templateName: "main", line: 1, column: 11, message: "no value named 'zzzzzz'",
        hint: "the names here are: items, label, name")
    ) {
      try render("{{#items}}{{zzzzzz}}{{/items}}", ["name": "x", "items": [["label": "l"]]])
    }
  }

  @Test func anErrorPrintsItsLocationMessageAndHint() throws {
    let error = TemplateError(
      templateName: "model", line: 12, column: 5, message: "no value named 'x'", hint: "did you mean 'y'?")
    #expect(error.description == "model.mustache:12:5: error: no value named 'x'\n  hint: did you mean 'y'?")
    #expect(
      throws: TemplateError(
        templateName: "nope", line: 0, column: nil, message: "no template named 'nope'",
        hint: "render one of the templates: main")
    ) { try TemplateSet(sources: ["main": "x"]).render("nope", .null) }
    let missing = TemplateError(
      templateName: "nope", line: 0, column: nil, message: "no template named 'nope'", hint: "h")
    #expect(missing.location == "nope.mustache")
  }

  @Test func columnsCountUnicodeScalarsToTheTagsBraces() throws {
    #expect(
      throws: TemplateError(
        templateName: "t", line: 2, column: 4,
        message: "unterminated tag: expected '}}' on the same line",
        hint: "end the tag with '}}' on this line (a tag cannot span lines)")
    ) { try Template(name: "t", source: "x\né\t {{name\n}}") }
  }

  @Test func structuralErrorsNameTheLine() throws {
    #expect(
      throws: TemplateError(
        templateName: "t", line: 1, column: 3, message: "section 'a' is never closed",
        hint: "close it with '{{/a}}'")
    ) { try Template(name: "t", source: "  {{#a}}\nx\n") }
    #expect(
      throws: TemplateError(
        templateName: "t", line: 3, column: 1,
        message: "closing tag 'b' does not match section 'a' opened on line 1",
        hint: "close 'a' first with '{{/a}}' (sections close innermost first)")
    ) { try Template(name: "t", source: "{{#a}}\nx\n{{/b}}\n") }
    #expect(
      throws: TemplateError(
        templateName: "t", line: 2, column: 2, message: "closing tag 'a' has no open section",
        hint: "remove '{{/a}}', or open the section before it with '{{#a}}'")
    ) {
      try Template(name: "t", source: "x\n {{/a}}")
    }
    #expect(
      throws: TemplateError(
        templateName: "t", line: 1, column: 1,
        message: "unterminated tag: expected '}}}' on the same line",
        hint: "end the tag with '}}}' on this line (a tag cannot span lines)")
    ) { try Template(name: "t", source: "{{{name}}\n") }
    #expect(
      throws: TemplateError(
        templateName: "t", line: 1, column: 4, message: "empty tag name",
        hint: "name a value in the tag ('{{name}}', '{{#name}}'), or remove it")
    ) {
      try Template(name: "t", source: "ab {{ }}")
    }
    #expect(
      throws: TemplateError(
        templateName: "t", line: 1, column: 1, message: "set-delimiter tags are not supported",
        hint: "remove the tag: templates always use '{{' and '}}'")
    ) {
      try Template(name: "t", source: "{{=<% %>=}}")
    }
  }

  @Test func unknownPartialsAreRejectedWhenTheSetIsBuilt() throws {
    #expect(
      throws: TemplateError(
        templateName: "main", line: 2, column: 1, message: "unknown partial 'missing'",
        hint: "add missing.mustache to the templates directory, or include one of the templates: main")
    ) {
      try TemplateSet(sources: ["main": "a\n{{> missing}}\n"])
    }
    #expect(
      throws: TemplateError(
        templateName: "main", line: 1, column: 3, message: "unknown partial 'headr'",
        hint: "did you mean '{{> header}}'?")
    ) {
      try TemplateSet(sources: ["main": "  {{> headr}}\n", "header": "h\n"])
    }
  }

  @Test func placingAListIsAnError() throws {
    #expect(
      throws: TemplateError(
        templateName: "main", line: 1, column: 1,
        message: "'items' is a list or an object: use a section to enter it",
        hint: "write '{{#items}}…{{/items}}' and place its members inside, or place one member "
          + "('{{items.member}}')")
    ) { try render("{{items}}", ["items": ["a"]]) }
  }

  @Test func theDefaultTemplatesCompile() throws {
    let set = try TemplateLibrary.defaults()
    #expect(Set(set.templates.keys) == Set(TemplateLibrary.names))
  }
}

@Suite("Templating: partial recursion")
struct TemplatingRecursionTests {
  @Test func aPartialIncludingItselfIsRejected() {
    #expect(
      throws: TemplateError(
        templateName: "model", line: 2, column: 1, message: "recursive partial 'model' (model → model)",
        hint: "remove '{{> model}}' here: a partial cannot include itself, directly or through other partials")
    ) { try TemplateSet(sources: ["model": "a\n{{> model}}\n"]) }
  }

  @Test func aCycleInsideASectionIsRejectedOnTheTagThatClosesIt() {
    // Templates are walked in name order: from `enum`, the tag in `header` closes the cycle.
    #expect(
      throws: TemplateError(
        templateName: "header", line: 2, column: 1,
        message: "recursive partial 'enum' (enum → header → enum)",
        hint: "remove '{{> enum}}' here: a partial cannot include itself, directly or through other partials")
    ) {
      try TemplateSet(sources: [
        "header": "{{#cases}}\n{{> enum}}\n{{/cases}}\n", "enum": "x\n{{> header}}\n",
      ])
    }
  }

  @Test func partialChainsAreBoundedInDepth() throws {
    var sources: [String: String] = [:]
    for level in 0..<TemplateSet.maximumPartialDepth { sources["p\(level)"] = "{{> p\(level + 1)}}\n" }
    sources["p\(TemplateSet.maximumPartialDepth)"] = "end\n"
    #expect(throws: TemplateError.self) { try TemplateSet(sources: sources) }

    var shallow: [String: String] = [:]
    for level in 0..<(TemplateSet.maximumPartialDepth - 1) {
      shallow["p\(level)"] = "{{> p\(level + 1)}}\n"
    }
    shallow["p\(TemplateSet.maximumPartialDepth - 1)"] = "end\n"
    #expect(try TemplateSet(sources: shallow).render("p0", .object([:])) == "end\n")
  }

  @Test func sharedPartialsAreFineAndCheckedOnce() throws {
    // A ladder where every step includes the next one twice: 2^30 paths, 31 templates.
    var sources: [String: String] = [:]
    for level in 0..<30 { sources["s\(level)"] = "{{> s\(level + 1)}}{{> s\(level + 1)}}\n" }
    sources["s30"] = "x"
    let set = try TemplateSet(sources: sources)
    #expect(try set.render("s28", .object([:])) == "xx\nxx\n\n")
  }
}
