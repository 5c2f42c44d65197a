import OutlineFiles

/// The common convert command lines, read without the argument parser, as
/// ``LintSettings/parse(_:)`` reads the lint's (building ArgumentParser's
/// tables costs more than the conversion of a small file).
///
/// One input and the options `-o`/`--output`, `--to`, `--model` and
/// `--max-size`, each given once with its value (`--to json`, `--to=json`);
/// anything else (`--help`, an unknown option, an option twice, a value that
/// looks like an option, such as `-` after `-o`, a second input, a direction
/// the file names do not tell) returns nil and goes to ArgumentParser, so its
/// messages and exit statuses are unchanged.
extension ConvertCommand {
  /// What a common convert command line says.
  struct Arguments {
    var input: String
    var output: String?
    var direction: Format
    var model: String?
    var maxSize: InputSize?
  }

  /// The command line `arguments` (after `convert`) spell, or nil when ArgumentParser must read them.
  static func parse(_ arguments: [String]) -> Arguments? {
    var input: String?
    var output: String?
    var to: Format?
    var model: String?
    var maxSize: InputSize?
    var seen: [Substring] = []
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if argument == "-" || !argument.hasPrefix("-") {
        guard input == nil else { return nil }
        input = argument
        continue
      }
      guard let (name, given) = argument == "-o" ? ("output", nil) : QuickOption.split(argument) else {
        return nil
      }
      guard !seen.contains(name) else { return nil }
      seen.append(name)
      guard let value = QuickOption.value(given, in: arguments, at: &index) else { return nil }
      switch name {
      case "output": output = value
      case "model": model = value
      case "to":
        guard let format = Format(rawValue: value) else { return nil }
        to = format
      case "max-size":
        guard let size = InputSize(argument: value) else { return nil }
        maxSize = size
      default:
        return nil
      }
    }
    guard let input, let direction = direction(input: input, output: output, to: to) else { return nil }
    // Names that say one format for both: ArgumentParser's run says so (``ConvertCommand/validate()``).
    if to == nil, let output, let named = Self.format(ofName: input), Self.format(ofName: output) == named,
      !AtomicFile.sameFile(input, output)
    {
      return nil
    }
    return Arguments(input: input, output: output, direction: direction, model: model, maxSize: maxSize)
  }

  /// `outline convert`'s run for a common command line, or nil (``parse(_:)``).
  static func quickRun(_ arguments: [String]) -> (() throws -> Void)? {
    guard let parsed = parse(arguments) else { return nil }
    return {
      try convert(
        input: parsed.input, output: parsed.output, direction: parsed.direction, model: parsed.model,
        maxSize: parsed.maxSize)
    }
  }
}
