import Foundation
import TestSupport
import Testing

/// `outline fmt` of a large file that another program cuts short while fmt streams it: the
/// parse ends early and fmt refuses, but the file changed under it, so the refusal's position
/// could point past the file's new end. fmt must say that the file changed, not point there.
@Suite struct FmtCutShortCLITests {
  @Test func aFileCutShortWhileFormattedIsSaidToHaveChanged() throws {
    let folder = try CLI.temporaryFolder()
    let original = folder.appendingPathComponent("original.outline")
    // Over fmt's 16 MiB bound for files held whole: this one streams.
    let text = GeneratedOutline.twoLevels(parents: 9_000, children: 60)
    try text.write(to: original, atomically: true, encoding: .utf8)
    let input = folder.appendingPathComponent("big.outline")
    try FileManager.default.copyItem(at: original, to: input)
    // How long one check takes here (it reads and formats all), to cut at fractions of it.
    let started = Date()
    let whole = try CLI.run("outline", ["fmt", "--check", input.path])
    let seconds = Date().timeIntervalSince(started)
    #expect(whole.status == 1, "\(whole.stderr)")

    var said = 0
    for fraction in [0.1, 0.25, 0.4, 0.55, 0.7] {
      try? FileManager.default.removeItem(at: input)
      try FileManager.default.copyItem(at: original, to: input)
      let process = CLI.process("outline", ["fmt", input.path])
      let cutter = DispatchWorkItem { _ = truncate(input.path, 1_000) }
      DispatchQueue.global().asyncAfter(deadline: .now() + seconds * fraction, execute: cutter)
      let run = try CLI.collect(process, limit: 120)
      cutter.wait()
      let now = try String(contentsOf: input, encoding: .utf8)
      let lines = now.split(separator: "\n", omittingEmptySubsequences: false).count
      // Every position fmt names is inside the file as it is now.
      for line in run.stderr.split(separator: "\n") where line.contains("big.outline:") {
        let fields = line.split(separator: ":")
        if let index = fields.firstIndex(where: { $0.hasSuffix("big.outline") }), index + 1 < fields.count,
          let number = Int(fields[index + 1])
        {
          #expect(number <= lines, "a position past the file's \(lines) lines: \(line)")
        }
      }
      if run.stderr.contains("changed while being formatted; run again") {
        #expect(run.status == 2)
        said += 1
      }
    }
    #expect(said > 0, "no run was cut short while fmt read the file (a check took \(seconds) s)")
  }
}
