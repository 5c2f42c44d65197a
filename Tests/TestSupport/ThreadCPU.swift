import Foundation

/// The CPU time the calling thread spends in a body: what linear-growth checks in tests
/// compare, since another process's load slows the wall clock (a test once failed on a busy
/// machine) but not this thread's own time. Work must stay on the calling thread.
public enum ThreadCPU {
  /// The calling thread's CPU seconds while `body` runs.
  public static func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = now()
    try body()
    return now() - start
  }

  private static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
  }
}
