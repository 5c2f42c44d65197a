import FuzzHarness

/// What this target runs on each input: FuzzHarness.lsp (see there).
func target(_ bytes: [UInt8]) {
  FuzzHarness.lsp(bytes)
}
