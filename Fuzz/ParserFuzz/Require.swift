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
/// text only through `DiagnosticText.shortened` (80 scalars).
func isOneBoundedLine(_ message: String) -> Bool {
  var message = message
  return message.withUTF8 { bytes in
    bytes.count < 1_000 && !bytes.contains { $0 == 0x0A || $0 == 0x0D }
  }
}
