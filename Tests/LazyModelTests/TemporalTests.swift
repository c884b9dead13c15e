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
    #expect(Temporal.DateTime(instant).iso8601String == "2024-02-29T22:59:59.250Z")
    #expect(
      Temporal.DateTime(instant, utcOffset: 19_800).iso8601String == "2024-03-01T04:29:59.250+05:30"
    )
    #expect(Temporal.DateTime(instant, utcOffset: -3_600).foundationDate == instant)
    #expect(Temporal.Date(instant).iso8601String == "2024-02-29")
    #expect(Temporal.Date(instant, utcOffset: 19_800).iso8601String == "2024-03-01+05:30")
    #expect(Temporal.Time(instant).iso8601String == "22:59:59.250")
    #expect(Temporal.Time(instant, utcOffset: -28_800).iso8601String == "14:59:59.250-08:00")
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
      Temporal.DateTime(Date(timeIntervalSince1970: -0.001)).iso8601String
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
      let text = Temporal.DateTime(value).iso8601String
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
      let value = Temporal.DateTime(instant, utcOffset: offset)
      #expect(try Temporal.DateTime(iso8601String: value.iso8601String) == value)
      #expect(value.foundationDate == instant)
    }
    #expect(
      Temporal.DateTime(instant, utcOffset: -19_815).iso8601String
        == "2024-02-29T17:29:44.250-05:30:15")
  }

  @Test func aValueIsSixteenBytesWithNoText() {
    #expect(MemoryLayout<Temporal.DateTime>.size == 16)
  }
}
