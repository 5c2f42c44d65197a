import FuzzHarness

/// libFuzzer's entry point for FuzzHarness.model (see there).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  FuzzHarness.model(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}
