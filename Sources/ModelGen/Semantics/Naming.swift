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

  /// The candidate closest to `name` by edit distance (case-insensitive equality counts as closest,
  /// a prefix relation as one edit), when it is close enough to be a likely typo: at most one edit
  /// per three characters, minimum one. Ties go to the earlier candidate.
  static func suggestion(for name: String, among candidates: some Sequence<String>) -> String? {
    let lowered = name.lowercased()
    var best: (name: String, distance: Int)?
    for candidate in candidates where candidate != name {
      let other = candidate.lowercased()
      let distance =
        other == lowered ? 0 : (other.hasPrefix(lowered) || lowered.hasPrefix(other)) && min(other.count, lowered.count) >= 3
        ? 1 : editDistance(lowered, other)
      if best == nil || distance < best!.distance {
        best = (candidate, distance)
      }
    }
    guard let best, best.distance <= max(1, name.count / 3) else { return nil }
    return best.name
  }

  /// Edit distance between two strings by characters: insertions, deletions, substitutions and
  /// transpositions of adjacent characters each count one (optimal string alignment distance).
  static func editDistance(_ lhs: String, _ rhs: String) -> Int {
    let a = Array(lhs)
    let b = Array(rhs)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { table[i][0] = i }
    for j in 0...b.count { table[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
        }
      }
    }
    return table[a.count][b.count]
  }
}
