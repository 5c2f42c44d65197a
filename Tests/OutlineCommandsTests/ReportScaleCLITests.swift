import Foundation
import TestSupport
import Testing

/// `--format json` and `--format sarif` on a problem in every item, at n and 4n items, through
/// the binary: the report is written as it is made, never held whole, so the memory it adds
/// to the run's own (the same lint printing only `--statistics`) stays under the size of what
/// it writes, and memory and CPU time grow linearly. Peak memory is the kernel's count
/// (`/usr/bin/time`), the same from run to run; CPU time gets a generous bound.
@Suite(.serialized, .enabled(if: SlowTests.enabled, Comment(rawValue: SlowTests.skipped)))
struct ReportScaleCLITests {
  /// `items` items a line each: every even one repeats order 0 (a related location each),
  /// every odd one has an unknown attribute.
  static func problems(_ items: Int) -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\">\n"
      + (0..<items).map {
        $0 % 2 == 0 ? "  <Item order=\"0\" title=\"t\($0)\"/>\n" : "  <Item order=\"\($0)\" bogus=\"1\"/>\n"
      }.joined() + "</outline>\n"
  }

  struct Cost {
    var peakKB: Int
    var cpuSeconds: Double
    var outputBytes: Int
  }

  /// The peak resident memory, CPU time and output size of `outline-lint` with `arguments`.
  static func cost(_ arguments: [String], in folder: URL) throws -> Cost {
    let lint = CLI.products.appendingPathComponent("outline-lint").path
    let script = "/usr/bin/time -f '%M %U %S' \"$@\" > out.txt 2> time.txt; exit 0"
    _ = try CLI.program("/bin/sh", ["-c", script, "sh", lint] + arguments, in: folder)
    let time = try String(contentsOf: folder.appendingPathComponent("time.txt"), encoding: .utf8)
    let fields = (time.split(separator: "\n").last ?? "").split(separator: " ")
    let size = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("out.txt").path)
    return Cost(
      peakKB: fields.first.flatMap { Int($0) } ?? 0,
      cpuSeconds: fields.dropFirst().compactMap { Double($0) }.reduce(0, +),
      outputBytes: (size[.size] as? Int) ?? 0)
  }

  @Test(arguments: ["json", "sarif"])
  func aReportIsWrittenAsItIsMade(format: String) throws {
    let folder = try CLI.temporaryFolder()
    let small = 10_000
    try CLI.write(
      ["small.outline": Self.problems(small), "large.outline": Self.problems(4 * small)], in: folder)
    var costs: [Cost] = []
    for file in ["small.outline", "large.outline"] {
      let report = try Self.cost(["--format", format, file], in: folder)
      let alone = try Self.cost(["--statistics", "--format", "json", file], in: folder)
      #expect(report.outputBytes > 500 * small, "\(file): \(report.outputBytes) bytes written")
      // Holding the report whole would add at least its own size (a tree of it, several times).
      let added = max(report.peakKB - alone.peakKB, 0) * 1024
      #expect(
        added < report.outputBytes,
        "\(file): \(added) bytes beyond the run's own for a report of \(report.outputBytes)")
      costs.append(report)
    }
    #expect(costs[1].outputBytes > 4 * costs[0].outputBytes * 9 / 10)
    #expect(
      costs[1].peakKB * 10 <= costs[0].peakKB * 45,
      "peak memory \(costs[0].peakKB) KB for n, \(costs[1].peakKB) KB for 4n")
    #expect(
      costs[1].cpuSeconds <= 6 * max(costs[0].cpuSeconds, 0.05),
      "CPU \(costs[0].cpuSeconds) s for n, \(costs[1].cpuSeconds) s for 4n")
  }
}
