import Foundation

/// AWS AppSync temporal scalars (`AWSDate`, `AWSTime`, `AWSDateTime`).
///
/// Each value gives back the exact text it was parsed from (``Temporal/DateTime/iso8601String``),
/// so decoding and encoding give back the same bytes; equality and hashing are by that text.
/// (`DateTime` stores its parts and how they were written in 16 bytes, and writes the text on
/// demand; `Date` and `Time` keep the text.) Ordering
/// is by the moment a value stands for (see each type), with the text breaking ties, so `<` is a
/// strict total order consistent with `==`.
///
/// Formats (AWS AppSync "Scalar types in GraphQL"): ISO 8601 extended; `YYYY` may carry a leading
/// `-` for years before 0000; minutes are required, seconds optional, a fraction of 1 to 9 digits
/// only after seconds; a zone offset is `Z` or `±hh:mm` / `±hh:mm:ss` (hours 00–23, minutes and
/// seconds 00–59), optional for `AWSDate` and `AWSTime`, required for `AWSDateTime`. Letters are
/// upper case (`T`, `Z`). Invalid calendar dates (`2023-02-29`) and times (`24:00`) are rejected.
///
/// Thread-safety: immutable values, `Sendable`.
public enum Temporal {
  /// `AWSDate`: `YYYY-MM-DD`, optionally with a zone offset (`2024-02-29`, `1970-01-01+05:30`).
  ///
  /// Ordered by calendar day (the offset does not move a date), then by text.
  public struct Date: TemporalScalar {
    /// The AWS scalar text, exactly as parsed or written.
    public let iso8601String: String
    /// The year (negative before year 0, proleptic Gregorian).
    public let year: Int
    /// The month, 1–12.
    public let month: Int
    /// The day of the month, 1–31.
    public let day: Int
    /// The zone offset in seconds east of UTC (`+05:30` is `19800`), or `nil` when none is written.
    public let utcOffset: Int?

    /// Parses `text`.
    ///
    /// - Throws: ``TemporalError`` (scalar `AWSDate`) when `text` is not an `AWSDate`.
    public init(iso8601String text: String) throws {
      let (date, offset) = try TemporalParser.parse(text, scalar: "AWSDate") {
        parser throws(TemporalParser.Invalid) in
        let date = try parser.date()
        let offset = try parser.offset()
        try parser.end()
        return (date, offset)
      }
      iso8601String = text
      (year, month, day) = date
      utcOffset = offset
    }

    /// The calendar date of `date` in the zone `utcOffset` seconds east of UTC, written without an
    /// offset when `utcOffset` is `nil` (the UTC date) and with it otherwise.
    ///
    /// - Parameters:
    ///   - date: The instant; it is rounded to the millisecond before its date is taken.
    ///   - utcOffset: Seconds east of UTC (`19800` is `+05:30`), −86,399…86,399, or `nil`.
    /// - Throws: ``TemporalError`` (scalar `AWSDate`, ``TemporalError/text``
    ///   describing `date` and `utcOffset`) when `date` is not finite, when
    ///   its year in that zone is outside −9999…9999, or when `utcOffset` is outside
    ///   −86,399…86,399 (AWS AppSync `AWSDate`: four-digit years, offset hours 00–23).
    public init(_ date: Foundation.Date, utcOffset: Int? = nil) throws(TemporalError) {
      let parts = try TemporalFormat.parts(of: date, utcOffset: utcOffset, scalar: "AWSDate")
      self.init(parts, utcOffset: utcOffset)
    }

    /// The date of `parts` (in range) written with `utcOffset` (in range, or `nil`).
    private init(_ parts: TemporalFormat.Parts, utcOffset: Int?) {
      let text =
        TemporalFormat.date(parts.year, parts.month, parts.day) + TemporalFormat.offset(utcOffset)
      self.init(validText: text, parts.year, parts.month, parts.day, utcOffset)
    }

    /// A date from parts already known to be valid, and their text.
    fileprivate init(
      validText text: String, _ year: Int, _ month: Int, _ day: Int, _ utcOffset: Int?
    ) {
      iso8601String = text
      self.year = year
      self.month = month
      self.day = day
      self.utcOffset = utcOffset
    }

    /// Today's date in UTC, without an offset. (A system clock set outside years −9999…9999 reads
    /// as the nearest end of that range.)
    public static func now() -> Self { Self(TemporalFormat.nowParts(), utcOffset: nil) }

    /// Midnight at the start of this date in its zone (UTC when no offset is written).
    public var foundationDate: Foundation.Date {
      let days = TemporalFormat.daysFromCivil(year, month, day)
      return Foundation.Date(timeIntervalSince1970: Double(days * 86_400 - (utcOffset ?? 0)))
    }

    /// Whether both values have the same text.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.iso8601String == rhs.iso8601String }
    /// Hashes the text.
    public func hash(into hasher: inout Hasher) { hasher.combine(iso8601String) }
    /// Earlier calendar day first; equal days by text.
    public static func < (lhs: Self, rhs: Self) -> Bool {
      let left = (lhs.year, lhs.month, lhs.day)
      let right = (rhs.year, rhs.month, rhs.day)
      return left != right ? left < right : lhs.iso8601String < rhs.iso8601String
    }
  }

  /// `AWSTime`: `hh:mm[:ss[.fffffffff]]`, optionally with a zone offset (`12:30Z`, `12:30:24.5+05:30`).
  ///
  /// Ordered by the moment of the day in UTC (a time without offset counts as UTC), then by text;
  /// `23:00-02:00` sorts after `00:30Z` because it is `01:00` UTC on the following day.
  public struct Time: TemporalScalar {
    /// The AWS scalar text, exactly as parsed or written.
    public let iso8601String: String
    /// The hour, 0–23.
    public let hour: Int
    /// The minute, 0–59.
    public let minute: Int
    /// The second, 0–59 (`0` when not written).
    public let second: Int
    /// The fraction of the second in nanoseconds, 0–999,999,999 (`0` when not written).
    public let nanosecond: Int
    /// The zone offset in seconds east of UTC, or `nil` when none is written.
    public let utcOffset: Int?

    /// Parses `text`.
    ///
    /// - Throws: ``TemporalError`` (scalar `AWSTime`) when `text` is not an `AWSTime`.
    public init(iso8601String text: String) throws {
      let (time, offset) = try TemporalParser.parse(text, scalar: "AWSTime") {
        parser throws(TemporalParser.Invalid) in
        let time = try parser.time()
        let offset = try parser.offset()
        try parser.end()
        return (time, offset)
      }
      iso8601String = text
      (hour, minute, second, nanosecond) = time
      utcOffset = offset
    }

    /// The time of day of `date` in the zone `utcOffset` seconds east of UTC, with milliseconds,
    /// written without an offset when `utcOffset` is `nil` (UTC time of day) and with it otherwise.
    ///
    /// - Parameters:
    ///   - date: The instant; it is rounded to the millisecond.
    ///   - utcOffset: Seconds east of UTC (`-28800` is `-08:00`), −86,399…86,399, or `nil`.
    /// - Throws: ``TemporalError`` (scalar `AWSTime`, ``TemporalError/text``
    ///   describing `date` and `utcOffset`) when `date` is not finite, when
    ///   its year in that zone is outside −9999…9999 (the range of the other AWS temporal scalars,
    ///   so that every `Foundation.Date` this accepts is one `AWSDateTime` can hold too), or when
    ///   `utcOffset` is outside −86,399…86,399 (AWS AppSync `AWSTime`: offset hours 00–23).
    public init(_ date: Foundation.Date, utcOffset: Int? = nil) throws(TemporalError) {
      let parts = try TemporalFormat.parts(of: date, utcOffset: utcOffset, scalar: "AWSTime")
      self.init(parts, utcOffset: utcOffset)
    }

    /// The time of day of `parts` (in range) written with `utcOffset` (in range, or `nil`).
    private init(_ parts: TemporalFormat.Parts, utcOffset: Int?) {
      let text =
        TemporalFormat.time(parts.hour, parts.minute, parts.second, parts.millisecond)
        + TemporalFormat.offset(utcOffset)
      self.init(
        validText: text, parts.hour, parts.minute, parts.second, parts.millisecond * 1_000_000,
        utcOffset)
    }

    /// A time from parts already known to be valid, and their text.
    private init(
      validText text: String, _ hour: Int, _ minute: Int, _ second: Int, _ nanosecond: Int,
      _ utcOffset: Int?
    ) {
      iso8601String = text
      self.hour = hour
      self.minute = minute
      self.second = second
      self.nanosecond = nanosecond
      self.utcOffset = utcOffset
    }

    /// The current UTC time of day, without an offset. (A system clock set outside years
    /// −9999…9999 reads as the nearest end of that range.)
    public static func now() -> Self { Self(TemporalFormat.nowParts(), utcOffset: nil) }

    /// This time on 1970-01-01 in its zone (UTC when no offset is written), rounded to
    /// `Foundation.Date`'s precision.
    public var foundationDate: Foundation.Date {
      Foundation.Date(timeIntervalSince1970: Double(secondsOfDayUTC) + Double(nanosecond) / 1e9)
    }

    /// Seconds since midnight UTC (may be negative or past a day when the offset moves it).
    private var secondsOfDayUTC: Int { hour * 3600 + minute * 60 + second - (utcOffset ?? 0) }

    /// Whether both values have the same text.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.iso8601String == rhs.iso8601String }
    /// Hashes the text.
    public func hash(into hasher: inout Hasher) { hasher.combine(iso8601String) }
    /// Earlier moment (in UTC) first; equal moments by text.
    public static func < (lhs: Self, rhs: Self) -> Bool {
      let left = (lhs.secondsOfDayUTC, lhs.nanosecond)
      let right = (rhs.secondsOfDayUTC, rhs.nanosecond)
      return left != right ? left < right : lhs.iso8601String < rhs.iso8601String
    }
  }

  /// `AWSDateTime`: `YYYY-MM-DDThh:mm[:ss[.fffffffff]]` with `Z` or `±hh:mm[:ss]` (required).
  ///
  /// Ordered by instant, then by text: `2024-01-01T01:00+01:00` and `2024-01-01T00:00Z` are the
  /// same instant but not equal (different text).
  public struct DateTime: TemporalScalar {
    // The parts and how they were written, packed into 16 bytes with no heap text (models hold
    // many of these, and reading a row should not allocate one string per timestamp). The format
    // is strict (fixed digit counts, upper-case letters, a fraction only after seconds), so the
    // parts and ``Form`` give back the exact text: ``iso8601String`` writes it on demand.
    private let packedYear: Int16
    private let packedMonth: UInt8
    private let packedDay: UInt8
    private let packedHour: UInt8
    private let packedMinute: UInt8
    private let packedSecond: UInt8
    private let form: Form
    private let packedNanosecond: UInt32
    private let packedOffset: Int32

    /// How the text was written, beyond the parts' values: bits 0–3 the number of fraction digits
    /// (0–9), or 15 when no seconds are written; bit 4 a `Z` offset; bit 5 an offset with seconds
    /// (`±hh:mm:ss`); bit 6 a `-` offset sign (which `-00:00` needs); bit 7 a `-` year sign (which
    /// `-0000` needs).
    fileprivate struct Form: Hashable, Sendable {
      var rawValue: UInt8

      static let noSeconds: UInt8 = 15
      static let zulu: UInt8 = 1 << 4
      static let offsetSeconds: UInt8 = 1 << 5
      static let negativeOffset: UInt8 = 1 << 6
      static let negativeYear: UInt8 = 1 << 7

      /// `nil` when no seconds are written, else the number of fraction digits (0–9).
      var fractionDigits: Int? {
        let digits = rawValue & 0x0F
        return digits == Self.noSeconds ? nil : Int(digits)
      }
      func has(_ flag: UInt8) -> Bool { rawValue & flag != 0 }
    }

    /// The AWS scalar text, exactly as parsed (or as ``init(_:utcOffset:)`` wrote it).
    public var iso8601String: String {
      String(unsafeUninitializedCapacity: 40) { buffer in
        var position = 0
        func put(_ character: Unicode.Scalar) {
          buffer[position] = UInt8(ascii: character)
          position += 1
        }
        func put(_ value: Int, digits count: Int) {
          var rest = value
          for index in stride(from: position + count - 1, through: position, by: -1) {
            buffer[index] = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
            rest /= 10
          }
          position += count
        }
        if form.has(Form.negativeYear) { put("-") }
        put(abs(Int(packedYear)), digits: 4)
        put("-")
        put(Int(packedMonth), digits: 2)
        put("-")
        put(Int(packedDay), digits: 2)
        put("T")
        put(Int(packedHour), digits: 2)
        put(":")
        put(Int(packedMinute), digits: 2)
        if let fractionDigits = form.fractionDigits {
          put(":")
          put(Int(packedSecond), digits: 2)
          if fractionDigits > 0 {
            put(".")
            var fraction = Int(packedNanosecond)
            for _ in fractionDigits..<9 { fraction /= 10 }
            put(fraction, digits: fractionDigits)
          }
        }
        if form.has(Form.zulu) {
          put("Z")
        } else {
          put(form.has(Form.negativeOffset) ? "-" : "+")
          let magnitude = abs(Int(packedOffset))
          put(magnitude / 3600, digits: 2)
          put(":")
          put(magnitude % 3600 / 60, digits: 2)
          if form.has(Form.offsetSeconds) {
            put(":")
            put(magnitude % 60, digits: 2)
          }
        }
        return position
      }
    }

    /// The date part in the written zone (its `utcOffset` is `nil`), with the date text as written.
    public var date: Temporal.Date {
      let text = iso8601String
      let separator = text.utf8.firstIndex(of: UInt8(ascii: "T")) ?? text.utf8.endIndex
      return Temporal.Date(
        validText: String(text[..<separator]), Int(packedYear), Int(packedMonth),
        Int(packedDay), nil)
    }
    /// The hour, 0–23, in the written zone.
    public var hour: Int { Int(packedHour) }
    /// The minute, 0–59.
    public var minute: Int { Int(packedMinute) }
    /// The second, 0–59 (`0` when not written).
    public var second: Int { Int(packedSecond) }
    /// The fraction of the second in nanoseconds, 0–999,999,999 (`0` when not written).
    public var nanosecond: Int { Int(packedNanosecond) }
    /// The zone offset in seconds east of UTC (`Z` is `0`).
    public var utcOffset: Int { Int(packedOffset) }

    /// Parses `text`.
    ///
    /// - Throws: ``TemporalError`` (scalar `AWSDateTime`) when `text` is not an `AWSDateTime`
    ///   (including when it has no zone offset).
    public init(iso8601String text: String) throws {
      var utf8 = text
      let parsed = utf8.withUTF8 { Self.parse(UnsafeRawBufferPointer($0)) }
      guard let parsed else { throw TemporalError(scalar: "AWSDateTime", text: text) }
      self = parsed
    }

    /// Parses the UTF-8 text `bytes` (read in place, e.g. a column of a database row).
    ///
    /// - Throws: ``TemporalError`` (scalar `AWSDateTime`) when the bytes are not an `AWSDateTime`.
    package init(utf8 bytes: UnsafeRawBufferPointer) throws(TemporalError) {
      guard let parsed = Self.parse(bytes) else {
        throw TemporalError(
          scalar: "AWSDateTime", text: String(decoding: bytes, as: UTF8.self))
      }
      self = parsed
    }

    /// The value `bytes` spell, or `nil` when they are not an `AWSDateTime`.
    private static func parse(_ bytes: UnsafeRawBufferPointer) -> Self? {
      if let common = Self(commonForm: bytes) { return common }
      var parser = TemporalParser(bytes: bytes.assumingMemoryBound(to: UInt8.self))
      do throws(TemporalParser.Invalid) {
        let date = try parser.date()
        try parser.expect("T")
        let time = try parser.time()
        guard let offset = try parser.offset() else { throw TemporalParser.Invalid() }
        try parser.end()
        var form = parser.fractionDigits.map(UInt8.init) ?? Form.noSeconds
        if parser.negativeYear { form |= Form.negativeYear }
        switch parser.offsetForm {
        case .zulu: form |= Form.zulu
        case .hoursMinutes(let negative): form |= negative ? Form.negativeOffset : 0
        case .hoursMinutesSeconds(let negative):
          form |= Form.offsetSeconds | (negative ? Form.negativeOffset : 0)
        }
        return Self(
          year: date.0, month: date.1, day: date.2, hour: time.0, minute: time.1,
          second: time.2, nanosecond: time.3, utcOffset: offset, form: Form(rawValue: form))
      } catch {
        return nil
      }
    }

    /// The instant `date` written in the zone `utcOffset` seconds east of UTC (`0` writes `Z`), with
    /// milliseconds: `DateTime(Date(timeIntervalSince1970: 0))` is `1970-01-01T00:00:00.000Z`.
    ///
    /// - Parameters:
    ///   - date: The instant; it is rounded to the millisecond.
    ///   - utcOffset: Seconds east of UTC (`19800` writes `+05:30`, `-19815` writes `-05:30:15`),
    ///     −86,399…86,399.
    /// - Throws: ``TemporalError`` (scalar `AWSDateTime`, ``TemporalError/text``
    ///   describing `date` and `utcOffset`) when `date` is not finite, when
    ///   its year in that zone is outside −9999…9999, or when `utcOffset` is outside
    ///   −86,399…86,399 (AWS AppSync `AWSDateTime`: four-digit years, offset hours 00–23).
    public init(_ date: Foundation.Date, utcOffset: Int = 0) throws(TemporalError) {
      let parts = try TemporalFormat.parts(of: date, utcOffset: utcOffset, scalar: "AWSDateTime")
      self.init(parts, utcOffset: utcOffset)
    }

    /// The instant of `parts` (in range) written with `utcOffset` (in range).
    private init(_ parts: TemporalFormat.Parts, utcOffset: Int) {
      // The form TemporalFormat.offset writes: `Z` for 0, seconds only when not zero.
      var form: UInt8 = 3
      if parts.year < 0 { form |= Form.negativeYear }
      if utcOffset == 0 { form |= Form.zulu }
      if utcOffset < 0 { form |= Form.negativeOffset }
      if utcOffset % 60 != 0 { form |= Form.offsetSeconds }
      self.init(
        year: parts.year, month: parts.month, day: parts.day, hour: parts.hour,
        minute: parts.minute, second: parts.second, nanosecond: parts.millisecond * 1_000_000,
        utcOffset: utcOffset, form: Form(rawValue: form))
    }

    /// Parses the form this library writes (``init(_:utcOffset:)`` with offset `0`):
    /// `YYYY-MM-DDThh:mm:ss.sssZ`, 24 bytes at fixed positions, read without the general parser.
    /// `nil` for any other text (which the general parser then reads or rejects), so the result is
    /// the same as the general parser's.
    private init?(commonForm bytes: UnsafeRawBufferPointer) {
      guard bytes.count == 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
        bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
        bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "."),
        bytes[23] == UInt8(ascii: "Z")
      else { return nil }
      var valid = true
      func number(_ start: Int, _ count: Int) -> Int {
        var value = 0
        for index in start..<(start + count) {
          let digit = bytes[index] &- UInt8(ascii: "0")
          if digit > 9 { valid = false }
          value = value * 10 + Int(digit)
        }
        return value
      }
      let year = number(0, 4)
      let month = number(5, 2)
      let day = number(8, 2)
      let hour = number(11, 2)
      let minute = number(14, 2)
      let second = number(17, 2)
      let millisecond = number(20, 3)
      guard valid, (1...12).contains(month), day >= 1,
        day <= TemporalFormat.daysInMonth(year, month), hour <= 23, minute <= 59, second <= 59
      else { return nil }
      self.init(
        year: year, month: month, day: day, hour: hour, minute: minute, second: second,
        nanosecond: millisecond * 1_000_000, utcOffset: 0,
        form: Form(rawValue: 3 | Form.zulu))
    }

    /// A value from parts already known to be valid (in range) and how they were written.
    private init(
      year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, nanosecond: Int,
      utcOffset: Int, form: Form
    ) {
      packedYear = Int16(truncatingIfNeeded: year)
      packedMonth = UInt8(truncatingIfNeeded: month)
      packedDay = UInt8(truncatingIfNeeded: day)
      packedHour = UInt8(truncatingIfNeeded: hour)
      packedMinute = UInt8(truncatingIfNeeded: minute)
      packedSecond = UInt8(truncatingIfNeeded: second)
      self.form = form
      packedNanosecond = UInt32(truncatingIfNeeded: nanosecond)
      packedOffset = Int32(truncatingIfNeeded: utcOffset)
    }

    /// The current instant in UTC (`Z`), with milliseconds. (A system clock set outside years
    /// −9999…9999 reads as the nearest end of that range.)
    public static func now() -> Self { Self(TemporalFormat.nowParts(), utcOffset: 0) }

    /// Whole seconds since 1970-01-01T00:00Z.
    public var secondsSince1970: Int {
      TemporalFormat.daysFromCivil(Int(packedYear), Int(packedMonth), Int(packedDay)) * 86_400
        + hour * 3600 + minute * 60 + second - utcOffset
    }

    /// The instant, rounded to `Foundation.Date`'s precision (about a microsecond today).
    public var foundationDate: Foundation.Date {
      Foundation.Date(timeIntervalSince1970: Double(secondsSince1970) + Double(nanosecond) / 1e9)
    }

    /// Whether both values have the same text (compared through the parts and their written form,
    /// which determine the text).
    public static func == (lhs: Self, rhs: Self) -> Bool {
      lhs.packedYear == rhs.packedYear && lhs.packedMonth == rhs.packedMonth
        && lhs.packedDay == rhs.packedDay && lhs.packedHour == rhs.packedHour
        && lhs.packedMinute == rhs.packedMinute && lhs.packedSecond == rhs.packedSecond
        && lhs.form == rhs.form && lhs.packedNanosecond == rhs.packedNanosecond
        && lhs.packedOffset == rhs.packedOffset
    }
    /// Hashes what determines the text (consistent with `==`).
    public func hash(into hasher: inout Hasher) {
      hasher.combine(packedYear)
      hasher.combine(packedMonth)
      hasher.combine(packedDay)
      hasher.combine(packedHour)
      hasher.combine(packedMinute)
      hasher.combine(packedSecond)
      hasher.combine(form)
      hasher.combine(packedNanosecond)
      hasher.combine(packedOffset)
    }
    /// Earlier instant first; the same instant by text.
    public static func < (lhs: Self, rhs: Self) -> Bool {
      let left = (lhs.secondsSince1970, lhs.nanosecond)
      let right = (rhs.secondsSince1970, rhs.nanosecond)
      return left != right ? left < right : lhs.iso8601String < rhs.iso8601String
    }
  }
}

/// A string that is not a valid AWS temporal scalar, or a `Foundation.Date` and zone offset that
/// one cannot hold.
public struct TemporalError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The scalar that was expected (`AWSDate`, `AWSTime`, `AWSDateTime`).
  public let scalar: String
  /// The rejected text; for a `Foundation.Date` rejected by `Temporal.DateTime(_:utcOffset:)`,
  /// `Temporal.Date(_:utcOffset:)` or `Temporal.Time(_:utcOffset:)`, a description of the input:
  /// `"<seconds> s since 1970 at UTC offset <offset> s"`, the seconds (`timeIntervalSince1970`) as
  /// Swift writes a `Double` and the offset as an integer (`"1000000000000.0 s since 1970 at UTC
  /// offset 0 s"`, `"nan s since 1970 at UTC offset 0 s"`), without the ` at UTC offset …` part
  /// when the offset is `nil` (`"-inf s since 1970"`).
  public let text: String

  /// Creates the error.
  public init(scalar: String, text: String) {
    self.scalar = scalar
    self.text = text
  }

  /// The error for a `Foundation.Date` that `scalar` cannot hold at `utcOffset`, whose ``text``
  /// describes the input (the format is documented on ``text``).
  init(scalar: String, date: Foundation.Date, utcOffset: Int?) {
    var text = "\(date.timeIntervalSince1970) s since 1970"
    if let utcOffset { text += " at UTC offset \(utcOffset) s" }
    self.init(scalar: scalar, text: text)
  }

  /// A message naming the scalar and the text.
  public var description: String { "\(String(reflecting: text)) is not a valid \(scalar)" }
}

/// A strict reader of the AWS temporal formats, over the UTF-8 bytes of the text (read in place:
/// no copy of the text is made).
private struct TemporalParser {
  /// The text is not valid; ``parse(_:scalar:_:)`` turns it into a ``TemporalError``.
  struct Invalid: Error {}

  /// How an offset was written (`AWSDateTime` keeps it to give back the exact text).
  enum OffsetForm {
    case zulu
    case hoursMinutes(negative: Bool)
    case hoursMinutesSeconds(negative: Bool)
  }

  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0
  /// Set by ``date()``: whether the year was written with a `-`.
  var negativeYear = false
  /// Set by ``time()``: `nil` when no seconds were written, else the number of fraction digits.
  var fractionDigits: Int?
  /// Set by ``offset()`` when an offset was read.
  var offsetForm = OffsetForm.zulu

  /// Runs `body` over the UTF-8 bytes of `text`.
  ///
  /// - Throws: ``TemporalError`` naming `scalar` and `text` when `body` finds the text invalid.
  static func parse<Result>(
    _ text: String, scalar: String, _ body: (inout TemporalParser) throws(Invalid) -> Result
  ) throws(TemporalError) -> Result {
    var utf8 = text
    let result: Result? = utf8.withUTF8 { bytes in
      var parser = TemporalParser(bytes: bytes)
      return try? body(&parser)
    }
    guard let result else { throw TemporalError(scalar: scalar, text: text) }
    return result
  }

  mutating func expect(_ character: Unicode.Scalar) throws(Invalid) {
    guard take(character) else { throw Invalid() }
  }

  @inline(__always)
  mutating func take(_ character: Unicode.Scalar) -> Bool {
    guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
    position += 1
    return true
  }

  /// The decimal digit at the current position (advancing past it), or `nil`.
  @inline(__always)
  mutating func digit() -> Int? {
    guard position < bytes.count else { return nil }
    let value = bytes[position] &- UInt8(ascii: "0")
    guard value < 10 else { return nil }
    position += 1
    return Int(value)
  }

  mutating func digits(_ count: Int, max: Int) throws(Invalid) -> Int {
    var value = 0
    for _ in 0..<count {
      guard let digit = digit() else { throw Invalid() }
      value = value * 10 + digit
    }
    guard value <= max else { throw Invalid() }
    return value
  }

  /// `[-]YYYY-MM-DD`, a real calendar day.
  mutating func date() throws(Invalid) -> (Int, Int, Int) {
    let negative = take("-")
    negativeYear = negative
    let year = try digits(4, max: 9999) * (negative ? -1 : 1)
    try expect("-")
    let month = try digits(2, max: 12)
    try expect("-")
    let day = try digits(2, max: 31)
    guard month >= 1, day >= 1, day <= TemporalFormat.daysInMonth(year, month) else {
      throw Invalid()
    }
    return (year, month, day)
  }

  /// `hh:mm[:ss[.f{1,9}]]`.
  mutating func time() throws(Invalid) -> (Int, Int, Int, Int) {
    let hour = try digits(2, max: 23)
    try expect(":")
    let minute = try digits(2, max: 59)
    var second = 0
    var nanosecond = 0
    fractionDigits = nil
    if take(":") {
      second = try digits(2, max: 59)
      fractionDigits = 0
      if take(".") {
        var count = 0
        while let digit = digit() {
          guard count < 9 else { throw Invalid() }
          nanosecond = nanosecond * 10 + digit
          count += 1
        }
        guard count > 0 else { throw Invalid() }
        fractionDigits = count
        for _ in count..<9 { nanosecond *= 10 }
      }
    }
    return (hour, minute, second, nanosecond)
  }

  /// `Z`, `±hh:mm` or `±hh:mm:ss` in seconds east of UTC; `nil` at the end of the text.
  mutating func offset() throws(Invalid) -> Int? {
    if position == bytes.count { return nil }
    if take("Z") {
      offsetForm = .zulu
      return 0
    }
    let sign: Int
    if take("+") { sign = 1 } else if take("-") { sign = -1 } else { throw Invalid() }
    let hours = try digits(2, max: 23)
    try expect(":")
    let minutes = try digits(2, max: 59)
    var seconds = 0
    offsetForm = .hoursMinutes(negative: sign < 0)
    if take(":") {
      seconds = try digits(2, max: 59)
      offsetForm = .hoursMinutesSeconds(negative: sign < 0)
    }
    return sign * (hours * 3600 + minutes * 60 + seconds)
  }

  func end() throws(Invalid) {
    guard position == bytes.count else { throw Invalid() }
  }
}

/// Calendar arithmetic (proleptic Gregorian) and text for the temporal types.
enum TemporalFormat {
  static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

  static func daysInMonth(_ year: Int, _ month: Int) -> Int {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 of a civil date (H. Hinnant's `days_from_civil`).
  static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The civil date of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`).
  static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  struct Parts {
    var year, month, day, hour, minute, second, millisecond: Int
  }

  /// The offsets the AWS formats can write, in seconds east of UTC: hours 00–23, so less than a day.
  static let offsetRange = -86_399...86_399

  /// Milliseconds since 1970-01-01T00:00 on a wall clock (any zone) of the first and last moment
  /// of the years the AWS formats can write, −9999…9999 (`-9999-01-01T00:00:00.000` and
  /// `9999-12-31T23:59:59.999`).
  static let wallMillisecondRange =
    daysFromCivil(-9999, 1, 1) * 86_400_000...daysFromCivil(10_000, 1, 1) * 86_400_000 - 1

  /// Beyond this many seconds from 1970 (about 31,700 years) no instant falls in
  /// ``wallMillisecondRange`` at any offset; within it, the milliseconds fit an `Int` (|value| ≤ 1e15).
  private static let secondsBound = 1e12

  /// The wall-clock parts of `date` at `utcOffset` seconds east of UTC (`nil`: UTC), rounded to
  /// milliseconds.
  ///
  /// - Throws: ``TemporalError`` naming `scalar` and describing the input
  ///   (``TemporalError/init(scalar:date:utcOffset:)``) when `date` is not finite, when
  ///   `utcOffset` is outside ``offsetRange``, or when the rounded wall-clock time is outside
  ///   ``wallMillisecondRange``. Nothing traps: the `Double` is bounded before it becomes an `Int`,
  ///   and the offset before it is multiplied.
  static func parts(of date: Foundation.Date, utcOffset: Int?, scalar: String) throws(TemporalError)
    -> Parts
  {
    let offset = utcOffset ?? 0
    let seconds = date.timeIntervalSince1970
    // `abs(nan) <= bound` is false, and so is it for ±infinity.
    guard offsetRange.contains(offset), abs(seconds) <= secondsBound,
      case let milliseconds = Int((seconds * 1000).rounded()) + offset * 1000,
      wallMillisecondRange.contains(milliseconds)
    else {
      throw TemporalError(scalar: scalar, date: date, utcOffset: utcOffset)
    }
    return parts(wallMilliseconds: milliseconds)
  }

  /// The UTC parts of the system clock's current instant. A clock outside years −9999…9999 (which
  /// no working clock is) reads as the nearest end of that range, so ``Temporal/DateTime/now()``
  /// and its siblings need not throw and never write invalid text.
  static func nowParts() -> Parts {
    let seconds = Foundation.Date().timeIntervalSince1970
    let bounded = seconds.isNaN ? 0 : Swift.min(Swift.max(seconds, -secondsBound), secondsBound)
    let milliseconds = Int((bounded * 1000).rounded())
    return parts(
      wallMilliseconds: Swift.min(
        Swift.max(milliseconds, wallMillisecondRange.lowerBound), wallMillisecondRange.upperBound))
  }

  /// The parts of `milliseconds` since 1970-01-01T00:00 on a wall clock.
  private static func parts(wallMilliseconds milliseconds: Int) -> Parts {
    let (seconds, millisecond) = floorDivide(milliseconds, 1000)
    let (days, secondOfDay) = floorDivide(seconds, 86_400)
    let civil = civilFromDays(days)
    return Parts(
      year: civil.year, month: civil.month, day: civil.day, hour: secondOfDay / 3600,
      minute: secondOfDay % 3600 / 60, second: secondOfDay % 60, millisecond: millisecond)
  }

  static func floorDivide(_ value: Int, _ divisor: Int) -> (Int, Int) {
    let remainder = ((value % divisor) + divisor) % divisor
    return ((value - remainder) / divisor, remainder)
  }

  static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(abs(value))
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }

  static func date(_ year: Int, _ month: Int, _ day: Int) -> String {
    (year < 0 ? "-" : "") + pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
  }

  static func time(_ hour: Int, _ minute: Int, _ second: Int, _ millisecond: Int) -> String {
    pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2) + "." + pad(millisecond, 3)
  }

  /// `""` for `nil`, `Z` for `0`, else `±hh:mm` (`±hh:mm:ss` when seconds are not zero).
  static func offset(_ seconds: Int?) -> String {
    guard let seconds else { return "" }
    if seconds == 0 { return "Z" }
    let magnitude = abs(seconds)
    var text =
      (seconds < 0 ? "-" : "+") + pad(magnitude / 3600, 2) + ":" + pad(magnitude % 3600 / 60, 2)
    if magnitude % 60 != 0 { text += ":" + pad(magnitude % 60, 2) }
    return text
  }
}

/// What `Temporal.Date`, `Temporal.Time` and `Temporal.DateTime` share: an AWS scalar whose
/// identity is its exact text. The text is its key value (``KeyValue/string(_:)``), its JSON form
/// (a string) and its description; its keys filter it as text (``StringFilterable``).
public protocol TemporalScalar: Hashable, Sendable, Codable, Comparable, StringFilterable,
  CustomStringConvertible
{
  /// The AWS scalar text, exactly as parsed or written.
  var iso8601String: String { get }
  /// Parses `text`. - Throws: ``TemporalError`` when `text` is not this scalar.
  init(iso8601String text: String) throws
}

extension TemporalScalar {
  /// The text.
  public var description: String { iso8601String }
  /// The text as ``KeyValue/string(_:)``.
  public var keyValue: KeyValue { .string(iso8601String) }
  /// The value in a ``KeyValue/string(_:)``, or `nil` when it is not valid text for this scalar.
  public init?(keyValue: KeyValue) {
    guard case .string(let text) = keyValue, let value = try? Self(iso8601String: text) else {
      return nil
    }
    self = value
  }
  /// Decodes a JSON string. - Throws: ``TemporalError`` or `DecodingError`.
  public init(from decoder: any Decoder) throws {
    try self.init(iso8601String: try decoder.singleValueContainer().decode(String.self))
  }
  /// Encodes the text as a JSON string.
  public func encode(to encoder: any Encoder) throws {
    var single = encoder.singleValueContainer()
    try single.encode(iso8601String)
  }
}
