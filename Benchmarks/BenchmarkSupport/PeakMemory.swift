import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the process's resident memory for benchmarks: the current resident set (VmRSS) and its
/// high-water mark (VmHWM) from `/proc/self/status` on Linux, or `getrusage` elsewhere.
///
/// Values are bytes. Not thread-safe in the sense that other threads' allocations are included;
/// benchmarks call it from their single main thread.
public enum PeakMemory {
  /// The peak resident set size of the process so far, in bytes (VmHWM, or `ru_maxrss`).
  public static func peakResidentBytes() -> Int {
    if let value = procStatus("VmHWM:") { return value }
    var usage = rusage()
    #if canImport(Darwin)
      guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
      return Int(usage.ru_maxrss)  // bytes on Darwin
    #else
      guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
      return Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
    #endif
  }

  /// The current resident set size in bytes (VmRSS), or `nil` where `/proc` is unavailable.
  public static func currentResidentBytes() -> Int? { procStatus("VmRSS:") }

  /// Resets the peak (VmHWM) to the current resident size by writing `5` to
  /// `/proc/self/clear_refs` (Linux 4.0+), so that a later ``peakResidentBytes()`` measures only
  /// what follows. Returns `false` where that is not possible; the peak then covers the whole run.
  @discardableResult
  public static func resetPeak() -> Bool {
    let descriptor = open("/proc/self/clear_refs", O_WRONLY)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    let written = "5".withCString { write(descriptor, $0, 1) }
    return written == 1
  }

  /// The `kB` value of the line starting with `key` in `/proc/self/status`, in bytes.
  private static func procStatus(_ key: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix(key) {
      let digits = line.dropFirst(key.count).filter(\.isNumber)
      if let kilobytes = Int(digits) { return kilobytes * 1024 }
    }
    return nil
  }
}

/// Formatting helpers for benchmark tables.
public enum BenchmarkFormat {
  /// `bytes` in megabytes (10^6) with `decimals` decimals, for example `5.12 MB`.
  public static func megabytes(_ bytes: Int, decimals: Int = 2) -> String {
    String(format: "%.\(decimals)f MB", Double(bytes) / 1_000_000)
  }

  /// `seconds` in milliseconds with two decimals, for example `41.20 ms`.
  public static func milliseconds(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1000) }

  /// A markdown table with a header row; columns padded to their widest cell.
  public static func table(_ header: [String], _ rows: [[String]]) -> String {
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    func line(_ cells: [String]) -> String {
      "| "
        + cells.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(
          separator: " | ")
        + " |"
    }
    let rule = "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"
    return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
  }
}
