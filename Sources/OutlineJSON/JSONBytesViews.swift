import OutlineCore

extension JSONBytes {
  /// Appends UTF-8 text lent as a view as a quoted string.
  @inlinable
  public mutating func string(bytes utf8: ByteView) { string(bytes: utf8.unsafeBuffer) }

  /// Appends UTF-8 text as a quoted string.
  @inlinable
  public mutating func string(bytes utf8: [UInt8]) { utf8.withUnsafeBufferPointer { string(bytes: $0) } }
}
