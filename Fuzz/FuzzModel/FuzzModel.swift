import FuzzHarness

/// What this target runs on each input: FuzzHarness.model (see there).
func target(_ bytes: [UInt8]) {
  FuzzHarness.model(bytes)
}
