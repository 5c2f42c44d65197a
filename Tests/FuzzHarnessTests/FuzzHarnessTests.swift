import Foundation
import Testing

@testable import FuzzHarness

/// Every fuzz seed and every input a fuzzer ever crashed on goes through the
/// fuzz targets' own code on every test run, so a fixed crash stays fixed
/// (Fuzz/README.md says how a crash becomes a file in Fuzz/Regressions).
@Suite struct FuzzHarnessTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The files under `folder` (relative to the repository), recursively, whose name passes `keep`.
  static func files(under folder: String, keep: (String) -> Bool = { _ in true }) -> [URL] {
    let base = root.appendingPathComponent(folder)
    guard
      let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey])
    else { return [] }
    return walker.compactMap { $0 as? URL }
      .filter {
        (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
          && keep($0.lastPathComponent)
      }
      .sorted { $0.path < $1.path }
  }

  /// A target's inputs: its seeds, its regressions, and the repository's own files of its kind.
  static func inputs(_ target: String) -> [URL] {
    var found = files(under: "Fuzz/Seeds/\(target)") + files(under: "Fuzz/Regressions/\(target)")
    switch target {
    case "FuzzOutline": found += files(under: "examples") { $0.hasSuffix(".outline") }
    case "FuzzModel":
      for folder in ["examples", "schema", "Tests/Fixtures"] {
        found += files(under: folder) { $0 == "contents" }
      }
    default: break
    }
    return found
  }

  @Test(arguments: FuzzHarness.targets.map(\.name))
  func seedsAndRegressionsPass(target: String) throws {
    let body = try #require(FuzzHarness.targets.first { $0.name == target }?.body)
    let inputs = Self.inputs(target)
    #expect(inputs.count >= 2, "\(target) has seeds")
    for url in inputs {
      body(try [UInt8](Data(contentsOf: url)))
    }
  }

  @Test func emptyAndTinyInputsPass() {
    for (_, body) in FuzzHarness.targets {
      for input: [UInt8] in [
        [], [0], [0xFF], Array("<".utf8), Array("{".utf8), Array("Content-Length: 0\r\n\r\n".utf8),
      ] {
        body(input)
      }
    }
  }
}
