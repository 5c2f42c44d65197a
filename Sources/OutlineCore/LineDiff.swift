/// A unified diff of two texts by lines (`diff -u`'s format): what `outline fmt --diff` prints.
///
/// Myers' algorithm between the common start and end, within a budget of work proportional
/// to the texts' lengths: past it (texts that differ almost everywhere), the lines still
/// between the two ends are written as one change, a correct diff though not the shortest.
/// So the time is linear in the texts for every input, and memory is the lines plus the
/// search's trace, which the budget bounds.
public enum LineDiff {
  /// Lines of context around each change, as `diff -u` and `ruff format --diff` keep.
  public static let context = 3

  /// The diff of `old` to `new` under the file names `oldName` and `newName`; empty when the
  /// texts are equal.
  public static func unified(_ old: [UInt8], _ new: [UInt8], oldName: String, newName: String) -> [UInt8] {
    let before = Lines(old)
    let after = Lines(new)
    let ids = LineIDs(before, after)
    let script = editScript(ids.old, ids.new)
    guard script.contains(where: { $0 != .same }) else { return [] }
    var out: [UInt8] = []
    out.append(contentsOf: "--- \(oldName)\n+++ \(newName)\n".utf8)
    // The lines of each text before the next hunk, counted once across the script: each hunk
    // takes them from where the one before ended.
    var counted = 0
    var oldLine = 0
    var newLine = 0
    for hunk in hunks(script) {
      for step in script[counted..<hunk.lowerBound] {
        if step != .insert { oldLine += 1 }
        if step != .delete { newLine += 1 }
      }
      writeHunk(
        hunk, script: script, before: before, after: after, oldLine: &oldLine, newLine: &newLine, into: &out)
      counted = hunk.upperBound
    }
    return out
  }

  // MARK: Lines

  /// A text's lines, each with its line end (the last may have none).
  struct Lines {
    let bytes: [UInt8]
    /// Where each line starts; the last entry is the text's length.
    var starts: [Int] = [0]

    init(_ bytes: [UInt8]) {
      self.bytes = bytes
      var at = 0
      while at < bytes.count {
        if bytes[at] == 0x0A { starts.append(at + 1) }
        at += 1
      }
      if starts.last != bytes.count { starts.append(bytes.count) }
    }

    var count: Int { starts.count - 1 }

    func line(_ index: Int) -> ArraySlice<UInt8> { bytes[starts[index]..<starts[index + 1]] }
  }

  /// Each line as a number, equal numbers for equal lines of either text.
  struct LineIDs {
    var old: [Int32] = []
    var new: [Int32] = []

    init(_ before: Lines, _ after: Lines) {
      var numbers: [ArraySlice<UInt8>: Int32] = [:]
      func number(_ line: ArraySlice<UInt8>) -> Int32 {
        if let known = numbers[line] { return known }
        let next = Int32(truncatingIfNeeded: numbers.count)
        numbers[line] = next
        return next
      }
      old = (0..<before.count).map { number(before.line($0)) }
      new = (0..<after.count).map { number(after.line($0)) }
    }
  }

  // MARK: The edit script

  /// One step from the old text to the new one.
  enum Edit: Equatable {
    case same, delete, insert
  }

  /// The steps that turn `old` into `new`: shortest while the search stays within its budget.
  static func editScript(_ old: [Int32], _ new: [Int32]) -> [Edit] {
    var prefix = 0
    while prefix < old.count && prefix < new.count && old[prefix] == new[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < old.count - prefix && suffix < new.count - prefix
      && old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
    {
      suffix += 1
    }
    let a = Array(old[prefix..<(old.count - suffix)])
    let b = Array(new[prefix..<(new.count - suffix)])
    var script = [Edit](repeating: .same, count: prefix)
    if let middle = myers(a, b) {
      script += middle
    } else {
      script += [Edit](repeating: .delete, count: a.count) + [Edit](repeating: .insert, count: b.count)
    }
    script += [Edit](repeating: .same, count: suffix)
    return script
  }

  /// Myers' greedy search for the shortest edit script; nil when it would cost more than its
  /// budget (work and trace both grow with the number of differences times the lengths).
  static func myers(_ a: [Int32], _ b: [Int32]) -> [Edit]? {
    let n = a.count
    let m = b.count
    if n == 0 || m == 0 {
      return [Edit](repeating: .delete, count: n) + [Edit](repeating: .insert, count: m)
    }
    let maximum = n + m
    // Each round's frontier is kept (its 2d + 1 diagonals) and each snake step counted.
    var budget = 4 * (n + m) + 1_000_000
    let offset = maximum + 1
    var frontier = [Int](repeating: 0, count: 2 * maximum + 3)
    // The frontier of each round, its diagonals -d...d: what the walk back reads.
    var trace: [[Int32]] = []
    var found = false
    search: for d in 0...maximum {
      trace.append(frontier[(offset - d)...(offset + d)].map { Int32(truncatingIfNeeded: $0) })
      budget -= 2 * d + 1
      var k = -d
      while k <= d {
        var x: Int
        if k == -d || (k != d && frontier[offset + k - 1] < frontier[offset + k + 1]) {
          x = frontier[offset + k + 1]
        } else {
          x = frontier[offset + k - 1] + 1
        }
        var y = x - k
        while x < n && y < m && a[x] == b[y] {
          x += 1
          y += 1
          budget -= 1
        }
        frontier[offset + k] = x
        if x >= n && y >= m {
          found = true
          break search
        }
        k += 2
      }
      if budget < 0 { return nil }
    }
    guard found else { return nil }
    // Walk back from the end, round by round, through the frontiers each round started with.
    var edits: [Edit] = []
    var x = n
    var y = m
    for d in stride(from: trace.count - 1, through: 0, by: -1) {
      let before = trace[d]
      func at(_ k: Int) -> Int { Int(before[k + d]) }
      let k = x - y
      let previous: Int
      if d == 0 {
        previous = 0
      } else if k == -d || (k != d && at(k - 1) < at(k + 1)) {
        previous = k + 1
      } else {
        previous = k - 1
      }
      let startX = d == 0 ? 0 : at(previous)
      let startY = startX - previous
      let afterStepX = d == 0 ? 0 : (previous == k + 1 ? startX : startX + 1)
      let afterStepY = afterStepX - k
      while x > afterStepX && y > afterStepY {
        edits.append(.same)
        x -= 1
        y -= 1
      }
      if d > 0 {
        edits.append(previous == k + 1 ? .insert : .delete)
        x = startX
        y = startY
      }
    }
    return edits.reversed()
  }

  // MARK: Hunks

  /// The range of script steps a hunk covers.
  static func hunks(_ script: [Edit]) -> [Range<Int>] {
    var hunks: [Range<Int>] = []
    var index = 0
    while index < script.count {
      guard script[index] != .same else {
        index += 1
        continue
      }
      var end = index
      // A change, and the changes whose context would touch or overlap its context.
      var lastChange = index
      while end < script.count {
        if script[end] != .same {
          lastChange = end
        } else if end - lastChange > 2 * context {
          break
        }
        end += 1
      }
      let start = max(0, index - context)
      let stop = min(script.count, lastChange + 1 + context)
      hunks.append(start..<stop)
      index = stop
    }
    return hunks
  }

  /// Writes `hunk`, whose first lines are `oldLine` and `newLine` (0-based), and moves both
  /// past it.
  private static func writeHunk(
    _ hunk: Range<Int>, script: [Edit], before: Lines, after: Lines, oldLine: inout Int, newLine: inout Int,
    into out: inout [UInt8]
  ) {
    let oldCount = script[hunk].filter { $0 != .insert }.count
    let newCount = script[hunk].filter { $0 != .delete }.count
    func span(_ first: Int, _ count: Int) -> String {
      // `diff -u`: an empty span names the line before it.
      let shown = count == 0 ? first : first + 1
      return count == 1 ? "\(shown)" : "\(shown),\(count)"
    }
    out.append(contentsOf: "@@ -\(span(oldLine, oldCount)) +\(span(newLine, newCount)) @@\n".utf8)
    for step in script[hunk] {
      let line: ArraySlice<UInt8>
      switch step {
      case .same:
        line = before.line(oldLine)
        out.append(UInt8(ascii: " "))
        oldLine += 1
        newLine += 1
      case .delete:
        line = before.line(oldLine)
        out.append(UInt8(ascii: "-"))
        oldLine += 1
      case .insert:
        line = after.line(newLine)
        out.append(UInt8(ascii: "+"))
        newLine += 1
      }
      out.append(contentsOf: line)
      if line.last != 0x0A { out.append(contentsOf: "\n\\ No newline at end of file\n".utf8) }
    }
  }
}
