import Testing

@testable import OutlineValidation

/// The validator's stacks of plain values (open elements, their children, their titles).
@Suite struct FlatStackTests {
  @Test func appendsPopsAndTruncatesAcrossGrowth() {
    var stack = FlatStack<Int>(capacity: 2)
    #expect(stack.isEmpty && stack.last == nil && stack.popLast() == nil)
    for value in 0..<1000 { stack.append(value) }
    #expect(stack.count == 1000 && stack.capacity >= 1000)
    #expect(stack[0] == 0 && stack[999] == 999 && stack.last == 999)
    stack[500] = -1
    #expect(stack[500] == -1)
    #expect(stack.popLast() == 999 && stack.count == 999)
    stack.truncate(to: 10)
    #expect(stack.count == 10 && stack.last == 9)
    // Truncating to more than it holds, or to less than nothing, keeps it as it is.
    stack.truncate(to: 20)
    stack.truncate(to: -1)
    #expect(stack.count == 10)
    let sum = stack.withUnsafeBufferPointer { $0.reduce(0, +) }
    #expect(sum == 45)
  }

  @Test func appendsBuffersAndEmptiesKeepingSmallMemory() {
    var bytes = FlatStack<UInt8>(capacity: 4)
    let text: [UInt8] = Array("a title longer than the room".utf8)
    text.withUnsafeBufferPointer { bytes.append(contentsOf: $0) }
    text.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<0])) }
    #expect(bytes.count == text.count)
    #expect(bytes.withUnsafeBufferPointer { Array($0) } == text)
    let capacity = bytes.capacity
    bytes.removeAll(keepingUpTo: 1 << 10)
    #expect(bytes.isEmpty && bytes.capacity == capacity)
    for _ in 0..<5000 { bytes.append(1) }
    bytes.removeAll(keepingUpTo: 1 << 10)
    #expect(bytes.isEmpty && bytes.capacity <= 1 << 10)
  }
}
