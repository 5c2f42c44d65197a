import Foundation
import OutlineCore
import TestSupport
import Testing

@testable import OutlineWorkspace

/// OL106 says a model outside the project with every path whole: the one-line rule escapes
/// control characters and never cuts a path; only a path longer than any the system opens
/// (which can name no model) is cut, and says so.
@Suite struct ModelOutsidePathTests {
  @Test func aLongPathIsQuotedWhole() throws {
    let root = try Scratch.folder("outside-path")
    let deep = (0..<8).map { "folder-with-a-long-name-\($0)" }.joined(separator: "/")
    let project = root.appendingPathComponent("project").path
    try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
    let named = "../models/\(deep)/Model.xcdatamodel"
    let reason = try #require(
      ProjectRoot.refusal(modelPath: project + "/" + named, named: named, roots: [project]))
    #expect(reason.contains("'\(named)'"), "\(reason)")
    #expect(reason.contains("'\(project)'"), "\(reason)")
    #expect(!reason.contains("..."), "\(reason)")
    let outside = try #require(
      ProjectRoot.outside(modelPath: project + "/" + named, named: named, roots: [project]))
    #expect(outside.modelFolder == root.appendingPathComponent("models/\(deep)").path)
  }

  @Test func controlCharactersAreEscapedNotCut() {
    let path = "/tmp/a\nb/" + String(repeating: "x", count: 300)
    #expect(ProjectRoot.quoted(path) == "'/tmp/a\\nb/" + String(repeating: "x", count: 300) + "'")
  }

  @Test func aPathLongerThanAnyTheSystemOpensIsCutAndSaysSo() {
    let path = "/" + String(repeating: "y", count: Int(PATH_MAX) + 10)
    let quoted = ProjectRoot.quoted(path)
    #expect(quoted.hasSuffix("...' (a path of \(path.utf8.count) bytes, longer than any the system opens)"))
    #expect(quoted.count < 1100)
  }
}
