/// The longest name, in UTF-8 bytes, that "did you mean" hints compare (as the misspelt name or as
/// a candidate): edit distance costs the product of the two lengths in time and memory, and nobody
/// mistypes a 129-byte name, so a hostile 10 MB name gets no hint instead of an 880 MB table.
package let maximumTypoLength = 128

/// Edit distance between two strings, compared by their UTF-8 bytes (GraphQL names, template names
/// and config keys are ASCII); see ``editDistance(_:_:)-([Element],[Element])``. The one edit
/// distance of the package: the parser's, the analysis', the templates' and the CLI's "did you
/// mean" hints all use it.
package func editDistance(_ lhs: String, _ rhs: String) -> Int {
  editDistance(Array(lhs.utf8), Array(rhs.utf8))
}

/// Edit distance between two sequences where an insertion, deletion, substitution or swap of two
/// neighbours costs 1 (optimal string alignment), so `tpye` is one edit from `type`.
///
/// Time and memory: the product of the two lengths (callers bound them by `maximumTypoLength`).
package func editDistance<Element: Equatable>(_ lhs: [Element], _ rhs: [Element]) -> Int {
  if lhs.isEmpty { return rhs.count }
  if rhs.isEmpty { return lhs.count }
  let width = rhs.count + 1
  var table = [Int](repeating: 0, count: (lhs.count + 1) * width)
  for i in 0...lhs.count { table[i * width] = i }
  for j in 0...rhs.count { table[j] = j }
  for i in 1...lhs.count {
    for j in 1...rhs.count {
      let cost = lhs[i - 1] == rhs[j - 1] ? 0 : 1
      var best = min(
        table[(i - 1) * width + j] + 1, table[i * width + j - 1] + 1, table[(i - 1) * width + j - 1] + cost)
      if i > 1, j > 1, lhs[i - 1] == rhs[j - 2], lhs[i - 2] == rhs[j - 1] {
        best = min(best, table[(i - 2) * width + j - 2] + 1)
      }
      table[i * width + j] = best
    }
  }
  return table[lhs.count * width + rhs.count]
}
