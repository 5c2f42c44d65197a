#!/usr/bin/env python3
"""Deterministic generator of .outline benchmark inputs.

Shapes:
  realistic  mixed widths and depths up to ~12, realistic titles (non-ASCII,
             characters that need escaping), extra attributes
  flat       every item a child of the root
  chain      one item inside the other, N deep

  python3 Benchmarks/generate.py --items 1000000 --shape realistic -o big.outline
  python3 Benchmarks/generate.py --items 100000 --shape chain -o deep.outline
  python3 Benchmarks/generate.py --tree 10000 -o folder   # 10,000 files of 5-6 KB, nested, naming a model
  --violations 0.001 injects order violations (duplicates, gaps, missing) at that rate.
  --edit FILE --changes 100 --seed 1 -o COPY: COPY is FILE with that many titles, spread
           evenly through it, rewritten (for `outline diff` and `outline merge`; two seeds
           give two sides whose changes do not touch the same items).
  --unique gives every item a distinct `key` (an Integer 64, written with a
           leading zero every seventh item, which the typed comparison must
           see through) and a distinct `code` (a String) and
           writes two models beside the output,
           OUTPUT.models/unique.xcdatamodel (two uniquenessConstraints: key,
           and the compound of title and code) and
           OUTPUT.models/plain.xcdatamodel (the same without them), to time
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
        <attribute name="code" optional="YES" attributeType="String"/>
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
            <uniquenessConstraint>
                <constraint value="title"/>
                <constraint value="code"/>
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
                        help="write FILES small realistic outlines (5-6 KB, each naming the model "
                             "OUTPUT/Tasks.xcdatamodeld) in nested folders under OUTPUT")
    parser.add_argument("--shape", choices=["realistic", "flat", "chain"], default="realistic")
    parser.add_argument("--violations", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--unique", action="store_true")
    parser.add_argument("--edit", metavar="FILE", help="copy FILE with --changes titles rewritten")
    parser.add_argument("--changes", type=int, default=100)
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    if args.tree:
        write_tree(args.output, args.tree, args.seed)
        return
    if args.edit:
        write_edited(args.edit, args.output, args.changes, args.seed)
        return
    if args.items is None:
        parser.error("--items or --tree is required")
    rng = random.Random(args.seed)
    out = open(args.output, "w", encoding="utf-8", newline="\n")
    if args.unique:
        write_models(args.output + ".models")
        counter = [0]

        def write(text, plain=out.write):
            # Every item gets the next key and code, just after its element name.
            if text.lstrip().startswith("<Item"):
                counter[0] += 1
                key = ("0%d" if counter[0] % 7 == 0 else "%d") % counter[0]
                code = "c%d" % counter[0]
                text = text.replace("<Item", '<Item key="%s" code="%s"' % (key, code), 1)
            plain(text)
    else:
        write = out.write
    write_document(write, rng, args.items, args.shape, args.violations)


TREE_MODEL = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
    <entity name="Item" representedClassName="Item" syncable="YES">
        <attribute name="done" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
        <attribute name="note" optional="YES" attributeType="String"/>
        <attribute name="order" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
        <attribute name="title" optional="YES" attributeType="String"/>
        <relationship name="children" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Item" inverseName="parent" inverseEntity="Item"/>
        <relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item" inverseName="children" inverseEntity="Item"/>
    </entity>
</model>
"""


def write_tree(folder, files, seed):
    """`files` realistic outlines of 5-6 KB in nested folders (ten a level,
    three levels deep), deterministic, each naming the model written at
    `folder`/Tasks.xcdatamodeld (its `model` attribute, relative to the
    file) as a project's files do, with the project's `.outline.json`;
    returns their paths in order."""
    import os
    rng = random.Random(seed)
    model = os.path.join(folder, "Tasks.xcdatamodeld", "Tasks.xcdatamodel")
    os.makedirs(model, exist_ok=True)
    with open(os.path.join(model, "contents"), "w") as f:
        f.write(TREE_MODEL)
    # The project's configuration: the folder is the project its files' model is inside,
    # wherever the tree lies.
    with open(os.path.join(folder, ".outline.json"), "w") as f:
        f.write("{}\n")
    paths = []
    for number in range(files):
        parts = ["d%d" % (number // 1000 % 10), "d%d" % (number // 100 % 10), "d%d" % (number // 10 % 10)]
        directory = os.path.join(folder, *parts)
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, "f%05d.outline" % number)
        # About 80 bytes an item: more items (the same document up to them) until the file holds
        # 5,000 bytes, by steps small enough to stay well under 6,000.
        document_seed, items = rng.random(), 50
        while True:
            pieces = []
            write_document(pieces.append, random.Random(document_seed), items, "realistic", 0.0,
                           model="../../../Tasks.xcdatamodeld", extras=True)
            text = "".join(pieces)
            size = len(text.encode("utf-8"))
            if size >= 5000:
                break
            items += max(1, (5000 - size) // 200)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        paths.append(path)
    return paths


def write_edited(source, output, changes, seed):
    """`source` with the title of `changes` items rewritten: the items spread evenly through
    the file, every other one of each stretch for seed 1 and the ones between for seed 2, so
    two copies change different items."""
    with open(source, encoding="utf-8", newline="\n") as f:
        lines = f.readlines()
    titled = [index for index, line in enumerate(lines) if ' title="' in line and "<Item" in line]
    stride = len(titled) // (changes * 2)
    for change in range(changes):
        index = titled[stride * (2 * change + (seed % 2))]
        line = lines[index]
        start = line.index(' title="') + len(' title="')
        end = line.index('"', start)
        lines[index] = line[:start] + "edited %d.%d" % (seed, change) + line[end:]
    with open(output, "w", encoding="utf-8", newline="\n") as f:
        f.writelines(lines)


def write_document(write, rng, items, shape, violations, model=None, extras=False):
    """Writes one document of `items` items in `shape` through `write`; `model` is the root's
    `model` attribute, `extras` adds the tree model's `done` and `note` to some items."""
    write('<?xml version="1.0" encoding="UTF-8"?>\n<outline version="1"%s title="Benchmark">\n' % (
        ' model="%s"' % model if model else ""))

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
        if extras and rng.random() < 0.3:
            extra += ' done="%s"' % rng.choice(("YES", "NO"))
        if extras and rng.random() < 0.1:
            extra += ' note="%s"' % escape(title(rng))
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
