import Foundation
import OutlineCore
import OutlineFiles
import OutlineModel
import OutlineXML

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

  /// Orders versions as Xcode numbers them: `Model`, `Model 2`, ... `Model 10`, and dotted
  /// numbers part by part: `Model 0.2` < `Model 1.4` < `Model 1.10` < `Model 2` (a name
  /// without a number is the first version).
  static func versionKey(_ name: String) -> VersionKey {
    let stem = name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
    let tail = stem.reversed().prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
    let separator = stem.dropLast(tail.count).last
    let parts = String(tail.reversed()).split(separator: ".", omittingEmptySubsequences: false).map {
      Int($0)
    }
    guard !tail.isEmpty, tail.first != ".", tail.last != ".",
      separator == " " || separator == "_" || separator == "-" || separator == "v",
      parts.allSatisfy({ $0 != nil })
    else { return VersionKey(numbers: [], name: name) }
    return VersionKey(numbers: parts.map { $0! }, name: name)
  }

  /// A version's place in its bundle: its number's parts (none for the first version), then
  /// its name.
  struct VersionKey: Comparable {
    var numbers: [Int]
    var name: String

    static func < (left: VersionKey, right: VersionKey) -> Bool {
      if left.numbers != right.numbers { return left.numbers.lexicographicallyPrecedes(right.numbers) }
      return left.name < right.name
    }
  }

  /// `_XCCurrentVersionName` from a bundle's `.xccurrentversion` property list.
  static func currentVersionName(inBundle path: String) -> String? {
    let plist = URL(fileURLWithPath: path).appendingPathComponent(".xccurrentversion")
    guard let bytes = try? InputFile.read(plist.path, limit: 1 << 20) else { return nil }
    return currentVersionName(plist: bytes)
  }

  /// `_XCCurrentVersionName` in the bytes of a `.xccurrentversion` property list (nil when it
  /// has none, is empty, or is not UTF-8).
  ///
  /// The plist carries a DOCTYPE, which the XML parser refuses on principle,
  /// so the one key is read as text.
  public static func currentVersionName(plist bytes: [UInt8]) -> String? {
    guard let text = String(validating: bytes, as: UTF8.self),
      let key = text.range(of: "<key>_XCCurrentVersionName</key>"),
      let open = text.range(of: "<string>", range: key.upperBound..<text.endIndex),
      let close = text.range(of: "</string>", range: open.upperBound..<text.endIndex)
    else { return nil }
    let name = plistText(text[open.upperBound..<close.lowerBound])
    return name.isEmpty ? nil : name
  }

  /// A property list `<string>`'s text: trimmed, its five predefined entities and character
  /// references decoded (a version named `A & B` is written `A &amp; B`).
  static func plistText(_ raw: Substring) -> String {
    Array(raw.utf8).withByteView { XMLEscaping.decodeText($0) }.trimmingCharacters(
      in: .whitespacesAndNewlines)
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
