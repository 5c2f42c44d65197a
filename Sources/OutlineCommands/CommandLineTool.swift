import ArgumentParser

/// How both binaries start and end, as a Unix tool does: `--help` and
/// `--version` exit 0; a usage error (unknown option, missing argument, bad
/// value) prints the error and the usage on standard error and exits 2; a
/// command's own exit status passes through; any other error is reported as
/// `NAME: message` and exits 2.
public enum CommandLineTool {
  /// Runs `Root` on the process's arguments, naming itself `name` in messages; never returns.
  public static func main<Root: ParsableCommand>(_ root: Root.Type, name: String) -> Never {
    Terminal.toolName = name
    do {
      var command = try Root.parseAsRoot()
      try command.run()
      Root.exit()
    } catch let exit as ExitCode {
      Root.exit(withError: exit)
    } catch {
      let code = Root.exitCode(for: error)
      if code == .success { Root.exit(withError: error) }
      if code == .validationFailure {
        Terminal.write(Root.fullMessage(for: error) + "\n", to: 2)
      } else {
        Terminal.error(Root.message(for: error))
      }
      Root.exit(withError: ExitCode(2))
    }
  }
}
