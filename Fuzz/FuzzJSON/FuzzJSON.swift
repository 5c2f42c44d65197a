import FuzzHarness

/// What this target runs on each input: FuzzHarness.json (see there).
func target(_ bytes: [UInt8]) {
  FuzzHarness.json(bytes)
}
