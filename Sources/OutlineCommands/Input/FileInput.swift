import ArgumentParser
import Foundation
import OutlineCore
import OutlineFiles
import OutlineWorkspace

/// Reading inputs: regular files and standard input only, never past a size limit.
enum FileInput {
  /// The file at `path` (or standard input for `-`), at most `limit` bytes.
  static func read(_ path: String, limit: Int) throws(ReadError) -> [UInt8] {
    path == "-" ? try InputFile.readStandardInput(limit: limit) : try InputFile.read(path, limit: limit)
  }
}

/// `--max-size`: the largest input a command reads.
struct InputSize: ExpressibleByArgument {
  /// The limit in bytes.
  var bytes: Int

  init?(argument: String) {
    guard let bytes = ByteCount.parse(argument) else { return nil }
    self.bytes = bytes
  }

  static let help = ArgumentHelp(
    "The largest input read, e.g. 512M or 1G (default: maxSize in .outline.json, else 256M).",
    valueName: "size")
}

extension ConfigurationFinder {
  /// The size limit for the input at `path`: `--max-size`, else the configuration's `maxSize`, else the default.
  func inputLimit(for path: String, maxSize: InputSize?) -> Int {
    if let maxSize { return maxSize.bytes }
    return configuration(for: path == "-" ? "./-" : path)?.maxSize ?? InputFile.defaultLimit
  }
}
