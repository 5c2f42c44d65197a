import Foundation
import OutlineCore
import OutlineModel

/// Why a model could not be read.
public struct ModelLoadError: Error, CustomStringConvertible, Sendable {
  /// What went wrong, naming the path.
  public let description: String
}

/// Finds and reads model files: a `contents` file, a `.xcdatamodel` folder or
/// a `.xcdatamodeld` bundle, as Xcode lays them out.
public enum ModelLocator {
  /// The `contents` file a model path stands for.
  ///
  /// A bundle's version is the one `.xccurrentversion` names; when that file
  /// is missing, empty (`<dict/>`) or names a version that is not there, the
  /// only version, else the newest by numeric name order.
  public static func contentsPath(for path: String) throws -> String {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw ModelLoadError(description: "model '\(path)' does not exist")
    }
    if !isDirectory.boolValue { return path }
    let url = URL(fileURLWithPath: path)
    if url.pathExtension == "xcdatamodeld" {
      let versions =
        (try? FileManager.default.contentsOfDirectory(atPath: path))?
        .filter { $0.hasSuffix(".xcdatamodel") }
        .sorted { versionKey($0) < versionKey($1) } ?? []
      guard !versions.isEmpty else {
        throw ModelLoadError(description: "model bundle '\(path)' holds no .xcdatamodel version")
      }
      var chosen = versions[versions.count - 1]
      if let current = currentVersionName(inBundle: path), versions.contains(current) {
        chosen = current
      }
      return join(path, chosen, "contents")
    }
    let contents = join(path, "contents")
    guard FileManager.default.fileExists(atPath: contents) else {
      throw ModelLoadError(description: "model folder '\(path)' has no 'contents' file")
    }
    return contents
  }

  /// Joins path components without resolving them, so output keeps the user's spelling.
  static func join(_ parts: String...) -> String {
    parts.dropFirst().reduce(parts[0]) { $0.hasSuffix("/") ? $0 + $1 : $0 + "/" + $1 }
  }

  /// Orders versions as Xcode numbers them: `Model`, `Model 2`, ... `Model 10`
  /// (a name without a number is the first version).
  static func versionKey(_ name: String) -> (Int, String) {
    let stem = name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
    let digits = stem.reversed().prefix { $0.isNumber }
    let separator = stem.dropLast(digits.count).last
    guard !digits.isEmpty, separator == " " || separator == "_" || separator == "-" || separator == "v",
      let number = Int(String(digits.reversed()))
    else { return (1, name) }
    return (number, name)
  }

  /// `_XCCurrentVersionName` from a bundle's `.xccurrentversion` property list.
  ///
  /// The plist carries a DOCTYPE, which the XML parser refuses on principle,
  /// so the one key is read as text.
  static func currentVersionName(inBundle path: String) -> String? {
    let plist = URL(fileURLWithPath: path).appendingPathComponent(".xccurrentversion")
    guard let data = try? Data(contentsOf: plist), let text = String(data: data, encoding: .utf8),
      let key = text.range(of: "<key>_XCCurrentVersionName</key>"),
      let open = text.range(of: "<string>", range: key.upperBound..<text.endIndex),
      let close = text.range(of: "</string>", range: open.upperBound..<text.endIndex)
    else { return nil }
    let name = String(text[open.upperBound..<close.lowerBound]).trimmingCharacters(
      in: .whitespacesAndNewlines)
    return name.isEmpty ? nil : name
  }

  /// Reads and loads the model at `path`; throws only when it cannot be read.
  public static func load(path: String) throws -> Model {
    let contents = try contentsPath(for: path)
    guard let data = FileManager.default.contents(atPath: contents) else {
      throw ModelLoadError(description: "model '\(contents)' cannot be read")
    }
    return ModelLoader.load(SourceText(bytes: [UInt8](data)), path: contents)
  }
}
