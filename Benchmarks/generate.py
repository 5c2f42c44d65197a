#!/usr/bin/env python3
"""Deterministic generator of .outline benchmark inputs.

Shapes:
  realistic  mixed widths and depths up to ~12, realistic titles (non-ASCII,
             characters that need escaping), extra attributes
  flat       every item a child of the root
  chain      one item inside the other, N deep

  python3 Benchmarks/generate.py --items 1000000 --shape realistic -o big.outline
  python3 Benchmarks/generate.py --items 100000 --shape chain -o deep.outline
  python3 Benchmarks/generate.py --tree 10000 -o folder   # 10,000 files of 1-10 KB, nested
  --violations 0.001 injects order violations (duplicates, gaps, missing) at that rate.
  --unique gives every item a distinct `key` (an Integer 64, written with a
           leading zero every seventh item, which the typed comparison must
           see through) and writes two models beside the output,
           OUTPUT.models/unique.xcdatamodel (a uniquenessConstraint on key)
           and OUTPUT.models/plain.xcdatamodel (the same without it), to time
           the constraint check: outline-lint --model ... OUTPUT.
"""
import argparse
import random
import sys

WORDS = [
    "Groceries", "Milk", "Eggs", "Crème fraîche", "Review", "Q3 plan", "budget", "Zürich",
    "train", "call", "Zoë", "naïve", "café", "中文", "日本語のメモ", "emoji 🚆", "R&D", "<draft>",
    "\"quoted\"", "tom & jerry", "follow-up", "invoice #42", "déjà vu", "Ελληνικά", "русский",
    "write", "read", "fix", "ship", "plan", "meeting", "notes", "ideas", "books", "garden",
]


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")


def title(rng):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 5)))


def realistic_shape(rng, items):
    """Yields (depth, child_index) for items in document order, up to depth ~12."""
    produced = 0
    stack = [0]  # children emitted so far at each open level
    last_depth = 0
    while produced < items:
        depth = len(stack)
        # Go deeper sometimes (under the item just written), come back up
        # sometimes; widths stay realistic.
        r = rng.random()
        if depth < 12 and r < 0.30 and stack[-1] > 0 and last_depth == depth:
            stack.append(0)
        elif depth > 1 and r > 0.80:
            stack.pop()
            continue
        yield len(stack), stack[-1]
        last_depth = len(stack)
        stack[-1] += 1
        produced += 1


MODEL = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
    <entity name="Item" representedClassName="Item" syncable="YES">
        <attribute name="key" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
        <attribute name="order" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
        <attribute name="title" optional="YES" attributeType="String"/>
        <relationship name="children" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Item" inverseName="parent" inverseEntity="Item"/>
        <relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item" inverseName="children" inverseEntity="Item"/>%s
    </entity>
</model>"""
CONSTRAINT = """
        <uniquenessConstraints>
            <uniquenessConstraint>
                <constraint value="key"/>
            </uniquenessConstraint>
        </uniquenessConstraints>"""


def write_models(folder):
    import os
    for name, extra in (("unique", CONSTRAINT), ("plain", "")):
        os.makedirs(os.path.join(folder, name + ".xcdatamodel"), exist_ok=True)
        with open(os.path.join(folder, name + ".xcdatamodel", "contents"), "w") as f:
            f.write(MODEL % extra)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int)
    parser.add_argument("--tree", type=int, metavar="FILES",
                        help="write FILES small realistic outlines (1-10 KB) in nested folders under OUTPUT")
    parser.add_argument("--shape", choices=["realistic", "flat", "chain"], default="realistic")
    parser.add_argument("--violations", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--unique", action="store_true")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    if args.tree:
        write_tree(args.output, args.tree, args.seed)
        return
    if args.items is None:
        parser.error("--items or --tree is required")
    rng = random.Random(args.seed)
    out = open(args.output, "w", encoding="utf-8", newline="\n")
    if args.unique:
        write_models(args.output + ".models")
        counter = [0]

        def write(text, plain=out.write):
            # Every item gets the next key, just after its element name.
            if text.lstrip().startswith("<Item"):
                counter[0] += 1
                key = ("0%d" if counter[0] % 7 == 0 else "%d") % counter[0]
                text = text.replace("<Item", '<Item key="%s"' % key, 1)
            plain(text)
    else:
        write = out.write
    write_document(write, rng, args.items, args.shape, args.violations)


def write_tree(folder, files, seed):
    """`files` realistic outlines of 1-10 KB in nested folders (ten a level,
    three levels deep), deterministic; returns their paths in order."""
    import os
    rng = random.Random(seed)
    paths = []
    for number in range(files):
        parts = ["d%d" % (number // 1000 % 10), "d%d" % (number // 100 % 10), "d%d" % (number // 10 % 10)]
        directory = os.path.join(folder, *parts)
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, "f%05d.outline" % number)
        pieces = []
        # About 80 bytes an item: 16-115 items make 1-10 KB.
        write_document(pieces.append, rng, rng.randint(16, 115), "realistic", 0.0)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write("".join(pieces))
        paths.append(path)
    return paths


def write_document(write, rng, items, shape, violations):
    """Writes one document of `items` items in `shape` through `write`."""
    write('<?xml version="1.0" encoding="UTF-8"?>\n<outline version="1" title="Benchmark">\n')

    def order_text(index):
        if violations and rng.random() < violations:
            kind = rng.randrange(3)
            if kind == 0:
                return ' order="0"' if index else ' order="1"'
            if kind == 1:
                return ' order="%d"' % (index + 7)
            return ""
        return ' order="%d"' % index

    if shape == "chain":
        for _ in range(items):
            write('<Item title="%s"%s>' % (escape(title(rng)), order_text(0)))
        write("</Item>" * items)
        write("\n</outline>\n")
        return
    if shape == "flat":
        for index in range(items):
            write('  <Item title="%s"%s/>\n' % (escape(title(rng)), order_text(index)))
        write("</outline>\n")
        return
    # realistic: emit with explicit open/close so the file is well-formed.
    open_depth = 0
    pending_open = False  # the last item is written without its end
    for depth, index in realistic_shape(rng, items):
        if pending_open and depth <= open_depth:
            write("/>\n")
            pending_open = False
        elif pending_open:
            write(">\n")
            pending_open = False
        while open_depth > depth:
            open_depth -= 1
            if open_depth >= depth:
                write("  " * open_depth + "</Item>\n")
        extra = ""
        if rng.random() < 0.2:
            extra = ' xml:id="i%d"' % rng.randrange(1 << 40)
        write("  " * depth + '<Item%s title="%s"%s' % (extra, escape(title(rng)), order_text(index)))
        pending_open = True
        open_depth = depth
    if pending_open:
        write("/>\n")
    while open_depth > 1:
        open_depth -= 1
        write("  " * open_depth + "</Item>\n")
    write("</outline>\n")


if __name__ == "__main__":
    sys.exit(main())
