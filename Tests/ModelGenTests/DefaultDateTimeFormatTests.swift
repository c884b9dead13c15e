import Testing

@testable import ModelGenIR

/// Issue 20 (breaker pass F4): the default-value transformer's validators (`validators.ts`) refuse
/// date and time defaults AppSync's formats allow (`AWSTime` without seconds or zone, `2020-02-30`,
/// `AWSDateTime` without seconds), so a schema modelgen accepted did not deploy. They are MG013 at
/// the value, with the format in the message and the hint.
@Suite struct DefaultDateTimeFormatTests {
  @Test func whatTheTransformerRefusesIsMG013AtTheValue() {
    expectDiagnostics(
      """
      type P @model {
        t1: AWSTime @default(value: 1️⃣"12:00:00")
        t2: AWSTime @default(value: 2️⃣"12:00Z")
        t3: AWSTime @default(value: 3️⃣"12:00:00+01:00:30")
        d1: AWSDate @default(value: 4️⃣"2020-02-30")
        d2: AWSDate @default(value: 5️⃣"2021-02-29")
        d3: AWSDate @default(value: 6️⃣"2021-04-31")
        d4: AWSDate @default(value: 7️⃣"2024-01-01Z")
        dt1: AWSDateTime @default(value: 8️⃣"2020-01-01T00:00Z")
        dt2: AWSDateTime @default(value: 9️⃣"1900-02-29T00:00:00Z")
      }
      """,
      [
        (ModelGenDiagnosticCode.invalidDefault, "1️⃣"), (ModelGenDiagnosticCode.invalidDefault, "2️⃣"),
        (ModelGenDiagnosticCode.invalidDefault, "3️⃣"), (ModelGenDiagnosticCode.invalidDefault, "4️⃣"),
        (ModelGenDiagnosticCode.invalidDefault, "5️⃣"), (ModelGenDiagnosticCode.invalidDefault, "6️⃣"),
        (ModelGenDiagnosticCode.invalidDefault, "7️⃣"), (ModelGenDiagnosticCode.invalidDefault, "8️⃣"),
        (ModelGenDiagnosticCode.invalidDefault, "9️⃣"),
      ])
  }

  @Test func theMessageAndHintNameTheFormat() {
    let (result, _) = analyzeMarked(
      """
      type P @model {
        t: AWSTime @default(value: "12:00:00")
        d: AWSDate @default(value: "2020-02-30")
        dt: AWSDateTime @default(value: "2020-01-01T00:00Z")
      }
      """)
    #expect(
      result.diagnostics.map(\.message) == [
        "@default value \"12:00:00\" of `t` is not a valid `AWSTime`: the default-value transformer expects `hh:mm:ss[.sss]` and a zone, `Z` or `±hh:mm`",
        "@default value \"2020-02-30\" of `d` is not a valid `AWSDate`: the default-value transformer expects `YYYY-MM-DD` with a day of that month (no zone)",
        "@default value \"2020-01-01T00:00Z\" of `dt` is not a valid `AWSDateTime`: the default-value transformer expects `YYYY-MM-DDThh:mm:ss[.sss]` with a day of that month and a zone, `Z` or `±hh:mm`",
      ])
    #expect(
      result.diagnostics.map(\.hint) == [
        "write the time as `hh:mm:ss` with a zone (`12:00:00Z`, `12:00:00.5+02:00`)",
        "write the date as `YYYY-MM-DD` (`2024-02-29`); the default-value transformer refuses other forms",
        "write the date and time as `YYYY-MM-DDThh:mm:ss` with a zone (`2024-02-29T12:00:00Z`)",
      ])
    #expect(result.diagnostics.map(\.line) == [2, 3, 4])
    #expect(result.diagnostics.map(\.column) == [30, 30, 35])
  }

  @Test func whatBothAcceptIsKept() throws {
    let graph = try #require(
      analyzeClean(
        """
        type P @model {
          t: AWSTime @default(value: "23:59:59.123456789-05:30")
          d: AWSDate @default(value: "2000-02-29")
          d2: AWSDate @default(value: "2024-04-30")
          dt: AWSDateTime @default(value: "2024-02-29T00:00:00Z")
        }
        """))
    let p = try graph.requireModel("P")
    #expect(p.field(named: "t")?.defaultValue == .string("23:59:59.123456789-05:30"))
    #expect(p.field(named: "d")?.defaultValue == .string("2000-02-29"))
    #expect(p.field(named: "d2")?.defaultValue == .string("2024-04-30"))
    #expect(p.field(named: "dt")?.defaultValue == .string("2024-02-29T00:00:00Z"))
    // The transformer's looser readings stay refused (a raw literal it would put in the resolver).
    let (result, _) = analyzeMarked(
      """
      type Q @model { b: Boolean @default(value: "TRUE") i: Int @default(value: "1.5") }
      """)
    #expect(
      result.diagnostics.map(\.code) == [ModelGenDiagnosticCode.invalidDefault, ModelGenDiagnosticCode.invalidDefault])
  }
}
