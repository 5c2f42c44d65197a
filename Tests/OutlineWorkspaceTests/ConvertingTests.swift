import Foundation
import OutlineCore
import OutlineFiles
import OutlineModel
import TestSupport
import Testing

@testable import OutlineWorkspace

/// `Conversion`, the one sequence behind `outline convert` and `outline export`, driven in process.
@Suite struct ConvertingTests {
  /// An output in memory that records what the sequence does to it.
  final class Collected: ConversionOutput {
    var bytes: [UInt8] = []
    var resets = 0
    var discards = 0

    func write(_ bytes: [UInt8]) { self.bytes += bytes }

    func discard() { discards += 1 }

    func reset() {
      bytes.removeAll()
      resets += 1
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }
  }

  /// Children out of order, so the JSON is written a second time, from the tree.
  static let outline = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1" title="T">
      <Item title="b &amp; c" order="1"/>
      <Item title="a" order="0">
        <Item title="x" order="0"/>
      </Item>
    </outline>

    """

  static let json = """
    {"@outline":1,"@entity":"Item","title":"T","children":[
    {"@entity":"Item","order":0,"title":"a","children":[
    {"@entity":"Item","order":0,"title":"x"}
    ]},
    {"@entity":"Item","order":1,"title":"b & c"}
    ]}

    """

  static let canonical = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1" title="T">
      <Item order="0" title="a">
        <Item order="0" title="x"/>
      </Item>
      <Item order="1" title="b &amp; c"/>
    </outline>

    """

  static func file(_ name: String, _ text: String) throws -> String {
    let folder = Scratch.url("converting-tests")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent(name).path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// An outline in the OPML model (what export writes), children out of order, beside a copy
  /// of that model.
  static func opmlFile(_ name: String) throws -> String {
    let folder = Scratch.url("converting-tests")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("OPML.xcdatamodel"), withIntermediateDirectories: true)
    try Data(ShippedModels.opml.utf8).write(to: folder.appendingPathComponent("OPML.xcdatamodel/contents"))
    let outline = Self.outline.replacingOccurrences(of: "<Item", with: "<Outline")
      .replacingOccurrences(of: "</Item>", with: "</Outline>").replacingOccurrences(
        of: "version=\"1\"", with: "version=\"1\" model=\"OPML.xcdatamodel\"")
    let path = folder.appendingPathComponent(name).path
    try Data(outline.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  static func conversion(_ path: String, to target: Conversion.Target) -> Conversion {
    Conversion(
      input: path, target: target, modelOverride: nil, configurations: ConfigurationFinder(),
      models: ModelCache(), limit: InputFile.defaultLimit)
  }

  /// Runs `conversion`, counting the configurations reported and the outputs opened.
  static func run(_ conversion: Conversion) throws -> (output: Collected, reports: Int, opened: Int) {
    var reports = 0
    var opened = 0
    let output = try conversion.run(
      reportingConfiguration: { _ in
        reports += 1
        return false
      },
      opening: {
        opened += 1
        return Collected()
      })
    return (output, reports, opened)
  }

  @Test func outOfOrderChildrenAreWrittenAgainInOrder() throws {
    let (output, reports, opened) = try Self.run(
      Self.conversion(try Self.file("a.outline", Self.outline), to: .json))
    #expect(output.text == Self.json)
    #expect(output.resets == 1)
    #expect(reports == 1 && opened == 1)
  }

  @Test func theJSONFormBecomesCanonicalXML() throws {
    let (output, reports, opened) = try Self.run(
      Self.conversion(try Self.file("a.json", Self.json), to: .xml))
    #expect(output.text == Self.canonical)
    #expect(output.resets == 0)
    #expect(reports == 1 && opened == 1)
  }

  @Test func exportWritesOPMLInOrderOrder() throws {
    let (output, _, opened) = try Self.run(Self.conversion(try Self.opmlFile("a.outline"), to: .opml))
    #expect(output.text.contains("<outline title=\"a\">\n      <outline title=\"x\"/>"))
    #expect(output.text.hasSuffix("<outline title=\"b &amp; c\"/>\n  </body>\n</opml>\n"))
    #expect(opened == 1)
  }

  @Test(arguments: [Conversion.Target.json, .opml])
  func documentErrorsAreThrownWithTheirLines(target: Conversion.Target) throws {
    let duplicate = Self.outline.replacingOccurrences(of: "order=\"1\"", with: "order=\"0\"")
    let conversion = Self.conversion(try Self.file("bad.outline", duplicate), to: target)
    do {
      _ = try Self.run(conversion)
      Issue.record("a document with errors converted")
    } catch Conversion.Failure.documentErrors(let errors, let lines, let broken) {
      #expect(errors.map(\.code) == [.duplicateOrder])
      #expect(lines.lineBytes(0) == Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>".utf8))
      #expect(!broken)
    }
  }

  @Test func jsonThatIsNotTheFormIsRefusedWithItsBytes() throws {
    let conversion = Self.conversion(try Self.file("bad.json", "[1]"), to: .xml)
    do {
      _ = try Self.run(conversion)
      Issue.record("an array converted")
    } catch Conversion.Failure.notJSONForm(_, let bytes) {
      #expect(bytes.view.array == Array("[1]".utf8))
    }
  }

  /// A document OPML cannot carry back (here, in the default model: `Item` objects) is refused
  /// with each place, before an output is opened.
  @Test func exportRefusesWhatOPMLCannotCarryBackAndOpensNoOutput() throws {
    var opened = 0
    let conversion = Self.conversion(try Self.file("a.outline", Self.outline), to: .opml)
    do {
      _ = try conversion.run(
        reportingConfiguration: { _ in false },
        opening: { () -> Collected in
          opened += 1
          return Collected()
        })
      Issue.record("an outline of Item objects exported")
    } catch Conversion.Failure.notExpressibleInOPML(let problems, let source) {
      #expect(problems.map { source.string(in: $0.range) } == ["outline", "Item"])
      #expect(problems[1].message.hasSuffix("(and 2 more places like it)"))
    }
    #expect(opened == 0)
  }

  @Test(arguments: [Conversion.Target.json, .xml, .opml])
  func aMissingInputOpensNoOutput(target: Conversion.Target) throws {
    var opened = 0
    let conversion = Self.conversion("/nonexistent/converting-tests/in", to: target)
    do {
      _ = try conversion.run(
        reportingConfiguration: { _ in false },
        opening: { () -> Collected in
          opened += 1
          return Collected()
        })
      Issue.record("a missing file converted")
    } catch Conversion.Failure.unreadableInput(let error) {
      #expect(error.description.contains("/nonexistent/converting-tests/in"))
    }
    // JSON output is opened first (it is written while the input streams); the others only once the input is read.
    #expect(opened == (target == .json ? 1 : 0))
  }

  @Test(arguments: [Conversion.Target.json, .opml])
  func aFailedConversionDiscardsTheOutputItOpened(target: Conversion.Target) throws {
    let duplicate = Self.outline.replacingOccurrences(of: "order=\"1\"", with: "order=\"0\"")
    let conversion = Self.conversion(try Self.file("bad.outline", duplicate), to: target)
    let output = Collected()
    var opened = false
    #expect(throws: Conversion.Failure.self) {
      _ = try conversion.run(
        reportingConfiguration: { _ in false },
        opening: {
          opened = true
          return output
        })
    }
    // JSON is written while the input streams, so its output is opened first and must be
    // discarded; OPML is written after the check, so a failure never opens it.
    #expect(opened == (target == .json))
    #expect(output.discards == (opened ? 1 : 0))
    // A conversion that succeeds keeps its output.
    let good = Collected()
    let input =
      target == .opml ? try Self.opmlFile("good.outline") : try Self.file("good.outline", Self.outline)
    _ = try Self.conversion(input, to: target).run(
      reportingConfiguration: { _ in false }, opening: { good })
    #expect(good.discards == 0 && !good.bytes.isEmpty)
  }
}
