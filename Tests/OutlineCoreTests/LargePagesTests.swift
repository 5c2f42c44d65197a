import OutlineCore
import Testing

@Suite struct LargePagesTests {
  @Test func onlyWholeLargePagesInsideTheRangeAreAdvised() {
    let page = LargePages.bytes
    #expect(LargePages.whole(address: 0, count: page) == 0..<page)
    #expect(LargePages.whole(address: 4096, count: 2 * page).isEmpty == false)
    #expect(LargePages.whole(address: 4096, count: 2 * page) == page..<(2 * page))
    #expect(LargePages.whole(address: 4096, count: page).isEmpty)
    #expect(LargePages.whole(address: page - 1, count: 3 * page) == page..<(3 * page))
    #expect(LargePages.whole(address: page - 1, count: 3 * page + 1) == page..<(4 * page))
    #expect(LargePages.whole(address: 3 * page, count: 0).isEmpty)
  }

  @Test func advisedMemoryKeepsWhatIsWrittenToIt() {
    let count = 5 * LargePages.bytes + 12_345
    let memory = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 8)
    defer { memory.deallocate() }
    LargePages.advise(memory, count: count)
    let bytes = memory.bindMemory(to: UInt8.self, capacity: count)
    for index in stride(from: 0, to: count, by: 4093) { bytes[index] = UInt8(truncatingIfNeeded: index) }
    for index in stride(from: 0, to: count, by: 4093) {
      #expect(bytes[index] == UInt8(truncatingIfNeeded: index))
    }
  }
}
