import Testing

@Suite("Golden files: line diff")
struct LineDiffTests {
  @Test func showsChangesWithContext() {
    let diff = LineDiff.render(
      expected: "a\nb\nc\nd\ne\nf\ng\n", actual: "a\nb\nc\nD\ne\nf\ng\nh\n", context: 1)
    #expect(diff == "...\n c\n-d\n+D\n e\n...\n g\n+h\n ")
  }
}
