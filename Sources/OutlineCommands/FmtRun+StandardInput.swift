import Foundation
import OutlineConvert
import OutlineCore
import OutlineFiles
import OutlineMigration
import OutlineWorkspace

/// Formatting standard input: its formatted text waits in a spool until the check allows it.
extension FmtRun {
  func formatStandardInput(
    configurations: ConfigurationFinder, models: ModelCache, versions: DocumentVersions
  ) -> Outcome {
    // Standard input that is a regular file (`< file`) is read back where a message points;
    // a pipe's bytes are kept in a spool for that.
    var info = stat()
    let start = lseek(0, 0, SEEK_CUR)
    let seekable = fstat(0, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && start >= 0
    let kept = seekable ? nil : Spool()
    var lines = LineIndex()
    let formatted = Spool()
    // With --check, the formatted text is only compared with the input as both stream by, as a
    // file's is; --diff keeps it, with the input, to show the difference.
    let comparison = check && !diff ? StreamComparison() : nil
    let input = diff && seekable ? Spool() : kept
    var failure: ReadError?
    let (checked, formatter) = Self.check(
      path: stdinFilename, size: seekable ? Int(info.st_size) - Int(start) : nil,
      modelOverride: modelOverride,
      configurations: configurations, models: models,
      sink: { comparison?.output($0) ?? formatted.append($0) }
    ) { parse in
      do {
        try FileChunks.readViews(descriptor: 0, name: "standard input", limit: limit) { chunk in
          comparison?.input(chunk)
          if let kept {
            lines.append(chunk)
            kept.append(chunk)
          } else {
            input?.append(chunk)
          }
          parse(chunk)
        }
      } catch let error as ReadError {
        failure = error
      } catch {}
    }
    if let failure {
      Terminal.error(failure.description)
      return .trouble
    }
    if let outcome = refusal(checked) {
      if outcome == .refused, let blocker = blocker(in: checked) {
        let read: @Sendable (Range<Int>) -> [UInt8]
        if let kept {
          read = { kept.bytes(in: $0) }
        } else {
          read = { range in
            var bytes: [UInt8] = []
            FileChunks.readViews(
              descriptor: 0, range: (range.lowerBound + Int(start))..<(range.upperBound + Int(start))
            ) {
              bytes.append(contentsOf: $0)
            }
            return bytes
          }
          let end = Int(info.st_size)
          var offset = Int(start)
          while offset < end {
            let next = min(end, offset + (1 << 20))
            FileChunks.readViews(descriptor: 0, range: offset..<next) { lines.append($0) }
            offset = next
          }
        }
        report(
          blocker,
          at: StreamedLines(lines: lines, read: read).linePosition(of: blocker.range.start, unit: .scalar))
      }
      return outcome
    }
    let replacement = Self.versionRecording(checked, formatter, versions) { body in
      if let kept {
        var offset = 0
        while offset < kept.count {
          let next = min(kept.count, offset + (1 << 20))
          kept.bytes(in: offset..<next).withByteView(body)
          offset = next
        }
      } else if seekable {
        _ = FileChunks.readViews(descriptor: 0, range: Int(start)..<Int(info.st_size), body)
      }
    }
    if diff, let input {
      return Self.printDiff(
        old: input.bytes(in: 0..<input.count), new: formatted, replacing: replacement, name: shownPath)
    }
    if let comparison {
      // As for a file: the name of what would change, and nothing else.
      guard replacement != nil || !comparison.equal else { return .unchanged }
      Terminal.write("\(shownPath)\n")
      return .changed
    }
    if let code = formatted.write(to: 1, replacing: replacement?.0, with: replacement?.1 ?? []) {
      Terminal.error("cannot write standard output: \(String(cString: strerror(code)))")
      return .trouble
    }
    return .unchanged
  }
}
