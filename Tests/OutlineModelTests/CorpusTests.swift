import Foundation
import OutlineCore
import OutlineModel
import OutlineWorkspace
import TestSupport
import Testing

/// The real models of the corpus (`Corpus`): every one loads without a
/// crash, and none that Xcode compiles gets an error.
@Suite(.enabled(if: Corpus.available, Comment(rawValue: Corpus.absent)))
struct CorpusModelTests {
  static let corpus = Corpus.folder("xcdatamodel")

  static func models() -> [String] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: corpus.path) else {
      return []
    }
    var paths: [String] = []
    for name in names.sorted() {
      let path = corpus.appendingPathComponent(name).path
      paths.append(path)
      if name.hasSuffix(".xcdatamodeld"),
        let versions = try? FileManager.default.contentsOfDirectory(atPath: path)
      {
        for version in versions.sorted() where version.hasSuffix(".xcdatamodel") {
          paths.append(path + "/" + version + "/contents")
        }
      }
    }
    return paths
  }

  @Test(arguments: models())
  func loadsWithoutErrors(_ path: String) throws {
    let model = try ModelLocator.load(path: path)
    #expect(model.source.bytes.count > 0)
    let errors = model.diagnostics.filter { $0.severity == .error }
    #expect(errors.isEmpty, "\(errors.map { "\($0.code) \($0.message)" })")
  }

  @Test func bundleVersionFollowsCurrentVersionElseNewest() throws {
    // .xccurrentversion names "Shared 3".
    let belacqua = try ModelLocator.contentsPath(
      for: Self.corpus.appendingPathComponent("Belacqua2000__Classes__Shared.xcdatamodeld").path)
    #expect(belacqua.hasSuffix("Shared 3.xcdatamodel/contents"))
    // An empty .xccurrentversion (<dict/>): the newest version.
    let habitica = try ModelLocator.contentsPath(
      for: Self.corpus.appendingPathComponent("HabitRPG__habitica-ios__Habitica.xcdatamodeld").path)
    #expect(habitica.hasSuffix("Habitica 6.xcdatamodel/contents"))
  }
}
