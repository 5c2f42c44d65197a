import Foundation
import OutlineModel

extension RootFormat {
  /// Whether the attribute name spelled by `bytes` is one of the root's format attributes: told
  /// by its length and one comparison. The validator asks for every attribute of every root,
  /// where the generic comparison of each name, unspecialized across modules, cost more than the
  /// rest of the tag.
  static func isAttribute(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    switch bytes.count {
    case 5: spells(bytes, "model")
    case 6: spells(bytes, "entity")
    case 7: spells(bytes, "version")
    case 12: spells(bytes, "modelVersion")
    default: false
    }
  }

  /// Whether `bytes`, as long as `name`, spell it.
  @inline(__always)
  private static func spells(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
    memcmp(bytes.baseAddress!, name.utf8Start, bytes.count) == 0
  }
}
