import Foundation

/// Plural names as the Amplify GraphQL Transformer v2 derives them (`list<PluralName>` queries,
/// default index names, `ModelSchema.pluralName`).
///
/// The transformer (with improved pluralization, the v2 default) and Amplify codegen both use the
/// npm `pluralize` package. This type reproduces its behaviour for a single word: irregular nouns,
/// uncountable nouns and suffix rules, the last matching rule winning, with the case of the written
/// name restored (`Person` → `People`, `Post4V2` → `Post4V2s`, `Category` → `Categories`,
/// `PostTags` → `PostTags`). Thread-safe: stateless.
public enum Pluralization {
  /// The plural of `name` (a GraphQL type name). Returns `name` unchanged when it is empty.
  public static func plural(of name: String) -> String {
    guard !name.isEmpty else { return name }
    let token = name.lowercased()
    if let plural = irregularPlurals[token] {
      return restoreCase(of: name, on: plural)
    }
    if irregularPluralForms.contains(token) || uncountableWords.contains(token) {
      return name
    }
    // A name ending in an ASCII letter, digit or `_` (every GraphQL name) is tried only against
    // the rules that can match its last letter (``Rule/lastLetters``); any other ending (a line
    // terminator before which `$` also matches, a non-ASCII letter that case-folds to an ASCII
    // one) is tried against every rule.
    let last = name.utf8.last ?? 0
    let isPlainEnding =
      (last >= UInt8(ascii: "a") && last <= UInt8(ascii: "z"))
      || (last >= UInt8(ascii: "A") && last <= UInt8(ascii: "Z"))
      || (last >= UInt8(ascii: "0") && last <= UInt8(ascii: "9")) || last == UInt8(ascii: "_")
    let letter = last | 0x20  // ASCII lowercase
    if isPlainEnding, letter != UInt8(ascii: "s"), !suffixRuleLetters.contains(letter) {
      // Only the first rule, `s?$` → `s`, can match, and it matches the empty suffix (the last
      // letter is not `s`): the case of the last character picks `s` or `S`. The same result as
      // the regular expressions below (`pluralLastLetterFilterMatchesTryingEveryRule` and
      // `pluralWithoutASuffixRuleAppendsS` pin it), without running one.
      return name + (last >= UInt8(ascii: "A") && last <= UInt8(ascii: "Z") ? "S" : "s")
    }
    for rule in rules.reversed() where !isPlainEnding || rule.canMatch(lastLetter: letter) {
      if let replaced = rule.apply(to: name) {
        return replaced
      }
    }
    return name
  }

  /// `plural(of:)` trying every rule, without the last-letter filter: the reference the filter is
  /// tested against.
  static func pluralTryingEveryRule(of name: String) -> String {
    guard !name.isEmpty else { return name }
    let token = name.lowercased()
    if let plural = irregularPlurals[token] { return restoreCase(of: name, on: plural) }
    if irregularPluralForms.contains(token) || uncountableWords.contains(token) { return name }
    for rule in rules.reversed() {
      if let replaced = rule.apply(to: name) { return replaced }
    }
    return name
  }

  /// `pluralize`'s case restoration: the replacement takes the case pattern of what it replaces.
  static func restoreCase(of word: String, on token: String) -> String {
    if word == token { return token }
    if word == word.lowercased() { return token.lowercased() }
    if word == word.uppercased() { return token.uppercased() }
    if let first = word.first, first.isUppercase {
      return token.prefix(1).uppercased() + token.dropFirst().lowercased()
    }
    return token.lowercased()
  }

  /// A suffix rule: a case-insensitive pattern and a replacement template with `$0`...`$9`.
  struct Rule {
    let expression: NSRegularExpression
    let template: String
    /// The lowercase ASCII letters a match of the pattern can end with (read off the pattern, all
    /// anchored at `$`), or `nil` when it can end anywhere (`s?$` matches the empty suffix).
    let lastLetters: [UInt8]?

    init(_ pattern: String, _ template: String, endsWith lastLetters: String? = nil) {
      // The patterns are constants of this file; a failure is a programming error caught by the tests.
      expression = try! NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
      self.template = template
      self.lastLetters = lastLetters.map { Array($0.utf8) }
    }

    /// Whether a word whose last byte, lowercased, is `letter` can match.
    func canMatch(lastLetter letter: UInt8) -> Bool {
      lastLetters?.contains(letter) ?? true
    }

    /// The word with its matching suffix replaced, or `nil` when the rule does not match.
    func apply(to word: String) -> String? {
      let whole = NSRange(word.startIndex..., in: word)
      guard let match = expression.firstMatch(in: word, range: whole),
        let matchRange = Range(match.range, in: word)
      else { return nil }
      var result = ""
      var characters = Array(template)
      var index = 0
      while index < characters.count {
        let character = characters[index]
        if character == "$", index + 1 < characters.count, let group = characters[index + 1].wholeNumberValue {
          if group < match.numberOfRanges, let range = Range(match.range(at: group), in: word) {
            result += word[range]
          }
          index += 2
        } else {
          result.append(character)
          index += 1
        }
      }
      characters.removeAll()
      let matched = String(word[matchRange])
      let restored: String
      if matched.isEmpty {
        let previous =
          matchRange.lowerBound > word.startIndex ? String(word[word.index(before: matchRange.lowerBound)]) : ""
        restored = restoreCase(of: previous, on: result)
      } else {
        restored = restoreCase(of: matched, on: result)
      }
      return String(word[..<matchRange.lowerBound]) + restored + String(word[matchRange.upperBound...])
    }
  }

  /// The last letters (lowercase ASCII) some rule other than the first (`s?$`, which can end
  /// anywhere) can end with: a word ending in any other ASCII letter, digit or `_` takes `s`.
  static let suffixRuleLetters: Set<UInt8> =
    rules.dropFirst().contains { $0.lastLetters == nil }
    ? Set(0...255) : Set(rules.dropFirst().flatMap { $0.lastLetters ?? [] })

  /// Singular → plural for irregular nouns (whole words).
  static let irregularPlurals: [String: String] = {
    let pairs: [(String, String)] = [
      ("i", "we"), ("me", "us"), ("he", "they"), ("she", "they"), ("them", "them"), ("myself", "ourselves"),
      ("yourself", "yourselves"), ("itself", "themselves"), ("herself", "themselves"), ("himself", "themselves"),
      ("themself", "themselves"), ("is", "are"), ("was", "were"), ("has", "have"), ("this", "these"),
      ("that", "those"), ("my", "our"), ("its", "their"), ("his", "their"), ("her", "their"),
      ("echo", "echoes"), ("dingo", "dingoes"), ("volcano", "volcanoes"), ("tornado", "tornadoes"),
      ("torpedo", "torpedoes"), ("genus", "genera"), ("viscus", "viscera"), ("stigma", "stigmata"),
      ("stoma", "stomata"), ("dogma", "dogmata"), ("lemma", "lemmata"), ("schema", "schemata"),
      ("anathema", "anathemata"), ("ox", "oxen"), ("axe", "axes"), ("die", "dice"), ("yes", "yeses"),
      ("foot", "feet"), ("eave", "eaves"), ("goose", "geese"), ("tooth", "teeth"), ("quiz", "quizzes"),
      ("human", "humans"), ("proof", "proofs"), ("carve", "carves"), ("valve", "valves"), ("looey", "looies"),
      ("thief", "thieves"), ("groove", "grooves"), ("pickaxe", "pickaxes"), ("passerby", "passersby"),
      ("canvas", "canvases"),
    ]
    return Dictionary(pairs, uniquingKeysWith: { first, _ in first })
  }()

  /// Plural forms of the irregular nouns: already plural, kept as written.
  static let irregularPluralForms: Set<String> = Set(irregularPlurals.values)

  /// Nouns without a plural form (whole words).
  static let uncountableWords: Set<String> = [
    "adulthood", "advice", "agenda", "aid", "aircraft", "alcohol", "ammo", "analytics", "anime", "athletics",
    "audio", "bison", "blood", "bream", "buffalo", "butter", "carp", "cash", "chassis", "chess", "clothing",
    "cod", "commerce", "cooperation", "corps", "debris", "diabetes", "digestion", "elk", "energy", "equipment",
    "excretion", "expertise", "firmware", "flounder", "fun", "gallows", "garbage", "graffiti", "hardware",
    "headquarters", "health", "herpes", "highjinks", "homework", "housework", "information", "jeans", "justice",
    "kudos", "labour", "literature", "machinery", "mackerel", "mail", "media", "mews", "moose", "music", "mud",
    "manga", "news", "only", "personnel", "pike", "plankton", "pliers", "police", "pollution", "premises",
    "rain", "research", "rice", "salmon", "scissors", "series", "sewage", "shambles", "shrimp", "software",
    "staff", "species", "swine", "tennis", "traffic", "transportation", "trout", "tuna", "wealth", "welfare",
    "whiting", "wildebeest", "wildlife", "you",
  ]

  /// Suffix rules in `pluralize`'s order; the last matching rule wins. Uncountable suffixes
  /// (`-fish`, `-sheep`, `-deer`, ...) come last so they win over the general rules.
  static let rules: [Rule] = [
    Rule("s?$", "s"),
    Rule("[^\\u0000-\\u007F]$", "$0", endsWith: ""),
    Rule("([^aeiou]ese)$", "$1", endsWith: "e"),
    Rule("(ax|test)is$", "$1es", endsWith: "s"),
    Rule("(alias|[^aou]us|t[lm]as|gas|ris)$", "$1es", endsWith: "s"),
    Rule("(e[mn]u)s?$", "$1s", endsWith: "us"),
    Rule("([^l]ias|[aeiou]las|[ejzr]as|[iu]am)$", "$1", endsWith: "sm"),
    Rule(
      "(alumn|syllab|vir|radi|nucle|fung|cact|stimul|termin|bacill|foc|uter|loc|strat)(?:us|i)$", "$1i",
      endsWith: "si"),
    Rule("(alumn|alg|vertebr)(?:a|ae)$", "$1ae", endsWith: "ae"),
    Rule("(seraph|cherub)(?:im)?$", "$1im", endsWith: "hbm"),
    Rule("(her|at|gr)o$", "$1oes", endsWith: "o"),
    Rule(
      "(agend|addend|millenni|dat|extrem|bacteri|desiderat|strat|candelabr|errat|ov|symposi|curricul|automat|quor)(?:a|um)$",
      "$1a", endsWith: "am"),
    Rule(
      "(apheli|hyperbat|periheli|asyndet|noumen|phenomen|criteri|organ|prolegomen|hedr|automat)(?:a|on)$", "$1a",
      endsWith: "an"),
    Rule("sis$", "ses", endsWith: "s"),
    Rule("(?:(kni|wi|li)fe|(ar|l|ea|eo|oa|hoo)f)$", "$1$2ves", endsWith: "ef"),
    Rule("([^aeiouy]|qu)y$", "$1ies", endsWith: "y"),
    Rule("([^ch][ieo][ln])ey$", "$1ies", endsWith: "y"),
    Rule("(x|ch|ss|sh|zz)$", "$1es", endsWith: "xhsz"),
    Rule("(matr|cod|mur|sil|vert|ind|append)(?:ix|ex)$", "$1ices", endsWith: "x"),
    Rule("\\b((?:tit)?m|l)(?:ice|ouse)$", "$1ice", endsWith: "e"),
    Rule("(pe)(?:rson|ople)$", "$1ople", endsWith: "ne"),
    Rule("(child)(?:ren)?$", "$1ren", endsWith: "dn"),
    Rule("eaux$", "$0", endsWith: "x"),
    Rule("m[ae]n$", "men", endsWith: "n"),
    Rule("^thou$", "you", endsWith: "u"),
    Rule("pok[eé]mon$", "$0", endsWith: "n"),
    Rule("[^aeiou]ese$", "$0", endsWith: "e"),
    Rule("deer$", "$0", endsWith: "r"),
    Rule("fish$", "$0", endsWith: "h"),
    Rule("measles$", "$0", endsWith: "s"),
    Rule("o[iu]s$", "$0", endsWith: "s"),
    Rule("pox$", "$0", endsWith: "x"),
    Rule("sheep$", "$0", endsWith: "p"),
  ]
}
