import FuzzHarness

/// What this target runs on each input: FuzzHarness.outline (see there).
func target(_ bytes: [UInt8]) {
  FuzzHarness.outline(bytes)
}
