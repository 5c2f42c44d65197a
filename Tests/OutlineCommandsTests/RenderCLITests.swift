import Foundation
import TestSupport
import Testing

/// `outline render --html`: one page, checked in a real headless browser.
@Suite struct RenderCLITests {
  static let hostile = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1" title="&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot; &apos;x&apos; ünï">
      <Item title="Groceries" order="0">
        <Item title="Milk" order="0" xml:id="milk"/>
        <Item title="&lt;img src=x onerror=alert(2)&gt;" order="0">
          <Item title="Oat" order="0"/>
        </Item>
      </Item>
      <Item title="Work" order="1">
        <Item title="Mail" order="0">
          <Item title="Inbox" order="0"/>
        </Item>
      </Item>
    </outline>

    """

  @Test(.enabled(if: Browser.isAvailable, "\(Browser.absent)"))
  func pageShowsEveryItemCollapsesAndRunsNothingFromTheFile() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["hostile.outline": Self.hostile], in: folder)
    let run = try CLI.run("outline", ["render", "hostile.outline", "--html", "-o", "page.html"], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    let html = try String(contentsOf: folder.appendingPathComponent("page.html"), encoding: .utf8)
    #expect(!html.contains("<script>alert") && !html.contains("<img src=x"))
    #expect(!html.contains("http://") && !html.contains("https://"), "nothing loads from anywhere")
    // One page load: count, collapse, expand, and read what the page shows.
    let load = try Browser.load(
      folder.appendingPathComponent("page.html"),
      evaluating: """
        (() => {
          const rows = Array.from(document.querySelectorAll("#tree > .item"));
          const shown = (row) => row.offsetParent !== null;
          const button = (index) => rows[index].querySelector(":scope > button.tw");
          const result = {
            items: rows.length,
            numbers: rows.map((row) => (row.querySelector(".num") || {}).textContent || ""),
            title: document.title,
            heading: rows[0].querySelector(".title").textContent,
            scripts: document.scripts.length,
            images: document.images.length,
            dialogs: window.__dialogs,
            found: rows.map((row) => row.querySelectorAll(".found li").length),
            finding: (rows[3].querySelector(".found li") || {}).textContent || "",
            summary: document.getElementById("summary").textContent,
          };
          button(3).click();          // "<img ...>" hides Oat
          result.innerCollapsed = !shown(rows[4]) && shown(rows[3]) && shown(rows[5]);
          button(1).click();          // Groceries hides all three below it, not Work
          result.outerCollapsed = [2, 3, 4].every((i) => !shown(rows[i])) && shown(rows[5]) && shown(rows[6]);
          result.label = button(1).getAttribute("aria-expanded");
          button(1).click();          // expanding Groceries keeps "<img ...>" collapsed
          result.innerStaysCollapsed = shown(rows[2]) && shown(rows[3]) && !shown(rows[4]);
          document.getElementById("collapse-all").click();
          result.allCollapsed = rows.slice(1).every((row) => !shown(row));
          document.getElementById("expand-all").click();
          result.allExpanded = rows.every(shown);
          return result;
        })()
        """)
    #expect(load.problems.isEmpty, "\(load.problems)")
    let value = try #require(load.value as? [String: Any])
    #expect(value["items"] as? Int == 8)
    #expect(value["numbers"] as? [String] == ["", "1", "1.1", "1.2", "1.2.1", "2", "2.1", "2.1.1"])
    #expect(value["title"] as? String == "<script>alert(1)</script> & \"quotes\" 'x' ünï")
    #expect(value["heading"] as? String == value["title"] as? String)
    #expect(value["scripts"] as? Int == 1 && value["images"] as? Int == 0 && value["dialogs"] as? Int == 0)
    // The duplicate order is reported at the second item with order 0, inline and in the summary.
    #expect(value["found"] as? [Int] == [0, 0, 0, 1, 0, 0, 0, 0])
    #expect((value["finding"] as? String)?.contains("error[OL401]") == true)
    #expect((value["summary"] as? String)?.hasPrefix("8 items, 1 error, 0 warnings") == true)
    for key in ["innerCollapsed", "outerCollapsed", "innerStaysCollapsed", "allCollapsed", "allExpanded"] {
      #expect(value[key] as? Bool == true, "\(key)")
    }
    #expect(value["label"] as? String == "false")
  }

  @Test func unparsableFilesGetTheirDiagnosticsAndOutputsAreChecked() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      ["broken.outline": "<?xml version=\"1.0\"?>\n<<outline", "ok.outline": Self.hostile], in: folder)
    let broken = try CLI.run("outline", ["render", "broken.outline", "--html"], in: folder)
    #expect(broken.status == 0)
    #expect(broken.stdout.contains("error[OL100]") && !broken.stdout.contains("id=\"tree\""))
    #expect(broken.stdout.contains("0 items, 1 error"))

    let same = try CLI.run("outline", ["render", "ok.outline", "--html", "-o", "./ok.outline"], in: folder)
    #expect(same.status == 2 && same.stderr.hasPrefix("outline: './ok.outline' is the input"))
    #expect(
      try String(contentsOf: folder.appendingPathComponent("ok.outline"), encoding: .utf8) == Self.hostile)
    let noFormat = try CLI.run("outline", ["render", "ok.outline"], in: folder)
    #expect(noFormat.status == 2 && noFormat.stderr.contains("--html"))
    let missing = try CLI.run("outline", ["render", "none.outline", "--html"], in: folder)
    #expect(
      missing.status == 2
        && missing.stderr == "outline: cannot read 'none.outline': No such file or directory\n",
      "\(missing.stderr)")
    // An -o the user named is replaced, as convert's is.
    try CLI.write(["page.html": "old"], in: folder)
    let replaced = try CLI.run("outline", ["render", "ok.outline", "--html", "-o", "page.html"], in: folder)
    #expect(replaced.status == 0)
    #expect(
      try String(contentsOf: folder.appendingPathComponent("page.html"), encoding: .utf8).hasPrefix(
        "<!DOCTYPE html>"))
  }
}

/// `outline render` at scale: 100,000 items, and a chain 100,000 deep (the
/// slow ones, in a suite of their own so a quick run can leave them out).
@Suite(.enabled(if: SlowTests.enabled, Comment(rawValue: SlowTests.skipped))) struct RenderScaleCLITests {
  /// 100 chains of 1,000 items: 100,000 items, 1,000 deep.
  static func large() -> String {
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\">\n"
    for chain in 0..<100 {
      for level in 0..<1000 {
        text += "<Item title=\"c\(chain) l\(level)\" order=\"\(level == 0 ? chain : 0)\">"
      }
      text += String(repeating: "</Item>", count: 1000) + "\n"
    }
    return text + "</outline>\n"
  }

  @Test(.enabled(if: Browser.isAvailable, "\(Browser.absent)"))
  func aHundredThousandItemsRenderAndCollapse() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["large.outline": Self.large()], in: folder)
    let started = Date()
    let run = try CLI.run("outline", ["render", "large.outline", "--html", "-o", "large.html"], in: folder)
    let seconds = Date().timeIntervalSince(started)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(seconds < 60, "rendering took \(seconds) s")
    let html = try String(contentsOf: folder.appendingPathComponent("large.html"), encoding: .utf8)
    #expect(html.components(separatedBy: "<div class=\"item ").count - 1 == 100_001)
    // Deep numbers keep their last six segments.
    #expect(html.contains("<span class=\"num\">….1.1.1.1.1.1</span>"))
    let load = try Browser.load(
      folder.appendingPathComponent("large.html"),
      evaluating: """
        (() => {
          const rows = document.getElementById("tree").children;
          rows[1].querySelector("button.tw").click();
          let hidden = 0;
          for (let i = 2; i < 1001; i += 1) { if (rows[i].offsetParent === null) hidden += 1; }
          return {items: document.querySelectorAll("#tree > .item").length, hidden: hidden,
                  next: rows[1001].offsetParent !== null};
        })()
        """)
    #expect(load.problems.isEmpty, "\(load.problems)")
    let value = try #require(load.value as? [String: Any])
    #expect(value["items"] as? Int == 100_001)
    #expect(value["hidden"] as? Int == 999 && value["next"] as? Bool == true)
  }

  @Test func aChainOfAHundredThousandRendersWithoutRecursion() throws {
    let folder = try CLI.temporaryFolder()
    let depth = 100_000
    var text = "<outline version=\"1\">"
    for _ in 0..<depth { text += "<Item order=\"0\">" }
    text += String(repeating: "</Item>", count: depth) + "</outline>\n"
    try CLI.write(["chain.outline": text], in: folder)
    let run = try CLI.run("outline", ["render", "chain.outline", "--html"], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.components(separatedBy: "<div class=\"item ").count - 1 == depth + 1)
    #expect(run.stdout.contains("<span class=\"depth\">level 100000</span>"))
  }
}
