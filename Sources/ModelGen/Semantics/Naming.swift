/// Name helpers that mirror the Amplify transformer's string functions.
enum Naming {
  /// Amplify's `toCamelCase(words)`: the first word with its first character lower-cased, the others
  /// with their first character upper-cased, concatenated (`["Post", "comments", "id"]` → `postCommentsId`).
  static func camelCase(_ words: [String]) -> String {
    words.enumerated().map { index, word in
      index == 0 ? lowercasingFirst(word) : uppercasingFirst(word)
    }.joined()
  }

  /// `title` → `Title`.
  static func uppercasingFirst(_ word: String) -> String {
    word.prefix(1).uppercased() + word.dropFirst()
  }

  /// `Post` → `post`.
  static func lowercasingFirst(_ word: String) -> String {
    word.prefix(1).lowercased() + word.dropFirst()
  }

  /// The candidate closest to `name` by edit distance (case-insensitive equality counts as closest),
  /// when it is close enough to be a likely typo: at most one edit per three characters, minimum one.
  static func suggestion(for name: String, among candidates: some Sequence<String>) -> String? {
    let lowered = name.lowercased()
    var best: (name: String, distance: Int)?
    for candidate in candidates where candidate != name {
      let distance = candidate.lowercased() == lowered ? 0 : editDistance(lowered, candidate.lowercased())
      if best == nil || distance < best!.distance {
        best = (candidate, distance)
      }
    }
    guard let best, best.distance <= max(1, name.count / 3) else { return nil }
    return best.name
  }

  /// Levenshtein distance between two strings, by characters.
  static func editDistance(_ lhs: String, _ rhs: String) -> Int {
    let a = Array(lhs)
    let b = Array(rhs)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
