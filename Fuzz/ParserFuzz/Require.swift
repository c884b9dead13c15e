import GraphQLSDL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Traps with `message` on standard error when `condition` is false (`precondition` drops its
/// message in optimised builds; libFuzzer then saves the input that broke the property).
@inline(never)
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
  guard !condition else { return }
  let text = Array("fuzz property violated: \(message())\n".utf8)
  _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  abort()
}

/// `true` when `message` has no line break and fewer than 1,000 UTF-8 bytes: a message quotes user
/// text only through `DiagnosticText.shortened` (80 scalars). Searches with the C library's
/// `memchr`, which the fuzzer does not instrument: a Swift loop here would call the fuzzer's
/// comparison hooks for every byte of every message, a cost of the harness, not of the code under
/// test.
func isOneBoundedLine(_ message: String) -> Bool {
  var message = message
  return message.withUTF8 { bytes in
    guard bytes.count < 1_000 else { return false }
    guard let base = bytes.baseAddress else { return true }
    return memchr(base, 0x0A, bytes.count) == nil && memchr(base, 0x0D, bytes.count) == nil
  }
}

/// Checks what must hold for the diagnostics of any input of `inputCount` bytes: at most
/// `DiagnosticBudget.defaultLimit` plus one `SDL099`; every range inside the input, start before
/// end; every message one bounded line (``isOneBoundedLine(_:)``). Reads the fields in place (a
/// `for diagnostic in diagnostics` loop would copy every diagnostic, a cost of the harness, not of
/// the code under test).
/// - Returns: `true` when a diagnostic is an error.
func checkDiagnostics(_ diagnostics: [Diagnostic], inputCount: Int) -> Bool {
  require(diagnostics.count <= DiagnosticBudget.defaultLimit + 1, "diagnostics budget exceeded")
  var hasErrors = false
  for index in diagnostics.indices {
    let range = diagnostics[index].range
    require(range.start.offset <= range.end.offset, "range ends before it starts")
    require(range.end.offset <= inputCount, "range past the end of the input")
    require(isOneBoundedLine(diagnostics[index].message), "message spans lines or quotes unbounded text")
    if diagnostics[index].severity == .error { hasErrors = true }
  }
  return hasErrors
}
