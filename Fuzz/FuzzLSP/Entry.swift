// Every fuzz target has this file and one named after the target that says
// what it runs. Two files, none named main.swift: the module is compiled as a
// library, so it has no main of its own and libFuzzer's main runs (a single file
// would be compiled as a script with a main). TidyTests keeps the copies equal.

/// libFuzzer's entry point: each input goes to `target` as bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  target(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}
