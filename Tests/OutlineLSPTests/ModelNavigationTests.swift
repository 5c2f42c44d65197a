import Foundation
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

@testable import OutlineLSP

/// From an outline to its model and back, on a bundle whose current version is the second.
@Suite struct ModelNavigationTests {
  static let version1 = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model>
      <entity name="Tag">
        <attribute name="name" attributeType="String"/>
      </entity>
    </model>
    """
  static let version2 = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model>
      <entity name="Tag">
        <attribute name="name" attributeType="String"/>
        <attribute name="colour" optional="YES" attributeType="String"/>
        <relationship name="next" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Tag"/>
      </entity>
    </model>
    """
  static let current = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>M 2.xcdatamodel</string></dict></plist>
    """
  static let outline = """
    <outline 1️⃣model="M.xcdatamodeld">
      <2️⃣Tag name="a" 3️⃣colour="red" xml:id="a"/>
      <Tag name="b" 4️⃣next="a"/>
    </outline>

    """

  let folder: URL
  let session = Session()

  init() throws {
    folder = Scratch.url("model-nav")
    for (path, text) in [
      "M.xcdatamodeld/M.xcdatamodel/contents": Self.version1,
      "M.xcdatamodeld/M 2.xcdatamodel/contents": Self.version2,
      "M.xcdatamodeld/.xccurrentversion": Self.current,
      "t.outline": Marked(Self.outline).text,
      "other.outline":
        "<outline model=\"M.xcdatamodeld\">\n  <Tag name=\"z\" colour=\"blue\"/>\n</outline>\n",
    ] {
      let url = folder.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
  }

  var contents: URL { folder.appendingPathComponent("M.xcdatamodeld/M 2.xcdatamodel/contents") }

  /// The 0-based line of `needle` in version 2.
  static func line(of needle: String) -> Int {
    Self.version2.components(separatedBy: "\n").firstIndex { $0.contains(needle) }!
  }

  func open() -> (Snapshot, [Int]) {
    session.open(Self.outline, uri: folder.appendingPathComponent("t.outline").absoluteString)
  }

  @Test func theModelAttributeLinksToTheCurrentVersion() {
    defer { try? FileManager.default.removeItem(at: folder) }
    let (snapshot, marks) = open()
    let links = ModelNavigationFeature(mapper: session.mapper).links(snapshot)
    #expect(links.count == 1)
    #expect(
      links.first?.target.flatMap { URL(string: $0)?.standardizedFileURL } == contents.standardizedFileURL)
    let start = links.first.flatMap { session.offset($0.range.start, in: snapshot) }
    #expect(start == marks[0] + "model=\"".utf8.count)
  }

  @Test func namesLeadToTheirDeclarations() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let (snapshot, marks) = open()
    let navigation = NavigationFeature(mapper: session.mapper)
    let entity = try navigation.definition(snapshot, session.at(marks[1] + 1, in: snapshot))
    #expect(entity.flatMap { URL(string: $0.uri)?.standardizedFileURL } == contents.standardizedFileURL)
    #expect(entity?.range.start.line == Self.line(of: "<entity name=\"Tag\""))
    let attribute = try navigation.definition(snapshot, session.at(marks[2] + 2, in: snapshot))
    #expect(attribute?.range.start.line == Self.line(of: "name=\"colour\""))
    #expect(attribute.map { $0.range.end.character - $0.range.start.character } == "colour".count)
    let relationship = try navigation.definition(snapshot, session.at(marks[3], in: snapshot))
    #expect(relationship?.range.start.line == Self.line(of: "name=\"next\""))
    // An id still leads to its object.
    let id = try navigation.definition(snapshot, session.at(marks[3] + "next=\"".utf8.count, in: snapshot))
    #expect(id?.uri == snapshot.uri)

    let types = ModelNavigationFeature(mapper: session.mapper)
    #expect(
      try types.typeDefinition(snapshot, session.at(marks[3], in: snapshot))?.range.start.line
        == Self.line(of: "<entity name=\"Tag\""))
    #expect(
      try types.typeDefinition(snapshot, session.at(marks[2] + 2, in: snapshot))?.range.start.line
        == Self.line(of: "<entity name=\"Tag\""))

    let hover = try HoverFeature(mapper: session.mapper).hover(
      snapshot, session.at(marks[2] + 2, in: snapshot))
    #expect(
      hover?.contents.value.contains(
        "declared at [M 2.xcdatamodel/contents:\(Self.line(of: "name=\"colour\"") + 1)]") == true)
  }

  @Test func aModelAttributeFindsEveryUseInTheWorkspace() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let (snapshot, marks) = open()
    let references = ModelReferences(
      mapper: session.mapper, folders: [folder.path], open: [snapshot], store: session.store,
      findOutlines: WorkspaceDiagnosticsTests.search)
    let modelText = SourceText(Self.version2)
    let colour = Array(Self.version2.utf8).firstRange(of: Array("colour".utf8))!.lowerBound
    let at = PositionMapper(unit: .utf16).position(colour, in: modelText)
    let found = try references.references(
      path: contents.path, position: at, includeDeclaration: true, context: .detached)
    let byFile = Dictionary(grouping: found) { URL(string: $0.uri)!.lastPathComponent }
    #expect(byFile["contents"]?.count == 1)
    #expect(byFile["t.outline"]?.map { session.offset($0.range.start, in: snapshot) } == [marks[2]])
    #expect(byFile["other.outline"]?.count == 1)
    // The entity: every element of it.
    let tag = PositionMapper(unit: .utf16).position(
      Array(Self.version2.utf8).firstRange(of: Array("Tag".utf8))!.lowerBound, in: modelText)
    let elements = try references.references(
      path: contents.path, position: tag, includeDeclaration: false, context: .detached)
    #expect(elements.count == 3)
  }

  /// The shipped default model is embedded: nothing leads to a file named like its display path.
  @Test func theDefaultModelHasNoFileToLeadTo() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let (snapshot, marks) = session.open(
      "<outline>\n  <1️⃣Item order=\"0\" 2️⃣title=\"a\"/>\n</outline>\n",
      uri: folder.appendingPathComponent("d.outline").absoluteString)
    let navigation = NavigationFeature(mapper: session.mapper)
    #expect(try navigation.definition(snapshot, session.at(marks[0] + 1, in: snapshot)) == nil)
    let types = ModelNavigationFeature(mapper: session.mapper)
    #expect(try types.typeDefinition(snapshot, session.at(marks[1] + 1, in: snapshot)) == nil)
    let hover = try HoverFeature(mapper: session.mapper).hover(
      snapshot, session.at(marks[1] + 1, in: snapshot))
    #expect(hover?.contents.value.contains("title") == true)
    #expect(hover?.contents.value.contains("declared at") == false, "\(hover?.contents.value ?? "")")
  }
}
