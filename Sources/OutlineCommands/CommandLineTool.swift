import ArgumentParser
import Foundation

/// How both binaries start and end, as a Unix tool does: `--help` and
/// `--version` exit 0; a usage error (unknown option, missing argument, bad
/// value) prints the error and the usage on standard error and exits 2; a
/// command's own exit status passes through; any other error is reported as
/// `NAME: message` and exits 2.
public enum CommandLineTool {
  /// Runs `Root` on the process's arguments, naming itself `name` in messages; never returns.
  ///
  /// `quick` may take the arguments (without the program's name) and return
  /// the run they ask for without ArgumentParser building its tables (a
  /// process start's largest cost); when it returns nil, ArgumentParser reads them.
  public static func main<Root: ParsableCommand>(
    _ root: Root.Type, name: String, quick: (([String]) -> (() throws -> Void)?)? = nil
  ) -> Never {
    Terminal.toolName = name
    do {
      if let run = quick?(Array(CommandLine.arguments.dropFirst())) {
        try run()
      } else {
        var command = try Root.parseAsRoot()
        try command.run()
      }
      endIfOutputFailed()
      Root.exit()
    } catch let exit as ExitCode {
      endIfOutputFailed()
      // As `Root.exit(withError:)` ends it, without building the usage text it would not print.
      Foundation.exit(exit.rawValue)
    } catch {
      if let failure = Terminal.outputFailure { Terminal.error(failure) }
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

  /// Ends the run with status 2 when a write to standard output failed (a full disk): what
  /// the command printed is lost, so its own status would mislead.
  private static func endIfOutputFailed() {
    guard let failure = Terminal.outputFailure else { return }
    Terminal.error(failure)
    Foundation.exit(2)
  }
}
