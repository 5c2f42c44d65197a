/// The known name a mistyped one most likely meant (`fmtt`, `covnert`, `chek`), as
/// cargo and ruff suggest one: only a name a typo or two away, never one for any word.
enum CommandSuggestion {
  /// The name of `names` closest to `word`, or nil when none is close: at most one edit
  /// (a letter added, dropped, changed, or two neighbours swapped) for a word of up to
  /// five letters, two for a longer one, case aside; the first of equally close names.
  static func closest(to word: String, among names: [String]) -> String? {
    let typed = Array(word.lowercased().unicodeScalars)
    let allowed = typed.count <= 5 ? 1 : 2
    var best: (name: String, distance: Int)?
    for name in names {
      let distance = editDistance(typed, Array(name.lowercased().unicodeScalars))
      if distance <= allowed && distance < typed.count && distance < (best?.distance ?? Int.max) {
        best = (name, distance)
      }
    }
    return best?.name
  }

  /// The edits that turn `a` into `b`: insertions, deletions, substitutions and swaps of
  /// two neighbours (optimal string alignment), each counting one.
  static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    // Three rows of the table: the one before last, the last, and the one being filled.
    var before = [Int](repeating: 0, count: b.count + 1)
    var last = Array(0...b.count)
    var row = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      row[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        row[j] = min(last[j] + 1, row[j - 1] + 1, last[j - 1] + cost)
        if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
          row[j] = min(row[j], before[j - 2] + 1)
        }
      }
      (before, last, row) = (last, row, before)
    }
    return last[b.count]
  }
}
