import Foundation

/// The optional corpus of real Core Data models (`xcdatamodel/`) and OPML
/// files (`opml/`) that some tests read. It is not part of the repository:
/// `OUTLINE_CORPUS` names it, else a `shared/corpus` folder beside the
/// checkout is used when there is one. Tests that need it are skipped with
/// `Corpus.absent` when it is missing, so a fresh clone passes on its own.
public enum Corpus {
  /// The corpus folder, when there is one.
  public static let root: URL? = {
    let fileManager = FileManager.default
    if let named = ProcessInfo.processInfo.environment["OUTLINE_CORPUS"], !named.isEmpty {
      return fileManager.fileExists(atPath: named) ? URL(fileURLWithPath: named) : nil
    }
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let beside = repository.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    return fileManager.fileExists(atPath: beside.path) ? beside : nil
  }()

  /// Whether the corpus is there.
  public static var available: Bool { root != nil }

  /// The one line a skipped corpus test prints.
  public static let absent =
    "the corpus of real models and OPML files is absent: set OUTLINE_CORPUS to a folder holding xcdatamodel/ and opml/ to run this test"

  /// `xcdatamodel` or `opml` inside the corpus (a path that does not exist when the corpus is absent).
  public static func folder(_ name: String) -> URL {
    (root ?? URL(fileURLWithPath: "/nonexistent-outline-corpus")).appendingPathComponent(name)
  }

  /// Every model of the corpus: each `contents` file, `.xcdatamodel` and
  /// `.xcdatamodeld` bundle (its current version), then each version of a
  /// bundle as `Bundle.xcdatamodeld/Version.xcdatamodel`; empty when absent.
  public static func models() -> [String] {
    let models = folder("xcdatamodel")
    var paths: [String] = []
    for name in names(in: "xcdatamodel") {
      let path = models.appendingPathComponent(name).path
      paths.append(path)
      if name.hasSuffix(".xcdatamodeld"),
        let versions = try? FileManager.default.contentsOfDirectory(atPath: path)
      {
        paths += versions.sorted().filter { $0.hasSuffix(".xcdatamodel") }.map { path + "/" + $0 }
      }
    }
    return paths
  }

  /// The names in `folder(name)` ending in `suffix`, sorted; empty when absent.
  public static func names(in name: String, suffix: String = "") -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder(name).path)) ?? []
    return names.filter { $0.hasSuffix(suffix) && !$0.hasPrefix(".") }.sorted()
  }
}
