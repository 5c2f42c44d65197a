import Foundation
import OutlineCore
import OutlineFiles
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
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw ModelLoadError(description: "model \(InputFile.quoted(path)) does not exist")
    }
    if (info.st_mode & S_IFMT) != S_IFDIR { return path }
    let url = URL(fileURLWithPath: path)
    if url.pathExtension == "xcdatamodeld" {
      let versions =
        (try? FileManager.default.contentsOfDirectory(atPath: path))?
        .filter { $0.hasSuffix(".xcdatamodel") }
        .sorted { versionKey($0) < versionKey($1) } ?? []
      guard !versions.isEmpty else {
        throw ModelLoadError(
          description: "model bundle \(InputFile.quoted(path)) holds no .xcdatamodel version")
      }
      var chosen = versions[versions.count - 1]
      if let current = currentVersionName(inBundle: path), versions.contains(current) {
        chosen = current
      }
      return join(path, chosen, "contents")
    }
    let contents = join(path, "contents")
    guard stat(contents, &info) == 0 else {
      throw ModelLoadError(description: "model folder \(InputFile.quoted(path)) has no 'contents' file")
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
    guard let bytes = try? InputFile.read(plist.path, limit: 1 << 20),
      let text = String(validating: bytes, as: UTF8.self),
      let key = text.range(of: "<key>_XCCurrentVersionName</key>"),
      let open = text.range(of: "<string>", range: key.upperBound..<text.endIndex),
      let close = text.range(of: "</string>", range: open.upperBound..<text.endIndex)
    else { return nil }
    let name = String(text[open.upperBound..<close.lowerBound]).trimmingCharacters(
      in: .whitespacesAndNewlines)
    return name.isEmpty ? nil : name
  }

  /// Reads and loads the model at `path`; throws only when it cannot be read
  /// (missing, not a regular file, or larger than `limit`).
  public static func load(path: String, limit: Int = InputFile.defaultLimit) throws -> Model {
    let contents = try contentsPath(for: path)
    do {
      return ModelLoader.load(SourceText(bytes: try InputFile.read(contents, limit: limit)), path: contents)
    } catch {
      throw ModelLoadError(description: error.description)
    }
  }
}
