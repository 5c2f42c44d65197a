import Foundation

/// Where the documentation is, for links that machine-readable output
/// carries (SARIF's `helpUri` and `informationUri`). Never a placeholder:
/// `OUTLINE_DOCUMENTATION_URL` when set (a hosted copy of `Documentation/`,
/// as the GitHub Action sets it), else the `Documentation` folder of the
/// checkout the binary was built in, else the one `make install` puts in
/// `PREFIX/share/doc/outline`; when none is found, no link is written.
enum DocumentationLink {
  /// The folder URL, ending in `/`, or nil.
  static let base: String? = {
    if let named = ProcessInfo.processInfo.environment["OUTLINE_DOCUMENTATION_URL"], !named.isEmpty {
      return named.hasSuffix("/") ? named : named + "/"
    }
    guard let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() else { return nil }
    var folder = executable.deletingLastPathComponent()
    for _ in 0..<4 {
      for candidate in ["Documentation", "share/doc/outline"] {
        let documentation = folder.appendingPathComponent(candidate)
        if FileManager.default.fileExists(atPath: documentation.appendingPathComponent("Diagnostics.md").path)
        {
          return documentation.absoluteURL.absoluteString + (documentation.hasDirectoryPath ? "" : "/")
        }
      }
      folder = folder.deletingLastPathComponent()
    }
    return nil
  }()

  /// The page of one diagnostic code, e.g. `.../Diagnostics.md#ol401`.
  static func diagnostic(_ code: String) -> String? {
    base.map { $0 + "Diagnostics.md#" + code.lowercased() }
  }

  /// The documentation's front page.
  static var index: String? { base.map { $0 + "README.md" } }
}
