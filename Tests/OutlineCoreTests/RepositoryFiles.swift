import Foundation

/// The checkout these tests were built from, read as files: what the map and tidy tests check.
enum RepositoryFiles {
  /// The repository's root folder.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The folders that hold Swift code, relative to the root.
  static let codeFolders = ["Sources", "Tests", "Fuzz"]

  /// The text of a file, by its path relative to the root.
  static func text(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  /// Whether a file or folder exists, by its path relative to the root.
  static func exists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
  }

  /// Every file under a folder (relative to the root), as paths relative to the root, sorted.
  static func files(under folder: String) -> [String] {
    let base = root.appendingPathComponent(folder).path
    guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
    var paths: [String] = []
    while let relative = walker.nextObject() as? String {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: base + "/" + relative, isDirectory: &isFolder),
        !isFolder.boolValue
      {
        paths.append(folder + "/" + relative)
      }
    }
    return paths.sorted()
  }

  /// Every Swift file of the code folders, relative to the root.
  static var swiftFiles: [String] {
    codeFolders.flatMap { files(under: $0) }.filter { $0.hasSuffix(".swift") }
  }

  /// The folders directly inside a folder (relative to the root), sorted.
  static func folders(in folder: String) -> [String] {
    let base = root.appendingPathComponent(folder).path
    let names = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
    return names.filter { name in
      var isFolder: ObjCBool = false
      return FileManager.default.fileExists(atPath: base + "/" + name, isDirectory: &isFolder)
        && isFolder.boolValue
    }.sorted()
  }

  /// The module a file under `Sources/`, `Tests/` or `Fuzz/` belongs to: its second path component.
  static func module(of path: String) -> String {
    let parts = path.split(separator: "/")
    return parts.count > 2 ? String(parts[1]) : ""
  }

  /// The files git tracks, relative to the root; nil when this is not a git checkout.
  static func trackedFiles() -> [String]? {
    guard exists(".git") else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "-C", root.path, "ls-files", "-z"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return output.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
  }

  /// Every word of the code: runs of letters, digits and `_`, and each `_`-separated part of them.
  static func codeWords() throws -> Set<String> {
    var words: Set<String> = []
    for path in swiftFiles + ["Package.swift"] {
      let text = try self.text(path)
      var word = ""
      for scalar in text.unicodeScalars {
        if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" {
          word.unicodeScalars.append(scalar)
        } else if !word.isEmpty {
          words.insert(word)
          for part in word.split(separator: "_") where part.count < word.count { words.insert(String(part)) }
          word = ""
        }
      }
      if !word.isEmpty { words.insert(word) }
    }
    return words
  }
}
