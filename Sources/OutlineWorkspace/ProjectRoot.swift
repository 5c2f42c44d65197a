import Foundation
import OutlineCore
import OutlineFiles

/// Where a document's models may come from: its project.
///
/// The project of a document is the folder of the `.outline.json` that
/// applies to it; without one, the nearest folder above the document that
/// holds `.git` (a git work tree's root); without one either, the working
/// directory when the document is inside it, else the document's own folder
/// (for standard input, the working directory). A model that a
/// document or a configuration names must be inside the project, or inside
/// one of the configuration's `modelRoots`, once every symbolic link on its
/// way (and in a bundle, to its `contents`) is resolved. `--model` is not
/// checked: the user named it.
public enum ProjectRoot {
  /// The project folder of the document at `documentPath` (nil: standard input).
  public static func folder(for documentPath: String?, configuration: Configuration?) -> String {
    if let configuration { return standardized(configuration.folder) }
    let start =
      documentPath.map { ConfigurationFinder.folder(of: $0) } ?? FileManager.default.currentDirectoryPath
    // Standardized once (absolute, no `.` or `..`), then each folder above is all before its
    // last `/`: no URL made for each level.
    var folder = ConfigurationFinder.standardized(start)
    while true {
      var info = stat()
      if lstat(folder == "/" ? "/.git" : folder + "/.git", &info) == 0 { return folder }
      guard folder != "/", let slash = folder.lastIndex(of: "/") else { break }
      folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
    }
    // Neither: the working directory when the document is inside it (the
    // folder the user runs the tools from), else the document's folder.
    let documentFolder = standardized(start)
    let workingDirectory = standardized(FileManager.default.currentDirectoryPath)
    let prefix = workingDirectory.hasSuffix("/") ? workingDirectory : workingDirectory + "/"
    if documentFolder == workingDirectory || documentFolder.hasPrefix(prefix) { return workingDirectory }
    return documentFolder
  }

  /// Why the model at `modelPath` may not be used for the document, or nil when it may.
  ///
  /// Both the path as named and the `contents` file it stands for must be
  /// inside one of `roots` after links are resolved; a path that does not
  /// exist is judged as written (`..` removed).
  /// `named` is the path as the document or configuration wrote it, for the message.
  public static func refusal(modelPath: String, named: String, roots: [String]) -> String? {
    outside(modelPath: modelPath, named: named, roots: roots).map {
      "\($0.reason); list its folder in 'modelRoots' of .outline.json, or pass --model"
    }
  }

  /// A model a document may not name: it lies outside every folder models may come from.
  public struct Outside: Sendable, Equatable {
    /// The path as the document or configuration names it.
    public var named: String
    /// The project's folder (the first root).
    public var project: String
    /// Where the path leads once links are resolved, when that differs from the path.
    public var leadsTo: String?
    /// The folder holding the model (links resolved): the one `modelRoots` would list.
    public var modelFolder: String

    /// `The model '...' is outside the project '...' (it leads to '...')`: every path whole.
    public var reason: String {
      let through = leadsTo.map { " (it leads to \(ProjectRoot.quoted($0)))" } ?? ""
      return
        "The model \(ProjectRoot.quoted(named)) is outside the project \(ProjectRoot.quoted(project))\(through)"
    }
  }

  /// The model at `modelPath` when it lies outside every one of `roots` (``refusal(modelPath:named:roots:)``), else nil.
  public static func outside(modelPath: String, named: String, roots: [String]) -> Outside? {
    let realRoots = roots.map(resolved)
    if realRoots.contains("/") { return nil }
    var candidates = [modelPath]
    if let contents = try? ModelLocator.contentsPath(for: modelPath), contents != modelPath {
      candidates.append(contents)
    }
    for candidate in candidates {
      let real = resolved(candidate)
      if !realRoots.contains(where: { contains($0, real) }) {
        let model = resolved(modelPath)
        return Outside(
          named: named, project: roots.first ?? "?", leadsTo: real == standardized(candidate) ? nil : real,
          modelFolder: URL(fileURLWithPath: model).deletingLastPathComponent().path)
      }
    }
    return nil
  }

  /// A path between quotes for a message, whole: the one-line rule escapes control characters
  /// and never cuts a path. Only a path longer than any the system opens (`PATH_MAX`), which can
  /// name no model, is cut, and says so.
  public static func quoted(_ path: String) -> String {
    let length = path.utf8.count
    if length < Int(PATH_MAX) { return Excerpt.quoted(path, limit: length) }
    return Excerpt.quotedPath(path) + " (a path of \(length) bytes, longer than any the system opens)"
  }

  /// Whether `path` is `folder` or inside it (both absolute and standardized).
  public static func contains(_ folder: String, _ path: String) -> Bool {
    if folder == "/" || path == folder { return true }
    return path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
  }

  /// The path with every link resolved, or (when it does not exist) as written with `.` and `..` removed.
  public static func resolved(_ path: String) -> String {
    guard let real = realpath(path, nil) else { return standardized(path) }
    defer { free(real) }
    return String(cString: real)
  }

  private static func standardized(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
  }
}
