import Foundation
import LazyModel
import Testing

@Suite struct TemporalTests {
  @Test(
    arguments: [
      ("2024-02-29", 2024, 2, 29, nil),
      ("1970-01-01Z", 1970, 1, 1, 0),
      ("1970-01-01-07:00", 1970, 1, 1, -25_200),
      ("1970-01-01+05:30", 1970, 1, 1, 19_800),
      ("2000-12-31+05:30:15", 2000, 12, 31, 19_815),
      ("-0044-03-15", -44, 3, 15, nil),
      ("0000-01-01", 0, 1, 1, nil),
    ] as [(String, Int, Int, Int, Int?)])
  func validDates(text: String, year: Int, month: Int, day: Int, offset: Int?) throws {
    let date = try Temporal.Date(iso8601String: text)
    #expect(date.iso8601String == text)
    #expect(date.year == year && date.month == month && date.day == day)
    #expect(date.utcOffset == offset)
  }

  @Test(arguments: [
    "2023-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "24-01-01", "2024-1-01", "2024/01/01",
    "2024-01-01T00:00Z", "2024-01-01+0530", "2024-01-01+24:00", "2024-01-01z", "", " 2024-01-01",
    "2024-01-01 ", "２０２４-01-01",
  ])
  func invalidDates(text: String) {
    #expect(throws: TemporalError(scalar: "AWSDate", text: text)) {
      try Temporal.Date(iso8601String: text)
    }
  }

  @Test(
    arguments: [
      ("12:30", 12, 30, 0, 0, nil),
      ("12:30Z", 12, 30, 0, 0, 0),
      ("12:30:24-07:00", 12, 30, 24, 0, -25_200),
      ("12:30:24.500+05:30", 12, 30, 24, 500_000_000, 19_800),
      ("23:59:59.123456789", 23, 59, 59, 123_456_789, nil),
      ("00:00:00.2", 0, 0, 0, 200_000_000, nil),
    ] as [(String, Int, Int, Int, Int, Int?)])
  func validTimes(text: String, hour: Int, minute: Int, second: Int, nanosecond: Int, offset: Int?)
    throws
  {
    let time = try Temporal.Time(iso8601String: text)
    #expect(time.iso8601String == text)
    #expect(time.hour == hour && time.minute == minute && time.second == second)
    #expect(time.nanosecond == nanosecond && time.utcOffset == offset)
  }

  @Test(arguments: [
    "24:00", "12:60", "12:30:60", "12", "12:3", "12:30.5", "12:30:24.", "12:30:24.1234567890",
    "12:30:24,5", "12:30+5:30", "12:30 Z", "T12:30",
  ])
  func invalidTimes(text: String) {
    #expect(throws: TemporalError(scalar: "AWSTime", text: text)) {
      try Temporal.Time(iso8601String: text)
    }
  }

  @Test(
    arguments: [
      ("1970-01-01T00:00Z", 0, 0),
      ("1970-01-01T12:00:00.2Z", 43_200, 200_000_000),
      ("1970-01-01T12:00:00.123456789Z", 43_200, 123_456_789),
      ("2024-02-29T23:59:59+01:00", 1_709_247_599, 0),
      ("1969-12-31T23:59:59.999Z", -1, 999_000_000),
      ("2000-01-01T00:00:00-00:00:30", 946_684_830, 0),
      ("-2017-01-01T00:00Z", -125_817_580_800, 0),
    ] as [(String, Int, Int)])
  func validDateTimes(text: String, seconds: Int, nanosecond: Int) throws {
    let value = try Temporal.DateTime(iso8601String: text)
    #expect(value.iso8601String == text)
    #expect(value.secondsSince1970 == seconds)
    #expect(value.nanosecond == nanosecond)
  }

  @Test(arguments: [
    "2024-01-01T00:00", "2024-01-01T00:00:00", "2024-01-01 00:00Z", "2024-01-01t00:00Z",
    "2024-01-01T00:00:00.Z", "2024-02-30T00:00Z", "2024-01-01T00:00Z ", "2024-01-01T00:00+01",
    "2024-01-01T00:00+0100", "2024-01-01",
  ])
  func invalidDateTimes(text: String) {
    #expect(throws: TemporalError(scalar: "AWSDateTime", text: text)) {
      try Temporal.DateTime(iso8601String: text)
    }
  }

  @Test func exactTextRoundTripThroughJSON() throws {
    struct Row: Codable, Equatable {
      var date: Temporal.Date
      var time: Temporal.Time
      var dateTime: Temporal.DateTime
    }
    let text =
      #"{"date":"2024-02-29+05:30","dateTime":"2024-01-01T01:00:00.100000+01:00","time":"08:00:00.000"}"#
    let row = try decodePlain(Row.self, text)
    #expect(try jsonText(row) == text)
    #expect(row.dateTime.nanosecond == 100_000_000)
    #expect(throws: TemporalError(scalar: "AWSDate", text: "2024-02-30")) {
      try decodePlain(
        Row.self, #"{"date":"2024-02-30","dateTime":"2024-01-01T00:00Z","time":"08:00"}"#)
    }
  }

  @Test func dateTimesOrderByInstantThenText() throws {
    let texts = [
      "2024-01-01T02:00+03:00",  // 23:00Z the day before
      "2024-01-01T00:00Z",
      "2024-01-01T01:00+01:00",  // same instant as 00:00Z
      "2023-12-31T23:30:00.5Z",
      "2023-12-31T23:30:00.499999999Z",
    ]
    let sorted = try texts.map(Temporal.DateTime.init(iso8601String:)).sorted().map(\.iso8601String)
    #expect(
      sorted == [
        "2024-01-01T02:00+03:00", "2023-12-31T23:30:00.499999999Z", "2023-12-31T23:30:00.5Z",
        "2024-01-01T00:00Z", "2024-01-01T01:00+01:00",
      ])
    let a = try Temporal.DateTime(iso8601String: "2024-01-01T00:00Z")
    let b = try Temporal.DateTime(iso8601String: "2024-01-01T01:00+01:00")
    #expect(a != b && a.foundationDate == b.foundationDate)
  }

  @Test func datesAndTimesOrder() throws {
    let dates = try ["2024-01-02", "-0001-12-31", "2024-01-01+05:00", "2024-01-01"].map(
      Temporal.Date.init(iso8601String:))
    #expect(
      dates.sorted().map(\.iso8601String) == [
        "-0001-12-31", "2024-01-01", "2024-01-01+05:00", "2024-01-02",
      ])
    let times = try ["12:00", "11:59:59.999", "13:00+02:00", "00:30Z"].map(
      Temporal.Time.init(iso8601String:))
    #expect(
      times.sorted().map(\.iso8601String) == ["00:30Z", "13:00+02:00", "11:59:59.999", "12:00"])
  }

  @Test func foundationConversions() throws {
    let instant = Date(timeIntervalSince1970: 1_709_247_599.25)
    #expect(try Temporal.DateTime(instant).iso8601String == "2024-02-29T22:59:59.250Z")
    #expect(
      try Temporal.DateTime(instant, utcOffset: 19_800).iso8601String
        == "2024-03-01T04:29:59.250+05:30")
    #expect(try Temporal.DateTime(instant, utcOffset: -3_600).foundationDate == instant)
    #expect(try Temporal.Date(instant).iso8601String == "2024-02-29")
    #expect(try Temporal.Date(instant, utcOffset: 19_800).iso8601String == "2024-03-01+05:30")
    #expect(try Temporal.Time(instant).iso8601String == "22:59:59.250")
    #expect(try Temporal.Time(instant, utcOffset: -28_800).iso8601String == "14:59:59.250-08:00")
    #expect(
      try Temporal.Date(iso8601String: "1970-01-02").foundationDate
        == Date(timeIntervalSince1970: 86_400))
    #expect(
      try Temporal.Date(iso8601String: "1970-01-02+01:00").foundationDate
        == Date(timeIntervalSince1970: 82_800))
    #expect(
      try Temporal.Time(iso8601String: "01:00:00.5+01:00").foundationDate
        == Date(timeIntervalSince1970: 0.5))
    #expect(
      try Temporal.DateTime(Date(timeIntervalSince1970: -0.001)).iso8601String
        == "1969-12-31T23:59:59.999Z")
    // What `now()` writes parses back.
    #expect(
      try Temporal.DateTime(iso8601String: Temporal.DateTime.now().iso8601String).utcOffset == 0)
    #expect(try Temporal.Date(iso8601String: Temporal.Date.now().iso8601String).utcOffset == nil)
    #expect(try Temporal.Time(iso8601String: Temporal.Time.now().iso8601String).utcOffset == nil)
  }

  @Test func dateTimeRoundTripsEveryMillisecondOfAYearBoundary() throws {
    var value = Date(timeIntervalSince1970: 1_704_067_199)  // 2023-12-31T23:59:59Z
    for _ in 0..<2_000 {
      let text = try Temporal.DateTime(value).iso8601String
      let parsed = try Temporal.DateTime(iso8601String: text)
      #expect(abs(parsed.foundationDate.timeIntervalSince(value)) < 0.000_5)
      value += 0.001
    }
  }

  @Test func keyValueConversion() throws {
    let date = try Temporal.DateTime(iso8601String: "2024-01-01T00:00Z")
    #expect(date.keyValue == .string("2024-01-01T00:00Z"))
    #expect(Temporal.DateTime(keyValue: .string("2024-01-01T00:00Z")) == date)
    #expect(Temporal.DateTime(keyValue: .string("yesterday")) == nil)
    #expect(Temporal.Date(keyValue: .int(3)) == nil)
    #expect(Temporal.Time(keyValue: .string("10:00")) != nil)
  }
}

@Suite struct DateTimeFormTests {
  /// Every way an `AWSDateTime` can be written (`DateTime` stores parts and the written form, not
  /// the text, so each must give back the same bytes).
  @Test(arguments: [
    "2024-01-01T00:00Z", "2024-01-01T00:00:00Z", "2024-01-01T00:00:00.1Z",
    "2024-01-01T00:00:00.10Z", "2024-01-01T00:00:00.000Z", "2024-01-01T00:00:00.000000001Z",
    "2024-01-01T00:00:00.123456789Z", "2024-01-01T00:00:00.000000000Z", "2024-01-01T00:00+05:30",
    "2024-01-01T00:00-05:30", "2024-01-01T00:00:59+23:59:59", "2024-01-01T00:00-00:00",
    "2024-01-01T00:00+00:00", "2024-01-01T00:00+00:00:00", "2024-01-01T00:00-00:00:00",
    "-9999-12-31T23:59:59.999999999-23:59:59", "9999-12-31T23:59:59.999999999+23:59:59",
    "-0000-01-01T00:00Z", "0000-02-29T00:00Z", "2024-02-29T12:00:00.5+01:00",
  ])
  func everyWrittenFormIsKept(text: String) throws {
    let value = try Temporal.DateTime(iso8601String: text)
    #expect(value.iso8601String == text)
    #expect(value.description == text)
    #expect(value.keyValue == .string(text))
    #expect(try Temporal.DateTime(iso8601String: value.iso8601String) == value)
    #expect(try jsonText([value]) == "[\"\(text)\"]")
  }

  @Test func equalityAndHashingFollowTheText() throws {
    let texts = [
      "2024-01-01T00:00Z", "2024-01-01T00:00:00Z", "2024-01-01T00:00:00.0Z",
      "2024-01-01T00:00+00:00", "2024-01-01T00:00-00:00", "2024-01-01T00:00+00:00:00",
      "2024-01-01T01:00+01:00",
    ]
    // The same instant written seven ways: seven different values.
    let values = try texts.map(Temporal.DateTime.init(iso8601String:))
    #expect(Set(values).count == texts.count)
    #expect(Set(values.map(\.foundationDate)).count == 1)
    // Parsed twice from equal text: equal, with equal hashes.
    for text in texts {
      let (a, b) = (try Temporal.DateTime(iso8601String: text), try Temporal.DateTime(iso8601String: text))
      #expect(a == b && a.hashValue == b.hashValue)
    }
    // The same instant orders by text.
    #expect(values.sorted().map(\.iso8601String) == texts.sorted())
  }

  @Test func valuesMadeFromAFoundationDateKeepTheirWrittenForm() throws {
    let instant = Date(timeIntervalSince1970: 1_709_247_599.25)
    for offset in [0, 3_600, -3_600, 19_815, -19_815] {
      let value = try Temporal.DateTime(instant, utcOffset: offset)
      #expect(try Temporal.DateTime(iso8601String: value.iso8601String) == value)
      #expect(value.foundationDate == instant)
    }
    #expect(
      try Temporal.DateTime(instant, utcOffset: -19_815).iso8601String
        == "2024-02-29T17:29:44.250-05:30:15")
  }

  @Test func aValueIsSixteenBytesWithNoText() {
    #expect(MemoryLayout<Temporal.DateTime>.size == 16)
  }
}

/// 10000-01-01T00:00:00Z in seconds since 1970: 2,932,897 days (H. Hinnant's `days_from_civil`).
private let year10000 = 253_402_300_800.0
/// -9999-01-01T00:00:00Z in seconds since 1970: −4,371,587 days.
private let yearMinus9999 = -377_705_116_800.0

/// Values made from a `Foundation.Date`: the AWS formats write years −9999…9999 and offsets with
/// hours 00–23 (|offset| < 86,400 s), so anything else is a ``TemporalError`` describing the input,
/// never wrong text or a trap.
@Suite struct FoundationDateRangeTests {
  /// 2024-02-29T22:59:59.250Z.
  static let instant = Date(timeIntervalSince1970: 1_709_247_599.25)

  @Test func lastMillisecondOfYear9999IsAcceptedAndRoundTrips() throws {
    let last = Date(timeIntervalSince1970: year10000 - 0.001)
    let dateTime = try Temporal.DateTime(last)
    #expect(dateTime.iso8601String == "9999-12-31T23:59:59.999Z")
    #expect(dateTime.foundationDate == last)
    #expect(try Temporal.DateTime(dateTime.foundationDate) == dateTime)
    #expect(try Temporal.DateTime(iso8601String: dateTime.iso8601String) == dateTime)
    let date = try Temporal.Date(last)
    #expect(date.iso8601String == "9999-12-31")
    #expect(date.foundationDate == Date(timeIntervalSince1970: year10000 - 86_400))
    #expect(try Temporal.Date(date.foundationDate) == date)
    let time = try Temporal.Time(last)
    #expect(time.iso8601String == "23:59:59.999")
    #expect(try Temporal.Time(time.foundationDate) == time)
    // The year counts in the requested zone: 10000-01-01T00:30Z is 9999 one hour west.
    let west = try Temporal.DateTime(
      Date(timeIntervalSince1970: year10000 + 1_800), utcOffset: -3_600)
    #expect(west.iso8601String == "9999-12-31T23:30:00.000-01:00")
    #expect(west.foundationDate == Date(timeIntervalSince1970: year10000 + 1_800))
  }

  @Test func firstMillisecondOfYearMinus9999IsAcceptedAndRoundTrips() throws {
    let first = Date(timeIntervalSince1970: yearMinus9999)
    let dateTime = try Temporal.DateTime(first)
    #expect(dateTime.iso8601String == "-9999-01-01T00:00:00.000Z")
    #expect(dateTime.foundationDate == first)
    #expect(try Temporal.DateTime(dateTime.foundationDate) == dateTime)
    #expect(try Temporal.DateTime(iso8601String: dateTime.iso8601String) == dateTime)
    let date = try Temporal.Date(first)
    #expect(date.iso8601String == "-9999-01-01")
    #expect(date.foundationDate == first)
    #expect(try Temporal.Date(date.foundationDate) == date)
    let time = try Temporal.Time(first)
    #expect(time.iso8601String == "00:00:00.000")
    #expect(try Temporal.Time(time.foundationDate) == time)
    // -10000-12-31T23:30Z is -9999 one hour east.
    let east = try Temporal.DateTime(
      Date(timeIntervalSince1970: yearMinus9999 - 1_800), utcOffset: 3_600)
    #expect(east.iso8601String == "-9999-01-01T00:30:00.000+01:00")
    #expect(east.foundationDate == Date(timeIntervalSince1970: yearMinus9999 - 1_800))
  }

  /// Instants whose year in the requested zone is outside −9999…9999, and non-finite instants:
  /// rejected by all three types, with the input in the error text.
  @Test(arguments: [
    (year10000, 0, "253402300800.0 s since 1970 at UTC offset 0 s"),
    // 10000-01-01T00:00+01:00.
    (year10000 - 3_600, 3_600, "253402297200.0 s since 1970 at UTC offset 3600 s"),
    // Rounded to the millisecond, 9999-12-31T23:59:59.9996Z is year 10000.
    (year10000 - 0.000_4, 0, "253402300799.9996 s since 1970 at UTC offset 0 s"),
    (yearMinus9999 - 0.001, 0, "-377705116800.001 s since 1970 at UTC offset 0 s"),
    // -10000-12-31T23:59:59-00:00:01.
    (yearMinus9999, -1, "-377705116800.0 s since 1970 at UTC offset -1 s"),
    // Once written as year 4645, then as year 0000, then beyond the stored year's range.
    (4e11, 0, "400000000000.0 s since 1970 at UTC offset 0 s"),
    (year10000 + 86_400, 0, "253402387200.0 s since 1970 at UTC offset 0 s"),
    (1e12, 0, "1000000000000.0 s since 1970 at UTC offset 0 s"),
    (-1e12, 0, "-1000000000000.0 s since 1970 at UTC offset 0 s"),
    (1e300, 3_600, "1e+300 s since 1970 at UTC offset 3600 s"),
    (.nan, 0, "nan s since 1970 at UTC offset 0 s"),
    (.infinity, 0, "inf s since 1970 at UTC offset 0 s"),
    (-.infinity, -3_600, "-inf s since 1970 at UTC offset -3600 s"),
  ])
  func instantsOutsideTheFormatsAreTypedErrors(seconds: Double, utcOffset: Int, text: String) {
    let date = Date(timeIntervalSince1970: seconds)
    #expect(throws: TemporalError(scalar: "AWSDateTime", text: text)) {
      try Temporal.DateTime(date, utcOffset: utcOffset)
    }
    #expect(throws: TemporalError(scalar: "AWSDate", text: text)) {
      try Temporal.Date(date, utcOffset: utcOffset)
    }
    #expect(throws: TemporalError(scalar: "AWSTime", text: text)) {
      try Temporal.Time(date, utcOffset: utcOffset)
    }
  }

  /// Without an offset a `Date` or `Time` is taken in UTC, and the text names no offset.
  @Test(arguments: [
    (year10000, "253402300800.0 s since 1970"),
    (yearMinus9999 - 0.001, "-377705116800.001 s since 1970"),
    (.nan, "nan s since 1970"), (.infinity, "inf s since 1970"), (-.infinity, "-inf s since 1970"),
  ])
  func withoutAnOffsetTheTextNamesNone(seconds: Double, text: String) {
    let date = Date(timeIntervalSince1970: seconds)
    #expect(throws: TemporalError(scalar: "AWSDate", text: text)) { try Temporal.Date(date) }
    #expect(throws: TemporalError(scalar: "AWSTime", text: text)) { try Temporal.Time(date) }
    #expect(throws: TemporalError(scalar: "AWSDateTime", text: text + " at UTC offset 0 s")) {
      try Temporal.DateTime(date)
    }
  }

  /// ±23:59:59, the largest offsets the formats write: accepted, and the text parses back.
  @Test(arguments: [
    (86_399, "2024-03-01T22:59:58.250+23:59:59", "2024-03-01+23:59:59", "22:59:58.250+23:59:59"),
    (-86_399, "2024-02-28T23:00:00.250-23:59:59", "2024-02-28-23:59:59", "23:00:00.250-23:59:59"),
  ])
  func largestOffsetsAreAcceptedAndParseBack(
    utcOffset: Int, dateTimeText: String, dateText: String, timeText: String
  ) throws {
    let dateTime = try Temporal.DateTime(Self.instant, utcOffset: utcOffset)
    #expect(dateTime.iso8601String == dateTimeText)
    #expect(dateTime.utcOffset == utcOffset)
    #expect(dateTime.foundationDate == Self.instant)
    #expect(try Temporal.DateTime(iso8601String: dateTimeText) == dateTime)
    let date = try Temporal.Date(Self.instant, utcOffset: utcOffset)
    #expect(date.iso8601String == dateText)
    #expect(try Temporal.Date(iso8601String: dateText) == date)
    #expect(try Temporal.Date(iso8601String: dateText).utcOffset == utcOffset)
    let time = try Temporal.Time(Self.instant, utcOffset: utcOffset)
    #expect(time.iso8601String == timeText)
    #expect(try Temporal.Time(iso8601String: timeText) == time)
    #expect(try Temporal.Time(iso8601String: timeText).utcOffset == utcOffset)
  }

  /// A day or more east or west (once written `+24:00` or with the hours wrapped to `+00:00`), and
  /// offsets whose milliseconds overflow an `Int` (once a trap): rejected by all three types.
  @Test(arguments: [86_400, -86_400, 360_000, Int.max / 100, Int.max, Int.min])
  func offsetsOfADayOrMoreAreTypedErrors(utcOffset: Int) {
    let text = "1709247599.25 s since 1970 at UTC offset \(utcOffset) s"
    #expect(throws: TemporalError(scalar: "AWSDateTime", text: text)) {
      try Temporal.DateTime(Self.instant, utcOffset: utcOffset)
    }
    #expect(throws: TemporalError(scalar: "AWSDate", text: text)) {
      try Temporal.Date(Self.instant, utcOffset: utcOffset)
    }
    #expect(throws: TemporalError(scalar: "AWSTime", text: text)) {
      try Temporal.Time(Self.instant, utcOffset: utcOffset)
    }
  }

  @Test func theMessageNamesTheInput() {
    do {
      let value = try Temporal.DateTime(Date(timeIntervalSince1970: .nan), utcOffset: 3_600)
      Issue.record("NaN was accepted as \(value)")
    } catch {
      #expect(
        error.description == #""nan s since 1970 at UTC offset 3600 s" is not a valid AWSDateTime"#)
    }
  }
}
