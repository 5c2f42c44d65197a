import Foundation
import OutlineJSON

/// Where SARIF says a file is (`artifactLocation`), so that every `uri` resolves (SARIF
/// 2.1.0 §3.4.3, §3.14.14): a file inside the working folder by its path from there, against
/// the base `%SRCROOT%` that the run's `originalUriBaseIds` sets to that folder (as GitHub
/// code scanning reads a path from the checkout); any other file by an absolute `file://`
/// URI. Paths are taken as bytes, so a name that is not UTF-8 is encoded as the bytes it has;
/// every byte but unreserved characters, sub-delimiters and `/` is percent-encoded (RFC 3986);
/// `..` and `.` are applied to the path as text, as a URI reader applies them.
struct ArtifactURI {
  /// The base id of the working folder.
  static let baseID = "%SRCROOT%"

  /// The process's working folder as its bytes (a name that is not UTF-8 kept, as the
  /// files' are), or nil when it cannot be known (removed while running).
  static var workingFolder: [UInt8]? { workingFolderBytes() }

  /// The working folder's names from the root, or nil when it is not known.
  let folder: [[UInt8]]?

  /// The locations of files for a working folder given as its path's bytes (nil: not known).
  init(workingFolderBytes: [UInt8]?) {
    folder = workingFolderBytes.map { Self.names($0) }
  }

  /// The locations of files for a working folder given as a path (nil: not known).
  init(workingFolder: String?) {
    self.init(workingFolderBytes: workingFolder.map { Array($0.utf8) })
  }

  /// `%SRCROOT%` as an absolute URI ending with a slash, or nil without a working folder.
  var baseURI: String? {
    folder.map { "file://" + Self.encoded(Self.spelled($0)) + ($0.isEmpty ? "" : "/") }
  }

  /// The `artifactLocation` of `path` (as the user gave it, relative to the working folder or absolute).
  func location(_ path: String) -> JSONValue {
    reference(path).value
  }

  /// The `artifactLocation` of the path whose bytes are `path`.
  func location(bytes path: [UInt8]) -> JSONValue {
    reference(bytes: path).value
  }

  /// Where `path` is (as the user gave it, relative to the working folder or absolute).
  func reference(_ path: String) -> ArtifactReference {
    reference(bytes: Array(path.utf8))
  }

  /// Where the path whose bytes are `path` is.
  func reference(bytes path: [UInt8]) -> ArtifactReference {
    // Standard input is no file: its name stays a name.
    if path.elementsEqual("<stdin>".utf8) { return ArtifactReference(uri: Self.encoded(path)) }
    let absolute = path.first == Self.slash
    guard let folder else {
      if absolute {
        return ArtifactReference(uri: "file://" + Self.encoded(Self.spelled(Self.names(path))))
      }
      // No base to resolve against: a relative path stays as given, which is all it can be.
      var relative = path[...]
      while relative.starts(with: [UInt8(ascii: "."), Self.slash]) { relative = relative.dropFirst(2) }
      return ArtifactReference(uri: Self.encoded(relative))
    }
    let names = Self.names(absolute ? path : Self.spelled(folder) + [Self.slash] + path)
    if names.count > folder.count && names.starts(with: folder) {
      return ArtifactReference(
        uri: Self.encoded(Array(names[folder.count...].joined(separator: [Self.slash]))), baseID: Self.baseID)
    }
    return ArtifactReference(uri: "file://" + Self.encoded(Self.spelled(names)))
  }

  private static let slash = UInt8(ascii: "/")

  /// The names of `path` from the root (or from where a relative path starts), `.` and `..`
  /// applied and empty names dropped.
  static func names(_ path: [UInt8]) -> [[UInt8]] {
    var names: [[UInt8]] = []
    for name in path.split(separator: slash, omittingEmptySubsequences: true) {
      if name.elementsEqual("..".utf8) {
        if !names.isEmpty { names.removeLast() }
      } else if !name.elementsEqual(".".utf8) {
        names.append(Array(name))
      }
    }
    return names
  }

  /// `/a/b` for the names `a`, `b`; `/` for none.
  static func spelled(_ names: [[UInt8]]) -> [UInt8] {
    names.isEmpty ? [slash] : names.flatMap { [slash] + $0 }
  }

  /// The bytes allowed as they are: unreserved characters, sub-delimiters and `/`.
  private static let allowed: [Bool] = {
    var allowed = [Bool](repeating: false, count: 256)
    for byte in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=/".utf8 {
      allowed[Int(byte)] = true
    }
    return allowed
  }()

  /// `bytes` with every byte but unreserved characters, sub-delimiters and `/` percent-encoded
  /// (RFC 3986 §2.1, upper-case digits).
  static func encoded(_ bytes: some Sequence<UInt8>) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    for byte in bytes {
      if allowed[Int(byte)] {
        out.append(byte)
      } else {
        out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}

/// An `artifactLocation`: a URI, relative to the base `baseID` names when there is one.
struct ArtifactReference {
  var uri: String
  var baseID: String? = nil

  /// The location as a value.
  var value: JSONValue {
    baseID.map { ["uri": .string(uri), "uriBaseId": .string($0)] } ?? ["uri": .string(uri)]
  }

  /// Writes `{"uri": ..., "uriBaseId": ...}`.
  func write(to writer: inout JSONStreamWriter) {
    writer.beginObject()
    writer.member("uri", uri)
    if let baseID { writer.member("uriBaseId", baseID) }
    writer.endObject()
  }
}
