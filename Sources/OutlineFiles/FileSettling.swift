import Foundation

extension FileSnapshot {
  /// Waits until the file at `path` was last changed (contents or status) at least 3 seconds
  /// ago. A file streamed from disk is never held, so a writer can only compare its stamps,
  /// which hide a change made within their 2-second window (``matches(_:at:)``); a file that old
  /// shows any later change in them.
  public static func waitUntilSettled(_ path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return }
    let latest = max(Self.seconds(modificationTime(info)), Self.seconds(statusChangeTime(info)))
    let age = Date().timeIntervalSince1970 - latest
    if age < 3 { Thread.sleep(forTimeInterval: 3 - age) }
  }

  private static func seconds(_ time: timespec) -> Double {
    Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
