import Foundation
import TestSupport

/// Loads a page in headless Chromium over the DevTools protocol (through
/// `--remote-debugging-pipe`, so no port is opened), evaluates an expression
/// after the load event, and reports the console errors and warnings,
/// uncaught exceptions, Content-Security-Policy refusals and dialogs seen.
enum Browser {
  /// Chromium and python3 (which drives it), when both are installed.
  static let chromium = ModelGraphCLITests.program("chromium")
  static let python = ModelGraphCLITests.program("python3")
  static var isAvailable: Bool { chromium != nil && python != nil }
  static let absent = "chromium or python3 is not installed (apt-get install chromium; .ci/setup does)"

  struct Load {
    /// The expression's value (JSON).
    var value: Any?
    /// Console errors and warnings, exceptions, CSP refusals, dialogs.
    var problems: [String]
    var loadSeconds: Double
  }

  /// Loads `page` and evaluates `expression` (its value must be JSON-serializable).
  static func load(_ page: URL, evaluating expression: String) throws -> Load {
    let folder = try CLI.temporaryFolder()
    let driver = folder.appendingPathComponent("cdp.py")
    try Data(script.utf8).write(to: driver)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python!)
    process.arguments = [driver.path, page.path, expression]
    process.environment = ProcessInfo.processInfo.environment.merging(["CHROMIUM": chromium!]) { $1 }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0,
      let result = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    else {
      throw BrowserError(description: "the DevTools driver failed: \(errors)")
    }
    if let error = result["evaluationError"] as? String {
      throw BrowserError(description: "the expression threw: \(error)")
    }
    return Load(
      value: result["value"], problems: result["problems"] as? [String] ?? ["no problem list"],
      loadSeconds: result["loadSeconds"] as? Double ?? -1)
  }

  struct BrowserError: Error, CustomStringConvertible {
    var description: String
  }

  static let script = #"""
    import json, os, subprocess, sys, tempfile, time, shutil
    html, expression = sys.argv[1], sys.argv[2]
    chromium = os.environ.get("CHROMIUM", "chromium")
    to_child_r, to_child_w = os.pipe()
    from_child_r, from_child_w = os.pipe()
    profile = tempfile.mkdtemp(prefix="outline-chromium-")
    def setup():
        # Through fresh descriptors: dup2 onto the same number would keep close-on-exec.
        read_end, write_end = os.dup(to_child_r), os.dup(from_child_w)
        os.dup2(read_end, 3)
        os.dup2(write_end, 4)
    proc = subprocess.Popen(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
         "--disable-extensions", "--disable-background-networking", "--user-data-dir=" + profile,
         "--remote-debugging-pipe", "about:blank"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        preexec_fn=setup, close_fds=False)
    os.close(to_child_r); os.close(from_child_w)
    buffer = b""
    next_id = 0
    events = []
    def send(method, params=None, session=None):
        global next_id
        next_id += 1
        message = {"id": next_id, "method": method, "params": params or {}}
        if session: message["sessionId"] = session
        os.write(to_child_w, json.dumps(message).encode() + b"\0")
        return next_id
    def read_message(deadline):
        global buffer
        while b"\0" not in buffer:
            if time.time() > deadline: raise TimeoutError("chromium did not answer")
            chunk = os.read(from_child_r, 1 << 20)
            if not chunk: raise EOFError("chromium closed the pipe")
            buffer += chunk
        raw, buffer = buffer.split(b"\0", 1)
        return json.loads(raw)
    def call(method, params=None, session=None, timeout=120):
        wanted = send(method, params, session)
        deadline = time.time() + timeout
        while True:
            message = read_message(deadline)
            if message.get("id") == wanted:
                if "error" in message: raise RuntimeError(method + ": " + json.dumps(message["error"]))
                return message.get("result", {})
            events.append(message)
    def wait_for(method, timeout=120):
        deadline = time.time() + timeout
        for index, message in enumerate(events):
            if message.get("method") == method:
                del events[index]; return message
        while True:
            message = read_message(deadline)
            if message.get("method") == method: return message
            events.append(message)
    result = {}
    try:
        target = call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page.enable", "Runtime.enable", "Log.enable"):
            call(domain, session=session)
        call("Page.addScriptToEvaluateOnNewDocument",
             {"source": "window.__dialogs = 0; window.alert = function () { window.__dialogs += 1; };"}, session=session)
        started = time.time()
        call("Page.navigate", {"url": "file://" + os.path.abspath(html)}, session=session)
        wait_for("Page.loadEventFired")
        result["loadSeconds"] = round(time.time() - started, 2)
        value = call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True},
                     session=session)
        if "exceptionDetails" in value:
            result["evaluationError"] = value["exceptionDetails"].get("exception", {}).get("description", "?")
        else:
            result["value"] = value["result"].get("value")
        # Let late console messages arrive.
        try:
            call("Runtime.evaluate", {"expression": "1"}, session=session, timeout=10)
        except Exception:
            pass
        problems = []
        for message in events:
            method, params = message.get("method"), message.get("params", {})
            if method == "Runtime.exceptionThrown":
                problems.append("exception: " + params["exceptionDetails"].get("text", "") + " " +
                                params["exceptionDetails"].get("exception", {}).get("description", ""))
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "warning", "assert"):
                problems.append("console." + params["type"] + ": " + json.dumps(params.get("args")))
            elif method == "Log.entryAdded" and params["entry"].get("level") in ("error", "warning"):
                problems.append("log " + params["entry"]["level"] + ": " + params["entry"].get("text", ""))
            elif method == "Page.javascriptDialogOpening":
                problems.append("dialog: " + params.get("message", ""))
        result["problems"] = problems
        try:
            call("Browser.close", timeout=10)
        except Exception:
            pass
    finally:
        try:
            proc.wait(timeout=10)
        except Exception:
            proc.kill()
        shutil.rmtree(profile, ignore_errors=True)
    print(json.dumps(result))
    """#
}
