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

  /// Every model and every version's `contents`.
  static func models() -> [String] {
    Corpus.models().map {
      $0.hasSuffix(".xcdatamodel") && $0.contains(".xcdatamodeld/") ? $0 + "/contents" : $0
    }
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
