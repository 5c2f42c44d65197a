import Foundation
import OutlineCore
import OutlineFiles
import TestSupport
import Testing

@testable import OutlineWorkspace

/// A model `.outline.json` names outside the project is refused (OL106) and is trouble of the
/// run, as a model it names that cannot be read is; one the document's own `model` attribute
/// names there stays the document's error.
@Suite struct RefusedModelTests {
  static let model = """
    <model><entity name="Item"><attribute name="order" attributeType="Integer 64" defaultValueString="0"/></entity></model>
    """

  /// A project `proj` whose configuration says `configuration`, beside `models/M.xcdatamodel`;
  /// the path of `proj/name` holding `text`.
  static func project(configuration: String, _ name: String, _ text: String) throws -> String {
    let root = try Scratch.folder("refused-model")
    for (path, contents) in [
      "models/M.xcdatamodel/contents": model, "proj/.outline.json": configuration, "proj/\(name)": text,
    ] {
      let url = root.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(contents.utf8).write(to: url)
    }
    return root.appendingPathComponent("proj/\(name)").path
  }

  static func check(_ path: String) throws -> DocumentCheck {
    try DocumentCheck.stream(
      path: path, modelOverride: nil, configurations: ConfigurationFinder(), models: ModelCache()
    ).0
  }

  @Test func aModelTheConfigurationNamesOutsideIsTheRunsTrouble() throws {
    let path = try Self.project(
      configuration: #"{"model": "../models/M.xcdatamodel"}"#, "a.outline",
      "<outline><Item order=\"0\"/></outline>")
    let check = try Self.check(path)
    #expect(check.unreadableModelOrigin == .configuration)
    #expect(check.namedModelIsUnreadable)
    let diagnostic = try #require(check.unreadableNamedModel)
    #expect(diagnostic.code == .modelOutsideProject)
    #expect(diagnostic.message.hasPrefix("The model '../models/M.xcdatamodel' is outside the project"))
  }

  @Test func aModelTheDocumentNamesOutsideIsItsOwnError() throws {
    let path = try Self.project(
      configuration: "{}", "a.outline",
      "<outline model=\"../../models/M.xcdatamodel\"><Item order=\"0\"/></outline>")
    let check = try Self.check(path)
    #expect(check.unreadableModelOrigin == .document)
    #expect(!check.namedModelIsUnreadable)
    #expect(check.unreadableNamedModel == nil)
    #expect(check.diagnostics.map(\.code) == [.modelOutsideProject])
  }

  @Test func theJSONFormIsCheckedAndConvertedAlike() throws {
    let path = try Self.project(
      configuration: #"{"model": "../models/M.xcdatamodel"}"#, "b.outline.json",
      #"{"children":[{"@entity":"Item","order":0}]}"#)
    let bytes = ByteBuffer(copying: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    let check = DocumentCheck.runJSON(
      bytes, path: path, modelOverride: nil, configurations: ConfigurationFinder(), models: ModelCache())
    #expect(check.namedModelIsUnreadable)
    #expect(check.unreadableNamedModel?.code == .modelOutsideProject)
    let conversion = Conversion(
      input: path, target: .xml, modelOverride: nil, configurations: ConfigurationFinder(),
      models: ModelCache(),
      limit: InputFile.defaultLimit)
    do {
      _ = try conversion.run(reportingConfiguration: { _ in false }, opening: { ConvertingTests.Collected() })
      Issue.record("converted with a refused model")
    } catch Conversion.Failure.refusedNamedModel(let reason) {
      #expect(reason.hasPrefix("The model '../models/M.xcdatamodel' is outside the project"))
    }
  }

  @Test func anXMLConversionStopsTheSameWay() throws {
    let path = try Self.project(
      configuration: #"{"model": "../models/M.xcdatamodel"}"#, "a.outline",
      "<outline><Item order=\"0\"/></outline>")
    let conversion = Conversion(
      input: path, target: .json, modelOverride: nil, configurations: ConfigurationFinder(),
      models: ModelCache(),
      limit: InputFile.defaultLimit)
    do {
      _ = try conversion.run(reportingConfiguration: { _ in false }, opening: { ConvertingTests.Collected() })
      Issue.record("converted with a refused model")
    } catch Conversion.Failure.refusedNamedModel(let reason) {
      #expect(reason.hasPrefix("The model '../models/M.xcdatamodel' is outside the project"))
    }
  }
}
