import OutlineCore
import OutlineValidation

/// One validator per thread, kept from one small document to the next: linting
/// many small files made a validator for each and freed it after (its tables,
/// arrays and sibling groups made again, the model's name lookup built again).
/// ``OutlineValidator/reset(modelProvider:buildTree:)``
/// makes a kept one what a new one is, keeping only small storage.
///
/// Only a validator nothing else holds is kept: one that built no tree, had
/// no handler alongside it and no pipeline thread (a document under
/// ``XMLEventPipeline/worthwhileBytes``), so at most about a megabyte's
/// document's storage waits for the thread's next document.
enum ValidatorCache {
  /// The thread's kept validator (retained); released when the thread ends.
  private static let slot = ThreadSlot { pointer in
    if let pointer { Unmanaged<OutlineValidator>.fromOpaque(pointer).release() }
  }

  /// A validator asking `modelProvider`: the thread's kept one, reset, or a new one.
  static func take(modelProvider: @escaping ModelProvider) -> OutlineValidator {
    guard let kept = slot.take() else { return OutlineValidator(modelProvider: modelProvider) }
    let validator = Unmanaged<OutlineValidator>.fromOpaque(kept).takeRetainedValue()
    validator.reset(modelProvider: modelProvider)
    return validator
  }

  /// Keeps `validator`, done with its document and held by nothing else, for the
  /// thread's next one (unless the thread keeps one already).
  static func keep(_ validator: OutlineValidator) {
    let retained = Unmanaged.passRetained(validator)
    if !slot.put(retained.toOpaque()) { retained.release() }
  }

  /// Whether the calling thread keeps a validator now (for tests).
  static var threadKeepsOne: Bool { slot.isFilled }
}
