import Foundation

/// The shared corpus's Core Data models, for the tests that run a command
/// over every one: `OUTLINE_CORPUS`, else `shared/corpus` beside the repository.
enum CorpusModels {
  /// The corpus folder.
  static let corpus: URL = {
    if let path = ProcessInfo.processInfo.environment["OUTLINE_CORPUS"], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    return CLI.repository.deletingLastPathComponent().appendingPathComponent("shared/corpus")
  }()

  /// Whether the models are there.
  static var isPresent: Bool {
    FileManager.default.fileExists(atPath: corpus.appendingPathComponent("xcdatamodel").path)
  }

  /// The line a skipped test shows.
  static let absent =
    "the corpus is absent (set OUTLINE_CORPUS to a folder holding xcdatamodel/, or put it at ../shared/corpus)"

  /// Every model: each single `contents` file and `.xcdatamodel`, each
  /// `.xcdatamodeld` bundle (its current version), and every version of a bundle.
  static func all() -> [String] {
    let folder = corpus.appendingPathComponent("xcdatamodel")
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
    var paths: [String] = []
    for name in names.sorted() {
      let path = folder.appendingPathComponent(name).path
      paths.append(path)
      if name.hasSuffix(".xcdatamodeld"),
        let versions = try? FileManager.default.contentsOfDirectory(atPath: path)
      {
        paths += versions.sorted().filter { $0.hasSuffix(".xcdatamodel") }.map { path + "/" + $0 }
      }
    }
    return paths
  }
}
