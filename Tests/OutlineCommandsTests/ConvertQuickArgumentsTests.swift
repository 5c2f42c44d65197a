import Foundation
import TestSupport
import Testing

@testable import OutlineCommands

/// `outline convert`'s common command lines, read without ArgumentParser: what
/// they say, and everything else (help, errors, an unknown direction) left to ArgumentParser.
@Suite struct ConvertQuickArgumentsTests {
  @Test func commonCommandLinesAreReadAsArgumentParserReadsThem() throws {
    let all = try #require(
      ConvertCommand.parse([
        "in.data", "-o", "out.data", "--to=xml", "--model", "m.xcdatamodel", "--max-size", "1M",
      ]))
    #expect(all.input == "in.data")
    #expect(all.output == "out.data")
    #expect(all.direction == .xml)
    #expect(all.model == "m.xcdatamodel")
    #expect(all.maxSize?.bytes == 1 << 20)
    let plain = try #require(ConvertCommand.parse(["--output=b.json", "a.outline"]))
    #expect(plain.input == "a.outline" && plain.output == "b.json" && plain.direction == .json)
    #expect(plain.model == nil && plain.maxSize == nil)
    #expect(ConvertCommand.parse(["a.json"])?.direction == .xml)
    #expect(ConvertCommand.parse(["-", "--to", "json"])?.input == "-")
  }

  @Test(arguments: [
    [], ["--help"], ["-h"], ["a.outline", "--version"], ["a.txt"], ["a.outline", "b.outline"],
    ["a.outline", "--to", "yaml"], ["a.outline", "--to", "JSON"],
    ["a.outline", "-o", "x.json", "--output", "y.json"],
    ["a.outline", "-o", "-"], ["a.outline", "-o"], ["a.outline", "--model="],
    ["a.outline", "--max-size", "lots"],
    ["a.outline", "--unknown", "x"], ["a.outline", "-x", "y"], ["a.outline", "-ob.json"],
    ["--", "a.outline"],
    ["-a.outline"],
  ])
  func everythingElseIsLeftToArgumentParser(_ arguments: [String]) {
    #expect(ConvertCommand.parse(arguments) == nil)
  }

  /// The binary: a quick command line and one ArgumentParser reads (`-o -`,
  /// standard output spelled out) write the same JSON; usage errors are ArgumentParser's.
  @Test func theBinaryAgreesWithArgumentParser() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      ["a.outline": "<outline version=\"1\"><Item order=\"0\" title=\"t &amp; u\"/></outline>\n"], in: folder)
    let quick = try CLI.run("outline", ["convert", "a.outline", "--to", "json"], in: folder)
    let parsed = try CLI.run("outline", ["convert", "a.outline", "-o", "-", "--to", "json"], in: folder)
    #expect(quick.status == 0)
    #expect(quick.stdout == parsed.stdout)
    #expect(quick.stdout.contains("\"title\":\"t & u\""))
    let written = try CLI.run("outline", ["convert", "a.outline", "--output=b.json"], in: folder)
    #expect(written.status == 0)
    let file = try String(contentsOf: folder.appendingPathComponent("b.json"), encoding: .utf8)
    #expect(file == quick.stdout)
    let usage = try CLI.run("outline", ["convert", "a.data"], in: folder)
    #expect(usage.status == 2)
    #expect(usage.stderr.contains("Cannot tell the direction from the file names"))
    #expect(usage.stderr.contains("Usage:"))
  }
}
