/// The toolchain's version, shown by `--version` and in SARIF.
enum ToolVersion {
  static let current = "0.1.0"
}
