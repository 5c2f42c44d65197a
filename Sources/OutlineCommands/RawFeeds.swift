import OutlineCore
import OutlineModel
import OutlineValidation
import OutlineWorkspace
import OutlineXML

// Bridges for the command code that still hands out raw chunks: OutlineWorkspace takes chunks
// only as views now. They go once the commands feed views themselves.

extension DocumentCheck {
  /// ``run(path:size:modelOverride:configurations:models:alongside:feed:)`` for a feed of raw chunks.
  static func run(
    path: String?, size: Int?, modelOverride: String?, configurations: ConfigurationFinder,
    models: ModelCache, alongside: ((OutlineValidator) -> any XMLEventHandler)? = nil,
    feed: (_ parse: (UnsafeBufferPointer<UInt8>) -> Void) -> Void
  ) -> DocumentCheck {
    run(
      path: path, size: size, modelOverride: modelOverride, configurations: configurations, models: models,
      alongside: alongside
    ) { parse in withoutActuallyEscaping(parse) { parse in feed { parse(ByteView($0)) } } }
  }

  /// ``versionToRecord(history:feed:)`` for a feed of raw chunks.
  func versionToRecord(
    history: (_ modelPath: String) -> ModelHistory?, feed: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void
  ) -> String? {
    versionToRecord(history: history) { body in
      withoutActuallyEscaping(body) { body in feed { body(ByteView($0)) } }
    }
  }
}
