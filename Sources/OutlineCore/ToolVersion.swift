/// The toolchain's version: the one place it is written. `--version` of both
/// binaries, SARIF's `tool.driver.version` and the language server's
/// `serverInfo.version` all say this.
public enum ToolVersion {
  public static let current = "0.2.0"
}
