import Foundation
import GraphQLSDL

/// `@default(value:)`: Amplify writes every default as a string and coerces it to the field's type
/// (Amplify GraphQL Transformer v2, "@default"). Only scalar and enum fields of `@model` types take a
/// default (elsewhere the directive is MG016, see ``DirectiveRule``); the
/// string must parse as the field's type, with the formats AWS AppSync documents for its scalars
/// (`AWSDate` `YYYY-MM-DD`, `AWSTime` `hh:mm[:ss[.sss]]`, `AWSDateTime` with a zone, `AWSJSON` valid
/// JSON, ...). Violations are MG013.
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
      parsed = scalarDefault(written, of: scalar)
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
