import Foundation
import TestSupport
import Testing

/// `outline convert` of a JSON form file that another program cuts short while it is read (an
/// editor writing it again in place): the input is mapped, and a read past its new end raised
/// SIGBUS and ended the process. Now it says so, exits 2 and writes nothing.
@Suite struct ChangedWhileReadCLITests {
  @Test func aJSONInputCutShortMidConversionIsReportedNotACrash() throws {
    let folder = try CLI.temporaryFolder()
    let xml = folder.appendingPathComponent("big.outline")
    try GeneratedOutline.twoLevels(parents: 2_000, children: 60).write(
      to: xml, atomically: true, encoding: .utf8)
    let original = folder.appendingPathComponent("original.json")
    let made = try CLI.run("outline", ["convert", xml.path, "-o", original.path])
    #expect(made.status == 0, "\(made.stderr)")
    let input = folder.appendingPathComponent("big.json")
    let output = folder.appendingPathComponent("out.outline")

    // How long one conversion takes here, to cut the input at fractions of it.
    try FileManager.default.copyItem(at: original, to: input)
    let started = Date()
    let whole = try CLI.run("outline", ["convert", input.path, "-o", output.path])
    let seconds = Date().timeIntervalSince(started)
    #expect(whole.status == 0, "\(whole.stderr)")
    try FileManager.default.removeItem(at: output)

    var reported = 0
    for fraction in [0.2, 0.35, 0.5, 0.65, 0.8] {
      try? FileManager.default.removeItem(at: input)
      try FileManager.default.copyItem(at: original, to: input)
      let process = CLI.process("outline", ["convert", input.path, "-o", output.path])
      let cutter = DispatchWorkItem { _ = truncate(input.path, 1_000) }
      DispatchQueue.global().asyncAfter(deadline: .now() + seconds * fraction, execute: cutter)
      let run = try CLI.collect(process, limit: 60)
      cutter.wait()
      #expect(process.terminationReason == .exit, "ended by signal \(run.status): \(run.stderr)")
      let wrote = FileManager.default.fileExists(atPath: output.path)
      switch run.status {
      case 0:
        // Done before the cut.
        #expect(wrote)
      case 2:
        #expect(run.stderr.contains("big.json': it was cut short while it was read"), "\(run.stderr)")
        #expect(run.stderr.contains("nothing was written"))
        #expect(!wrote)
        reported += 1
      default:
        // Cut before it was mapped: a JSON document of 1,000 bytes, not the JSON form.
        #expect(run.status == 1, "\(run.stderr)")
        #expect(!wrote)
      }
      try? FileManager.default.removeItem(at: output)
    }
    #expect(reported > 0, "no run was cut short while it read (a conversion took \(seconds) s)")
  }
}
