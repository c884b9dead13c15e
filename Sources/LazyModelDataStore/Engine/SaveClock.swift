import Foundation
import LazyModel

/// The instants a write transaction's saves record in `createdAt`/`updatedAt`: one per save, as
/// Amplify DataStore stamps each `save` with its own time.
///
/// Each ``next()`` reads the system clock in whole milliseconds (the precision of the stored
/// `AWSDateTime` text, `YYYY-MM-DDThh:mm:ss.sssZ`, UTC). Within one transaction the instants never
/// decrease: saves in the same millisecond share its text, and a clock that steps back (NTP) repeats
/// the transaction's latest instant until it passes it again. So saves made later in a transaction
/// never carry an earlier time, and equal times mean "within the same millisecond".
///
/// The text of a millisecond is formatted once and reused while the clock stays in it, so stamping
/// 10,000 saves of one transaction formats only as many texts as milliseconds go by.
///
/// Thread-safety: not thread-safe; owned by one ``WriteTransaction`` on the writer's queue.
final class SaveClock {
  /// Set by the sync engine's writes of remote records: a timestamp the model holds is kept (the
  /// server's), only a nil one is stamped.
  var keepsGivenTimestamps = false
  private var lastMilliseconds = Int.min
  private var lastText = ""

  /// The instant of one save, as `AWSDateTime` text (UTC, milliseconds).
  func next() -> String {
    let milliseconds = Int((Date().timeIntervalSince1970 * 1000).rounded(.down))
    guard milliseconds > lastMilliseconds else { return lastText }
    lastMilliseconds = milliseconds
    let instant = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    // `Temporal.DateTime` writes the same `YYYY-MM-DDThh:mm:ss.sssZ` text from the date's parts,
    // without Foundation's `ISO8601FormatStyle`. A clock outside years −9999…9999, which that type
    // cannot write, falls back to Foundation's formatter.
    lastText =
      (try? Temporal.DateTime(instant).iso8601String)
      ?? instant.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    return lastText
  }
}
