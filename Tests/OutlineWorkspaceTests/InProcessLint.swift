import Foundation
import OutlineCore
import OutlineFiles
import OutlineWorkspace

/// `outline-lint`'s check of one file, run in process (``DocumentCheck/file(path:modelOverride:configurations:models:histories:limit:checked:progress:)``
/// for XML, ``DocumentCheck/runJSON(_:path:modelOverride:configurations:models:)`` for the JSON
/// form, each with its model version checked), its diagnostics written as the text output
/// writes them: `name:line:col: severity[CODE]: message`, then each related place as
/// `  name:line:col: note: message`, lines and columns 1-based, columns in Unicode scalars.
enum InProcessLint {
  /// The lines for the file `name` in `folder` (a path relative to it).
  static func lines(_ name: String, in folder: URL) throws -> [String] {
    let path = folder.appendingPathComponent(name).path
    let models = ModelCache()
    let histories = ModelHistoryCache(limit: models.limit)
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let check: DocumentCheck
    if DocumentCheck.isJSONForm(path) {
      let buffer = ByteBuffer(copying: bytes)
      var json = DocumentCheck.runJSON(
        buffer, path: path, modelOverride: nil, configurations: ConfigurationFinder(), models: models)
      json.checkVersion(histories: histories, json: buffer)
      check = json
    } else {
      check = try DocumentCheck.file(
        path: path, modelOverride: nil, configurations: ConfigurationFinder(), models: models,
        histories: histories
      ).0
    }
    let source = SourceText(bytes: bytes)
    let prefix = folder.path + "/"
    func at(_ offset: Int, in source: SourceText) -> String {
      let position = source.position(of: offset, unit: .scalar)
      return ":\(position.line + 1):\(position.column + 1)"
    }
    return check.diagnostics.flatMap { diagnostic in
      let head =
        "\(name)\(at(diagnostic.range.start, in: source)): \(diagnostic.severity)[\(diagnostic.code)]: \(MessageText.singleLine(diagnostic.message))"
      return [head]
        + diagnostic.related.map { related in
          var file = name
          var text = source
          if let other = related.file {
            file = other.hasPrefix(prefix) ? String(other.dropFirst(prefix.count)) : other
            text = SourceText(bytes: [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: other))) ?? Data()))
          }
          return
            "  \(file)\(at(related.range.start, in: text)): note: \(MessageText.singleLine(related.message))"
        }
    }
  }
}

/// `outline convert`'s ``Conversion`` of one file, run in process, what it writes or the lines
/// it reports, as the command writes them to standard error.
enum InProcessConvert {
  /// An output in memory.
  final class Memory: ConversionOutput {
    var bytes: [UInt8] = []
    func write(_ bytes: [UInt8]) { self.bytes += bytes }
    func reset() { bytes.removeAll() }
  }

  /// What converting `name` in `folder` gives: the output's text, or the errors
  /// (`name:line:col: error[CODE]: message`) and what the command says of them ("has errors",
  /// "is not the JSON form", or the failure).
  static func run(_ name: String, in folder: URL, to target: Conversion.Target) -> (
    text: String?, errors: [String], verdict: String
  ) {
    let conversion = Conversion(
      input: folder.appendingPathComponent(name).path, target: target, modelOverride: nil,
      configurations: ConfigurationFinder(), models: ModelCache(), limit: InputFile.defaultLimit)
    func at(_ offset: Int, in source: SourceText) -> String {
      let position = source.position(of: offset, unit: .scalar)
      return "\(name):\(position.line + 1):\(position.column + 1)"
    }
    do {
      let output = try conversion.run(reportingConfiguration: { _ in false }, opening: { Memory() })
      return (String(decoding: output.bytes, as: UTF8.self), [], "converted")
    } catch Conversion.Failure.documentErrors(let errors, _, _) {
      let source = SourceText(
        bytes: [UInt8]((try? Data(contentsOf: folder.appendingPathComponent(name))) ?? Data()))
      let lines = errors.map {
        "\(at($0.range.start, in: source)): \($0.severity)[\($0.code)]: \(MessageText.singleLine($0.message))"
      }
      return (nil, lines, "has errors")
    } catch Conversion.Failure.notJSONForm(let error, let bytes) {
      let source = SourceText(bytes: bytes.view.array)
      let lines = error.all.map {
        "\(at($0.offset, in: source)): error[\($0.code)]: \($0.message) (at \($0.path))"
      }
      return (nil, lines, error.refusesTheForm ? "is not the JSON form" : "has errors")
    } catch Conversion.Failure.unreadableModel(let reason) {
      return (nil, [], "the model cannot be read: \(reason)")
    } catch {
      return (nil, [], "\(error)")
    }
  }
}
