/// Bytes with an owner: a copy in memory, or a read-only file mapping whose
/// pages can be handed back once a forward reader has passed them, so a
/// streaming pass over a large file keeps little of it resident.
public final class ByteBuffer: @unchecked Sendable {
  /// The bytes, for the modules that own raw buffers; valid while this object lives.
  @usableFromInline package let unsafeBuffer: UnsafeBufferPointer<UInt8>

  /// The bytes as a view; valid while this object lives.
  @inlinable
  public var view: ByteView { ByteView(unsafeBuffer) }

  private let release: () -> Void
  private let discard: ((_ upTo: Int) -> Void)?
  private let change: (() -> String?)?

  /// A copy of `bytes`.
  public init(copying bytes: [UInt8]) {
    let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
    _ = storage.initialize(from: bytes)
    unsafeBuffer = UnsafeBufferPointer(start: storage.baseAddress, count: bytes.count)
    release = { storage.deallocate() }
    discard = nil
    change = nil
  }

  /// Bytes owned elsewhere (a mapping): `release` frees them, `discard` hands
  /// back the pages before an offset, `change` says how the bytes stopped being the file's
  /// (another program changed it while it was read), or nil. For the modules that own raw buffers.
  package init(
    buffer: UnsafeBufferPointer<UInt8>, release: @escaping () -> Void,
    discard: ((_ upTo: Int) -> Void)?, change: (() -> String?)? = nil
  ) {
    unsafeBuffer = buffer
    self.release = release
    self.discard = discard
    self.change = change
  }

  deinit { release() }

  /// How the file these bytes map changed since it was mapped, so that what was read from
  /// them may not be its content ("was cut short while it was read"), or nil when it did
  /// not (and always for a copy). Ask after reading, before trusting what was read.
  public func changedWhileRead() -> String? { change?() }

  /// Says the bytes before `offset` will not be read again soon.
  public func discard(upTo offset: Int) { discard?(offset) }
}
