import Foundation
import GraphQLSDL

/// `@default(value:)`: Amplify writes every default as a string and coerces it to the field's type
/// (Amplify GraphQL Transformer v2, "@default"). Only scalar and enum fields of `@model` types take a
/// default (elsewhere the directive is MG016, see ``DirectiveRule``); the
/// string must parse as the field's type, with the formats AWS AppSync documents for its scalars
/// (`AWSDate` `YYYY-MM-DD`, `AWSTime` `hh:mm[:ss[.sss]]`, `AWSDateTime` with a zone, `AWSJSON` valid
/// JSON, ...), and for `AWSDate`, `AWSTime` and `AWSDateTime` also the default-value transformer's
/// stricter validators (``transformerDefault(_:of:parsed:)``). Violations are MG013.
enum DefaultRule {
  /// Sets ``FieldDefinition/defaultValue`` on every declared model field with `@default`.
  static func apply(_ context: AnalysisContext) {
    for model in context.orderedModels {
      for declared in model.declared {
        guard let directive = declared.directive("default"), var field = model.field(named: declared.ast.name.value)
        else { continue }
        // Default-value transformer `validateNotPrimaryKey`/`validateNotCompositeKeyMember`: no default
        // on a `@primaryKey` field, one of its sort key fields, or `id: ID!` (the transformer's own
        // test, so an implicit key `id: String!` keeps its default), where every create left
        // without it would write the same key.
        let isKeyField = !model.primaryKey.isImplicit && model.primaryKey.fields.contains(field.name)
        if isKeyField || (field.name == "id" && declared.ast.type.description == "ID!") {
          context.report(.defaultOnPrimaryKey(owner: model.name, field: field.name), at: directive.range)
          continue
        }
        field.defaultValue = value(
          of: directive, for: field, owner: model.name, writtenType: declared.ast.type.description, context: context)
        model.update(field)
      }
    }
  }

  /// The type-checked default of `directive` for `field` of type `owner`, or `nil` after reporting
  /// MG013. `writtenType` is the field's type as written (`[Int]`), for the message when the field
  /// takes no default: the transformer accepts `@default` only on scalar and enum fields, never on
  /// lists (`The @default directive may only be added to scalar or enum field types`).
  static func value(
    of directive: Directive, for field: FieldDefinition, owner: String, writtenType: String, context: AnalysisContext
  ) -> DefaultValue? {
    switch field.type {
    case .list, .embedded, .model:
      context.report(.defaultNotAllowed(owner: owner, field: field.name, typeName: writtenType), at: directive.range)
      return nil
    case .scalar, .enumeration:
      break
    }
    guard let written = directive.string("value") else { return nil }
    let parsed: Result<DefaultValue, Rejection>
    switch field.type {
    case .list, .embedded, .model:
      return nil
    case .enumeration(let name):
      let values = context.types[name]?.enumValues.map(\.name.value) ?? []
      parsed = enumDefault(written, of: name, values: values)
    case .scalar(let scalar):
      // A date or time AppSync refuses is refused by the transformer too: one reason, its format.
      parsed = scalarDefault(written, of: scalar)
        .mapError { transformerFormats[scalar].map(Rejection.init(reason:)) ?? $0 }
        .flatMap { transformerDefault(written, of: scalar, parsed: $0) }
    }
    switch parsed {
    case .success(let value):
      return value
    case .failure(let rejection):
      context.report(
        .invalidDefault(
          field: field.name, value: written, typeName: field.type.namedTypeName, reason: rejection.reason),
        at: directive.range(of: "value"))
      return nil
    }
  }

  /// Why a written default does not fit its field's type (the MG013 message's reason).
  struct Rejection: Error {
    let reason: String
  }

  /// A default for an enum field: one of its values.
  static func enumDefault(_ written: String, of name: String, values: [String]) -> Result<DefaultValue, Rejection> {
    guard values.contains(written) else {
      let suggestion = Naming.suggestion(for: written, among: values)
      return .failure(
        Rejection(
          reason: "`\(quoted(name))` has no value `\(quoted(written))`"
            + (suggestion.map { "; did you mean `\(quoted($0))`?" } ?? "")))
    }
    return .success(.enumValue(written))
  }

  /// User text inside a rejection's reason, shortened like every quoted piece of a diagnostic
  /// (the message quotes the reason whole, so the user text in it must be bounded already).
  private static func quoted(_ text: String) -> String {
    DiagnosticText.shortened(text, limit: 40)
  }

  /// A default for a scalar field, checked against the scalar's format.
  static func scalarDefault(_ written: String, of scalar: ScalarType) -> Result<DefaultValue, Rejection> {
    func check(_ valid: Bool, _ expected: String) -> Result<DefaultValue, Rejection> {
      valid ? .success(.string(written)) : .failure(Rejection(reason: expected))
    }
    switch scalar {
    case .id, .string:
      return .success(.string(written))
    case .int, .awsTimestamp:
      guard let int = Int(written) else { return .failure(Rejection(reason: "expected an integer")) }
      return .success(.int(int))
    case .float:
      guard let double = Double(written), double.isFinite else {
        return .failure(Rejection(reason: "expected a number"))
      }
      return .success(.float(double))
    case .boolean:
      switch written {
      case "true": return .success(.boolean(true))
      case "false": return .success(.boolean(false))
      default: return .failure(Rejection(reason: "expected `true` or `false`"))
      }
    case .awsJSON:
      let data = Data(written.utf8)
      return check(
        (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil, "expected a JSON document"
      )
    case .awsDate:
      return check(matches(written, "^" + datePattern + zonePattern + "?$"), "expected `YYYY-MM-DD`")
    case .awsTime:
      return check(matches(written, "^" + timePattern + zonePattern + "?$"), "expected `hh:mm[:ss[.sss]]`")
    case .awsDateTime:
      return check(
        matches(written, "^" + datePattern + "T" + timePattern + zonePattern + "$"),
        "expected `YYYY-MM-DDThh:mm[:ss[.sss]]Z` or with an offset")
    case .awsEmail:
      // The default value transformer's EMAIL_ADDRESS_REGEX: the domain needs no dot
      // (`local-part@domain-part` is valid).
      return check(
        matches(
          written,
          #"^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$"#
        ),
        "expected an email address")
    case .awsURL:
      let url = URL(string: written)
      return check(url?.scheme != nil && !written.contains(" "), "expected an absolute URL")
    case .awsPhone:
      return check(matches(written, "^\\+?[0-9][0-9 ().-]{2,}$"), "expected a phone number")
    case .awsIPAddress:
      return check(isIPAddress(written), "expected an IPv4 or IPv6 address")
    }
  }

  /// The default-value transformer's date and time validators (`validators.ts` of
  /// amplify-graphql-default-value-transformer), where they refuse what AppSync's formats allow, so
  /// that a schema modelgen accepts also deploys: `AWSDate` is `YYYY-MM-DD` with no zone and a day
  /// that exists in its month (29 February only in a leap year: divisible by 4, not by 100 unless
  /// by 400); `AWSTime` needs seconds and a zone (`Z` or `±hh:mm`); `AWSDateTime` is such a date,
  /// `T`, and such a time. Where the transformer is looser than AppSync (`TRUE`, `1.5` for `Int`, any
  /// number of fraction digits) ``scalarDefault(_:of:)`` keeps its refusal.
  static func transformerDefault(_ written: String, of scalar: ScalarType, parsed: DefaultValue)
    -> Result<DefaultValue, Rejection>
  {
    let time = "([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{1,9})?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])"
    let valid: Bool
    switch scalar {
    case .awsDate: valid = isCalendarDate(written)
    case .awsTime: valid = matches(written, "^" + time + "$")
    case .awsDateTime:
      let parts = written.split(separator: "T", maxSplits: 1).map(String.init)
      valid = parts.count == 2 && isCalendarDate(parts[0]) && matches(parts[1], "^" + time + "$")
    default: return .success(parsed)
    }
    return valid ? .success(parsed) : .failure(Rejection(reason: transformerFormats[scalar] ?? ""))
  }

  /// The format the default-value transformer accepts, as MG013 states it.
  static let transformerFormats: [ScalarType: String] = [
    .awsDate: "the default-value transformer expects `YYYY-MM-DD` with a day of that month (no zone)",
    .awsTime: "the default-value transformer expects `hh:mm:ss[.sss]` and a zone, `Z` or `±hh:mm`",
    .awsDateTime:
      "the default-value transformer expects `YYYY-MM-DDThh:mm:ss[.sss]` with a day of that month and a zone, `Z` or `±hh:mm`",
  ]

  /// `YYYY-MM-DD` naming a day that exists (Gregorian calendar, leap years included).
  private static func isCalendarDate(_ text: String) -> Bool {
    guard matches(text, "^" + datePattern + "$") else { return false }
    let parts = text.split(separator: "-").compactMap { Int($0) }
    guard parts.count == 3 else { return false }
    let (year, month, day) = (parts[0], parts[1], parts[2])
    let isLeap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    let days = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return day <= days[month - 1]
  }

  /// Zone designator: `Z` or `±hh:mm[:ss]`.
  private static let zonePattern = "(Z|[+-][0-9]{2}:[0-9]{2}(:[0-9]{2})?)"
  /// `YYYY-MM-DD` (`AWSDate` adds an optional zone).
  private static let datePattern = "[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
  /// `hh:mm[:ss[.fraction]]` (`AWSTime` adds an optional zone; `AWSDateTime` requires one).
  private static let timePattern = "([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]{1,9})?)?"

  private static func matches(_ text: String, _ pattern: String) -> Bool {
    text.range(of: pattern, options: .regularExpression) != nil
  }

  private static func isIPAddress(_ text: String) -> Bool {
    let address = text.split(separator: "/", maxSplits: 1).first.map(String.init) ?? text
    let octets = address.split(separator: ".", omittingEmptySubsequences: false)
    if octets.count == 4 {
      return octets.allSatisfy { octet in
        guard let value = Int(octet), octet.count <= 3 else { return false }
        return (0...255).contains(value)
      }
    }
    return address.contains(":") && matches(address, "^[0-9A-Fa-f:.]+$")
  }
}
