import Foundation
import OutlineModel
import TestSupport
import Testing

/// Nothing a user had is lost (SPEC §6, issue 7): every command that writes
/// leaves, when killed with SIGKILL at any moment, the old file or the
/// complete new one, never a mix; a target it cannot write ends it with exit
/// 2 and a message, and changes nothing.
@Suite(.serialized) struct DataSafetyTests {
  /// One writing command: how to run it, the file it writes, and whether it rewrites its input.
  struct Writer: CustomTestStringConvertible, Sendable {
    var name: String
    var arguments: [String]
    var target: String
    var inPlace: Bool
    var testDescription: String { name }
  }

  static let writers = [
    Writer(
      name: "convert to JSON", arguments: ["convert", "big.outline", "-o", "out.json"], target: "out.json",
      inPlace: false),
    Writer(
      name: "convert to XML", arguments: ["convert", "big.json", "-o", "out.outline"], target: "out.outline",
      inPlace: false),
    Writer(name: "fmt", arguments: ["fmt", "messy.outline"], target: "messy.outline", inPlace: true),
    Writer(
      name: "lint --fix", arguments: ["lint", "--fix", "orders.outline"], target: "orders.outline",
      inPlace: true),
    Writer(
      name: "import", arguments: ["import", "big.opml", "-o", "imported.outline"], target: "imported.outline",
      inPlace: false),
    Writer(
      name: "export", arguments: ["export", "opml.outline", "-o", "out.opml"], target: "out.opml",
      inPlace: false),
  ]

  /// A folder with the inputs every writer reads (40,000 items each).
  static func inputs() throws -> URL {
    let folder = try CLI.temporaryFolder()
    let big = GeneratedOutline.twoLevels(parents: 200, children: 200)
    // The same in the OPML model, which export writes.
    let opml = big.replacingOccurrences(of: "<outline>", with: "<outline model=\"OPML.xcdatamodel\">")
      .replacingOccurrences(of: "Item title=", with: "Outline text=").replacingOccurrences(
        of: "</Item>", with: "</Outline>")
    try CLI.write(
      [
        "big.outline": big, "messy.outline": big.replacingOccurrences(of: "\n <Item", with: "\n\t<Item   "),
        "orders.outline": big.replacingOccurrences(of: "\"c0\" order=\"0\"", with: "\"c0\" order=\"7\""),
        "opml.outline": opml, "OPML.xcdatamodel/contents": ShippedModels.opml,
      ], in: folder)
    #expect(try CLI.run("outline", ["convert", "big.outline", "-o", "big.json"], in: folder).status == 0)
    #expect(try CLI.run("outline", ["export", "opml.outline", "-o", "big.opml"], in: folder).status == 0)
    return folder
  }

  @Test(.enabled(if: SlowTests.enabled, Comment(rawValue: SlowTests.skipped)), arguments: writers)
  func killedWritersLeaveTheOldFileOrTheNewOne(writer: Writer) throws {
    let folder = try Self.inputs()
    let target = folder.appendingPathComponent(writer.target)
    let old = writer.inPlace ? try Data(contentsOf: target) : Data("old contents\n".utf8)
    // The complete output, for comparison.
    if !writer.inPlace { try old.write(to: target) }
    let full = try CLI.run("outline", writer.arguments, in: folder)
    #expect(full.status == 0 || (writer.name == "lint --fix" && full.status == 1), "\(full.stderr)")
    let complete = try Data(contentsOf: target)
    #expect(complete != old)

    try Self.killRepeatedly(writer, in: folder) {
      try old.write(to: target)
    } check: { attempt in
      let now = try Data(contentsOf: target)
      #expect(now == old || now == complete, "attempt \(attempt): a partial or foreign file")
    }
  }

  /// Runs `writer` 12 times, each killed with SIGKILL 10 to 670 ms after it
  /// starts, `restore` putting the old contents back before each run and
  /// `check` looking at what is left after it; at least one run must have
  /// been killed before it finished.
  static func killRepeatedly(
    _ writer: Writer, in folder: URL, restore: () throws -> Void, check: (_ attempt: Int) throws -> Void
  ) throws {
    var killedMidway = 0
    for attempt in 0..<12 {
      try restore()
      let process = CLI.process("outline", writer.arguments)
      process.currentDirectoryURL = folder
      process.standardError = FileHandle.nullDevice
      try process.run()
      usleep(UInt32(10_000 + attempt * 60_000))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      if process.terminationReason == .uncaughtSignal { killedMidway += 1 }
      try check(attempt)
    }
    #expect(killedMidway > 0, "no attempt was killed before the command finished")
  }

  /// The same kills, with the target a symbolic link into another folder: afterwards it is
  /// still a link, and its target holds the old contents or the complete new ones (issue 14).
  @Test(.enabled(if: SlowTests.enabled, Comment(rawValue: SlowTests.skipped)), arguments: writers)
  func killedWritersKeepALinkAndLeaveItsTargetOldOrNew(writer: Writer) throws {
    let folder = try Self.inputs()
    let link = folder.appendingPathComponent(writer.target)
    let real = folder.appendingPathComponent("real/" + writer.target)
    try FileManager.default.createDirectory(
      at: real.deletingLastPathComponent(), withIntermediateDirectories: true)
    let old = writer.inPlace ? try Data(contentsOf: link) : Data("old contents\n".utf8)
    try? FileManager.default.removeItem(at: link)
    try FileManager.default.createSymbolicLink(
      atPath: link.path, withDestinationPath: "real/" + writer.target)
    try old.write(to: real)
    let full = try CLI.run("outline", writer.arguments, in: folder)
    #expect(full.status == 0 || (writer.name == "lint --fix" && full.status == 1), "\(full.stderr)")
    let complete = try Data(contentsOf: real)
    #expect(complete != old)

    try Self.killRepeatedly(writer, in: folder) {
      try old.write(to: real)
    } check: { attempt in
      let kind = try FileManager.default.attributesOfItem(atPath: link.path)[.type] as? FileAttributeType
      #expect(kind == .typeSymbolicLink, "attempt \(attempt): the link was replaced")
      let now = try Data(contentsOf: real)
      #expect(now == old || now == complete, "attempt \(attempt): a partial or foreign file")
    }
  }

  @Test(arguments: writers)
  func unwritableTargetsExitTwoAndChangeNothing(writer: Writer) throws {
    let folder = try Self.inputs()
    // A folder that does not exist (for fmt and --fix, the file they rewrite is missing).
    var missing = writer.arguments
    missing[missing.count - 1] = "absent/" + writer.target
    let absent = try CLI.run("outline", missing, in: folder)
    #expect(absent.status == 2, "\(absent.stderr)")
    #expect(absent.stderr.hasPrefix("outline: "), "\(absent.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("absent").path))

    // A read-only folder. Root writes anywhere, so as root the command runs as nobody.
    let locked = folder.appendingPathComponent("locked")
    try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
    let inputs = [
      "OPML.xcdatamodel", "big.json", "big.opml", "big.outline", "messy.outline", "opml.outline",
      "orders.outline",
    ]
    for input in inputs {
      try FileManager.default.copyItem(
        at: folder.appendingPathComponent(input), to: locked.appendingPathComponent(input))
    }
    let before = try Data(
      contentsOf: locked.appendingPathComponent(writer.inPlace ? writer.target : "big.outline"))
    chmod(folder.path, 0o755)
    chmod(locked.path, 0o555)
    defer { chmod(locked.path, 0o755) }
    let run = try CLI.run("outline", writer.arguments, in: locked, asNobody: getuid() == 0)
    #expect(run.status == 2, "\(run.stderr)")
    // fmt and --fix find their file read-only for nobody; the others cannot write in the folder.
    #expect(
      run.stderr.contains(writer.inPlace ? "is read-only; not changed" : "cannot write"), "\(run.stderr)")
    #expect(
      try Data(contentsOf: locked.appendingPathComponent(writer.inPlace ? writer.target : "big.outline"))
        == before)
    let left = try FileManager.default.contentsOfDirectory(atPath: locked.path).sorted()
    #expect(left == inputs)
  }
}
