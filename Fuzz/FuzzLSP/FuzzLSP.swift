import FuzzHarness

/// libFuzzer's entry point for FuzzHarness.lsp (see there).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  FuzzHarness.lsp(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}
