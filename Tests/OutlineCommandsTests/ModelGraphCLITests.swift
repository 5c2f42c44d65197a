import Foundation
import OutlineModel
import OutlineWorkspace
import TestSupport
import Testing

/// `outline model graph`: DOT that Graphviz draws without a warning, Mermaid that keeps to its syntax.
@Suite struct ModelGraphCLITests {
  /// A program on PATH, or nil.
  static func program(_ name: String) -> String? {
    let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    return paths.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  static let dot = program("dot")
  static let noDot = "Graphviz's dot is not installed (apt-get install graphviz; .ci/setup does)"

  static let handMade = """
    <?xml version="1.0" encoding="UTF-8"?>
    <model>
      <entity name="Node" isAbstract="YES">
        <attribute name="title" optional="YES" attributeType="String"/>
        <relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="children" inverseEntity="Folder"/>
      </entity>
      <entity name="Folder" parentEntity="Node">
        <attribute name="order" attributeType="Integer 64" defaultValueString="0"/>
        <relationship name="children" toMany="YES" ordered="YES" minCount="1" maxCount="20" deletionRule="Cascade" destinationEntity="Node" inverseName="parent" inverseEntity="Node"/>
        <relationship name="owner" maxCount="1" deletionRule="Deny" destinationEntity="Person" inverseName="folders" inverseEntity="Person"/>
      </entity>
      <entity name="Leaf" parentEntity="Node">
        <attribute name="url" attributeType="URI"/>
        <relationship name="seeAlso" optional="YES" toMany="YES" deletionRule="No Action" destinationEntity="Leaf"/>
      </entity>
      <entity name="Person">
        <attribute name="e-mail" optional="YES" attributeType="String"/>
        <relationship name="folders" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Folder" inverseName="owner" inverseEntity="Folder"/>
      </entity>
    </model>
    """

  /// What a drawing of `model` must hold, counted without ModelGraph: one
  /// node per entity, one edge per parent, one per relationship less one per inverse pair.
  static func expected(_ model: Model) -> (nodes: Int, edges: Int) {
    var relationships = 0
    var pairs = 0
    for entity in model.entities {
      if entity.parent != nil { relationships += 1 }
      for relationship in entity.relationships
      where relationship.declaringEntity == entity.name && relationship.destination != nil {
        relationships += 1
        guard let destination = relationship.destination, let inverse = relationship.inverse else { continue }
        let other = model.entities[destination].relationships[inverse]
        if other.inverseName == relationship.name && other.name != relationship.name
          || other.inverseName == relationship.name && other.declaringEntity != entity.name
        {
          pairs += 1
        }
      }
    }
    return (model.entities.count, relationships - pairs / 2)
  }

  /// Runs `dot -Tsvg` on `path`; returns (status, stderr, node count, edge count).
  static func drawn(_ path: URL) throws -> (Int32, String, Int, Int) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: dot!)
    process.arguments = ["-Tsvg", path.path]
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let svg = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let warnings = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (
      process.terminationStatus, warnings, svg.components(separatedBy: "class=\"node\"").count - 1,
      svg.components(separatedBy: "class=\"edge\"").count - 1
    )
  }

  /// Draws `model` (a path in `folder`) as DOT through Graphviz and checks the counts.
  static func checkDOT(_ model: String, arguments: [String] = [], in folder: URL, expecting: Model) throws {
    let output = folder.appendingPathComponent("graph-\(UUID().uuidString).dot")
    let run = try CLI.run(
      "outline", ["model", "graph", model, "--format", "dot", "-o", output.path] + arguments, in: folder)
    #expect(run.status == 0, "\(model): \(run.stderr)")
    let (status, warnings, nodes, edges) = try drawn(output)
    let want = expected(expecting)
    #expect(status == 0 && warnings.isEmpty, "\(model): \(warnings)")
    #expect(nodes == want.nodes && edges == want.edges, "\(model) \(arguments): \(nodes)/\(edges) vs \(want)")
  }

  @Test(.enabled(if: dot != nil, "\(noDot)"))
  func defaultAndHandMadeModelsDrawInGraphviz() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["Hand.xcdatamodel/contents": Self.handMade], in: folder)
    try Self.checkDOT(
      CLI.repository.appendingPathComponent("schema/Outline.xcdatamodeld").path, in: folder,
      expecting: ModelLoader.defaultModel)
    let hand = try ModelLocator.load(path: folder.appendingPathComponent("Hand.xcdatamodel").path)
    #expect(Self.expected(hand) == (4, 5))  // 2 parents, 2 pairs, 1 one-way
    try Self.checkDOT("Hand.xcdatamodel", in: folder, expecting: hand)
    let text = try CLI.run("outline", ["model", "graph", "Hand.xcdatamodel", "--format", "dot"], in: folder)
      .stdout
    #expect(text.contains(#""Folder" -> "Node" [arrowhead=empty];"#))
    #expect(
      text.contains(
        #""Node" -> "Folder" [headlabel="parent 0..1\nNullify", arrowhead=normal, dir=both, taillabel="children 1..20\nCascade, ordered", arrowtail=normalnormal];"#
      ), "\(text)")
    #expect(text.contains(#"<i>Node</i> (abstract)"#) && text.contains("e-mail: String?"))
  }

  @Test func mermaidKeepsToClassDiagramSyntax() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["Hand.xcdatamodel/contents": Self.handMade], in: folder)
    let run = try CLI.run("outline", ["model", "graph", "Hand.xcdatamodel"], in: folder)
    #expect(run.status == 0)
    #expect(
      run.stdout == """
        classDiagram
          direction LR
          class Node {
            <<abstract>>
            +String? title
          }
          class Folder {
            +Integer64 order
          }
          class Leaf {
            +URI url
          }
          class Person {
            +String? e-mail
          }
          Node <|-- Folder
          Node <|-- Leaf
          Node "children 1..20" -- "parent 0..1" Folder : parent Nullify, children Cascade ordered
          Folder "folders 0..*" -- "owner 1" Person : owner Deny, folders Cascade
          Leaf --> "seeAlso 0..*" Leaf : seeAlso No Action

        """)
    let bundle = CLI.repository.appendingPathComponent("schema/Outline.xcdatamodeld").path
    let versioned = try CLI.run(
      "outline", ["model", "graph", bundle, "--model-version", "Outline"], in: folder)
    #expect(
      versioned.status == 0 && versioned.stdout.contains(#"Item "parent 0..1" -- "children 0..*" Item"#))
    let missing = try CLI.run("outline", ["model", "graph", bundle, "--model-version", "Nope"], in: folder)
    #expect(missing.status == 2 && missing.stderr.contains("has no version 'Nope' (it has 'Outline')"))
  }

  /// Every line of a Mermaid class diagram as `outline model graph` writes it.
  static func checkMermaid(_ text: String, model: Model, name: String) {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.first == "classDiagram" && lines.last == "", "\(name)")
    let patterns = [
      #"^  direction LR$"#, #"^  class [A-Za-z_][A-Za-z0-9_]*( \{)?$"#, #"^    <<abstract>>$"#,
      #"^    \+[A-Za-z0-9_]+\??( [A-Za-z0-9_.?-]+)+$"#, #"^  \}$"#,
      #"^  [A-Za-z_][A-Za-z0-9_]* <\|-- [A-Za-z_][A-Za-z0-9_]*$"#,
      #"^  [A-Za-z_][A-Za-z0-9_]* "[A-Za-z0-9_.?-]+ [0-9*.]+" -- "[A-Za-z0-9_.?-]+ [0-9*.]+" [A-Za-z_][A-Za-z0-9_]* : [A-Za-z0-9_ ,.?-]+$"#,
      #"^  [A-Za-z_][A-Za-z0-9_]* --> "[A-Za-z0-9_.?-]+ [0-9*.]+" [A-Za-z_][A-Za-z0-9_]* : [A-Za-z0-9_ ,.?-]+$"#,
    ].map { try! Regex($0) }
    for line in lines.dropFirst().dropLast() {
      #expect(patterns.contains { line.wholeMatch(of: $0) != nil }, "\(name): \(line)")
    }
    let classes = lines.filter { $0.hasPrefix("  class ") }.count
    #expect(classes == model.entities.count, "\(name)")
    let links = lines.filter { $0.contains(" -- ") || $0.contains(" --> ") || $0.contains(" <|-- ") }.count
    #expect(links == expected(model).edges, "\(name)")
  }

  @Test(.enabled(if: Corpus.available, Comment(rawValue: Corpus.absent)))
  func everyCorpusModelAndVersionDraws() throws {
    let folder = try CLI.temporaryFolder()
    var drawnCount = 0
    for path in Corpus.models() {
      // A version inside a bundle is drawn through --model-version, as a user names it.
      var model = path
      var arguments: [String] = []
      let url = URL(fileURLWithPath: path)
      if url.pathExtension == "xcdatamodel" && url.deletingLastPathComponent().pathExtension == "xcdatamodeld"
      {
        model = url.deletingLastPathComponent().path
        arguments = ["--model-version", url.deletingPathExtension().lastPathComponent]
      }
      let loaded = try ModelLocator.load(path: path)
      if loaded.hasErrors { continue }
      let mermaid = try CLI.run("outline", ["model", "graph", model] + arguments, in: folder)
      #expect(mermaid.status == 0, "\(path): \(mermaid.stderr)")
      Self.checkMermaid(mermaid.stdout, model: loaded, name: path)
      if Self.dot != nil {
        try Self.checkDOT(model, arguments: arguments, in: folder, expecting: loaded)
      }
      drawnCount += 1
    }
    #expect(drawnCount >= 40)
    if Self.dot == nil { print("note: \(Self.noDot); the corpus DOT checks did not run") }
  }
}
