import Foundation

/// A test's own folder of files, named by the suite (made under TestSupport's `Scratch`), and
/// the helpers the file-writing suites share to put and read them back.
protocol FolderFixture {
  var folder: String { get }
}

extension FolderFixture {
  func path(_ name: String) -> String { folder + "/" + name }

  func put(_ text: String, _ name: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path(name)))
  }

  func text(_ name: String) -> String? {
    FileManager.default.contents(atPath: path(name)).map { String(decoding: $0, as: UTF8.self) }
  }
}
