import Foundation
import TestSupport
import Testing

/// Nothing a user had is lost: a writer killed with SIGKILL at any moment
/// leaves the old file or the complete new one, never a mix.
@Suite(.serialized) struct DataSafetyTests {
  @Test func killedWritersLeaveTheOldFileOrTheNewOne() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["big.outline": GeneratedOutline.twoLevels(parents: 200, children: 200)], in: folder)
    let target = folder.appendingPathComponent("big.json")
    let old = Data("{\"old\":true}\n".utf8)
    // The complete output, for comparison.
    #expect(try CLI.run("outline", ["convert", "big.outline", "-o", "full.json"], in: folder).status == 0)
    let complete = try Data(contentsOf: folder.appendingPathComponent("full.json"))
    var killedMidway = 0
    for attempt in 0..<12 {
      try old.write(to: target)
      let process = Process()
      process.executableURL = CLI.products.appendingPathComponent("outline")
      process.arguments = ["convert", "big.outline", "-o", "big.json"]
      process.currentDirectoryURL = folder
      try process.run()
      usleep(UInt32(20_000 + attempt * 40_000))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      if process.terminationReason == .uncaughtSignal { killedMidway += 1 }
      let now = try Data(contentsOf: target)
      #expect(now == old || now == complete, "attempt \(attempt): a partial file")
    }
    #expect(killedMidway > 0)
    // Read-only targets are refused with exit 2 and a message.
    let locked = folder.appendingPathComponent("locked")
    try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
    chmod(locked.path, 0o500)
    defer { chmod(locked.path, 0o700) }
    let refused = try CLI.run("outline", ["convert", "big.outline", "-o", "locked/out.json"], in: folder)
    if getuid() != 0 {
      #expect(refused.status == 2)
      #expect(refused.stderr.contains("cannot write"))
    }
  }
}
