import Foundation
import JSONRPC
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

@testable import OutlineLSP

/// Renaming a model property from an outline or from the model file, in process:
/// the model (with its `renamingIdentifier`) and every outline of the folder
/// for the current version, open ones as the editor has them.
@Suite struct RenameFeatureTests {
  static let open = """
    <outline version="1" 5️⃣model="Tasks.xcdatamodeld" modelVersion="Tasks 4" title="Home" owner="me">
      <Label xml:id="l1" name="home"/>
      <6️⃣Task title="A" order="0" owner="me" 1️⃣label="l2️⃣1" 3️⃣summary="4️⃣s"/>
    </outline>

    """
  static let closed = """
    <outline version="1" model="Tasks.xcdatamodeld" title="Home" owner="me">
      <Label xml:id="x" name="x"/>
      <Task title="B" order="0" owner="me" summary="t" label="x"/>
    </outline>

    """

  let folder: URL
  let session = Session()

  init() throws {
    folder = Scratch.url("rename-lsp")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: VersionFeaturesTests.fixtures.appendingPathComponent("Tasks.xcdatamodeld"),
      to: folder.appendingPathComponent("Tasks.xcdatamodeld"))
    try FileManager.default.copyItem(
      at: VersionFeaturesTests.fixtures.appendingPathComponent("v1.outline"),
      to: folder.appendingPathComponent("old.outline"))
    try Data(Self.closed.utf8).write(to: folder.appendingPathComponent("closed.outline"))
    // On disk the open document says something else: the editor's text counts.
    try Data("<outline/>\n".utf8).write(to: folder.appendingPathComponent("open.outline"))
  }

  var contents: URL { folder.appendingPathComponent("Tasks.xcdatamodeld/Tasks 4.xcdatamodel/contents") }

  func feature(_ open: [Snapshot], documentChanges: Bool = true) -> RenameFeature {
    RenameFeature(
      workspace: ModelReferences(
        mapper: session.mapper, folders: [folder.path], open: open, store: session.store,
        findOutlines: WorkspaceDiagnosticsTests.search),
      workspaceEdits: WorkspaceEdits(documentChanges: documentChanges))
  }

  func rename(_ feature: RenameFeature, _ uri: String, _ position: LSP.Position, to name: String) throws
    -> LSP.WorkspaceEdit
  {
    try feature.rename(
      LSP.RenameParams(textDocument: .init(uri: uri), position: position, newName: name),
      context: RequestContext(cancellation: CancellationFlag(), notify: { _, _ in }))
  }

  /// `edits` applied to `text`.
  func apply(_ edits: [LSP.TextEdit], to text: String) -> String {
    let source = SourceText(text)
    let textEdits = edits.map {
      TextEdit(range: session.mapper.textRange($0.range, in: source)!, newText: $0.newText)
    }
    return String(decoding: TextEdit.apply(textEdits, to: source.bytes)!, as: UTF8.self)
  }

  func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

  @Test func anAttributeNameInAnOutlineRenamesInTheModelAndEveryOutline() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let (snapshot, marks) = session.open(
      Self.open, uri: folder.appendingPathComponent("open.outline").absoluteString)
    let feature = feature([snapshot])
    let at = session.position(marks[2] + 2, in: snapshot)
    let prepared = try #require(try feature.prepare(uri: snapshot.uri, position: at))
    #expect(prepared.placeholder == "summary")
    #expect(session.offset(prepared.range.start, in: snapshot) == marks[2])
    let edit = try rename(feature, snapshot.uri, at, to: "details")
    let byURI = Dictionary(
      uniqueKeysWithValues: (edit.documentChanges ?? []).map { ($0.textDocument.uri, $0) })
    #expect(byURI.count == 3, "\(byURI.keys.sorted())")
    let model = try #require(byURI[contents.absoluteString])
    #expect(model.textDocument.version == nil)
    #expect(
      apply(model.edits, to: try text(contents)).contains(
        "<attribute name=\"details\" optional=\"YES\" attributeType=\"String\" renamingIdentifier=\"note\"/>")
    )
    let open = try #require(byURI[snapshot.uri])
    #expect(open.textDocument.version == 1)
    #expect(
      session.apply(open.edits, to: snapshot)
        == Marked(Self.open).text.replacingOccurrences(of: "summary=", with: "details="))
    let closed = try #require(byURI[folder.appendingPathComponent("closed.outline").absoluteString])
    #expect(
      apply(closed.edits, to: Self.closed)
        == Self.closed.replacingOccurrences(of: "summary=", with: "details="))
    // old.outline is for 'Tasks': left for migrate.
    #expect(byURI[folder.appendingPathComponent("old.outline").absoluteString] == nil)

    // A client without documentChanges gets the same edits by URI.
    let plain = try rename(self.feature([snapshot], documentChanges: false), snapshot.uri, at, to: "details")
    #expect(plain.documentChanges == nil && plain.changes?.count == 3)
    #expect(plain.changes?[snapshot.uri] == open.edits)
  }

  @Test func aRelationshipNameInTheModelFileRenamesItsInverseAndItsUses() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let (snapshot, _) = session.open(
      Self.open, uri: folder.appendingPathComponent("open.outline").absoluteString)
    let modelText = try text(contents)
    let offset = Array(modelText.utf8).firstRange(of: Array("name=\"label\"".utf8))!.lowerBound + 7
    let at = session.mapper.position(offset, in: SourceText(modelText))
    let edit = try rename(feature([snapshot]), contents.absoluteString, at, to: "tag")
    let byURI = Dictionary(
      uniqueKeysWithValues: (edit.documentChanges ?? []).map { ($0.textDocument.uri, $0.edits) })
    let renamed = apply(try #require(byURI[contents.absoluteString]), to: modelText)
    #expect(renamed.contains("<relationship name=\"tag\"") && renamed.contains("inverseName=\"tag\""))
    #expect(renamed.contains("renamingIdentifier=\"labels\""))
    #expect(session.apply(try #require(byURI[snapshot.uri]), to: snapshot).contains("tag=\"l1\""))
    let closed = try #require(byURI[folder.appendingPathComponent("closed.outline").absoluteString])
    #expect(apply(closed, to: Self.closed).contains("tag=\"x\""))
    // The model file open in the editor with unsaved changes: its text counts.
    let edited = modelText.replacingOccurrences(
      of: "<entity name=\"Task\"", with: "<!-- moved -->\n    <entity name=\"Task\"")
    let modelSnapshot = session.store.open(uri: contents.absoluteString, version: 7, text: edited)
    let shifted = Array(edited.utf8).firstRange(of: Array("name=\"label\"".utf8))!.lowerBound + 7
    let openEdit = try rename(
      feature([snapshot, modelSnapshot]), contents.absoluteString,
      session.mapper.position(shifted, in: SourceText(edited)), to: "tag")
    let modelChange = try #require(
      openEdit.documentChanges?.first { $0.textDocument.uri == contents.absoluteString })
    #expect(modelChange.textDocument.version == 7)
    #expect(apply(modelChange.edits, to: edited).contains("<!-- moved -->\n    <entity name=\"Task\""))
    #expect(apply(modelChange.edits, to: edited).contains("<relationship name=\"tag\""))
  }

  @Test func anythingElseIsRefusedSayingWhy() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let (snapshot, marks) = session.open(
      Self.open, uri: folder.appendingPathComponent("open.outline").absoluteString)
    let feature = feature([snapshot])
    func refusal(_ offset: Int, _ name: String = "other") -> String {
      do {
        _ = try rename(feature, snapshot.uri, session.position(offset, in: snapshot), to: name)
        return "renamed"
      } catch let error as ResponseError {
        return error.message
      } catch {
        return "\(error)"
      }
    }
    #expect(refusal(marks[3]).contains("A value cannot be renamed"))
    #expect(refusal(marks[4] + 1).contains("format attributes cannot be renamed"))
    #expect(refusal(marks[5] + 1, "Label").contains("the model already has an entity named 'Label'"))
    #expect(refusal(marks[2] + 1, "title").contains("'Task' already has a property named 'title'"))
    #expect(refusal(marks[2] + 1, "not a name").contains("not an XML name"))
    // An id still renames in its document.
    let prepared = try feature.prepare(uri: snapshot.uri, position: session.position(marks[1], in: snapshot))
    #expect(prepared?.placeholder == "l1")
    let ids = try rename(feature, snapshot.uri, session.position(marks[1], in: snapshot), to: "home")
    #expect(session.apply(ids, to: snapshot).contains("<Label xml:id=\"home\"") == true)
  }

  @Test func anElementNameRenamesTheEntityAndEveryReferenceToIt() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let (snapshot, marks) = session.open(
      Self.open, uri: folder.appendingPathComponent("open.outline").absoluteString)
    let feature = feature([snapshot])
    let at = session.position(marks[5] + 2, in: snapshot)
    #expect(try feature.prepare(uri: snapshot.uri, position: at)?.placeholder == "Task")
    let edit = try rename(feature, snapshot.uri, at, to: "Job")
    let byURI = Dictionary(
      uniqueKeysWithValues: (edit.documentChanges ?? []).map { ($0.textDocument.uri, $0.edits) })
    let model = apply(try #require(byURI[contents.absoluteString]), to: try text(contents))
    #expect(model.contains("<entity name=\"Job\" renamingIdentifier=\"Task\" representedClassName=\"Task\""))
    #expect(!model.contains("Entity=\"Task\""))
    #expect(model.contains("destinationEntity=\"Job\" inverseName=\"label\" inverseEntity=\"Job\""))
    #expect(
      session.apply(try #require(byURI[snapshot.uri]), to: snapshot)
        == Marked(Self.open).text.replacingOccurrences(of: "<Task ", with: "<Job "))
    let closed = try #require(byURI[folder.appendingPathComponent("closed.outline").absoluteString])
    #expect(apply(closed, to: Self.closed) == Self.closed.replacingOccurrences(of: "<Task ", with: "<Job "))
  }
}
