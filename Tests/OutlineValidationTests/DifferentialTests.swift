import Foundation
import OutlineCore
import OutlineModel
import OutlineValidation
import TestSupport
import Testing

/// A generated object graph of a model, kept in memory with both sides of
/// every link, and the document that writes it. The graph is the oracle:
/// what Core Data's object graph would hold; the linter reads only the text.
struct ObjectGraph {
  struct Object {
    var entity: Int
    var id: String
    /// Nested in the root through this containment, or free (nil).
    var nestedIn: String?
    /// The relationship nesting sets (the containment's inverse).
    var implied: String?
    var attributes: [(name: String, value: String)] = []
    var extra = ""
  }

  let model: Model
  var objects: [Object] = []
  /// Object index, relationship name -> linked object indexes (both sides).
  var links: [Int: [String: [Int]]] = [:]
  /// (object, relationship) pairs written as attributes.
  var written: Set<String> = []
  /// The (object, relationship) whose written ids start with one no object has.
  var unknownTarget = ""
  var rng: SeededGenerator

  init(model: Model, seed: UInt64) {
    self.model = model
    rng = SeededGenerator(seed: seed)
  }

  func relationship(_ object: Int, _ name: String) -> Relationship? {
    let entity = model.entities[objects[object].entity]
    return entity.relationshipIndex[name].map { entity.relationships[$0] }
  }

  func inverseName(_ object: Int, _ name: String) -> String? {
    guard let relationship = relationship(object, name), relationship.inverse != nil else { return nil }
    return relationship.inverseName
  }

  func count(_ object: Int, _ name: String) -> Int { links[object]?[name]?.count ?? 0 }

  func bounds(_ relationship: Relationship) -> (low: Int, high: Int) {
    let high =
      relationship.isToMany ? ((relationship.maxCount ?? 0) > 0 ? relationship.maxCount! : Int.max) : 1
    let low = relationship.isOptional ? 0 : (relationship.isToMany ? max(1, relationship.minCount ?? 1) : 1)
    return (low, high)
  }

  /// Whether `object` may write `name` as an attribute.
  func isWritable(_ object: Int, _ name: String) -> Bool {
    guard let relationship = relationship(object, name) else { return false }
    return !relationship.isContainment && !relationship.isTransient && objects[object].implied != name
  }

  mutating func link(_ a: Int, _ name: String, _ b: Int) {
    links[a, default: [:]][name, default: []].append(b)
    if let inverse = inverseName(a, name) { links[b, default: [:]][inverse, default: []].append(a) }
  }

  /// The (object, relationship) pairs whose counts break the model's bounds.
  func violations() -> Int {
    var broken = 0
    for object in objects.indices {
      for relationship in model.entities[objects[object].entity].relationships where !relationship.isTransient
      {
        let (low, high) = bounds(relationship)
        let count = count(object, relationship.name)
        let minimum = relationship.minCount ?? 0
        if count > high || count < low || (count > 0 && count < minimum) { broken += 1 }
      }
    }
    return broken
  }

  /// The document, as the linter reads it.
  func text(rootEntity: Int?) -> String {
    var out = "<outline"
    var first = 0
    if let rootEntity {
      out += " entity=\"\(model.entities[rootEntity].name)\""
      out += objectAttributes(0)
      first = 1
    }
    out += ">\n"
    var orders: [String: Int] = [:]
    for object in objects.indices.dropFirst(first) {
      var order = ""
      let entity = model.entities[objects[object].entity]
      if let containment = objects[object].nestedIn, let attribute = entity.orderAttribute,
        let root = rootEntity,
        !(model.entities[root].relationshipIndex[containment].map {
          model.entities[root].relationships[$0].isOrdered
        }
          ?? false)
      {
        order = " \(entity.attributes[attribute].name)=\"\(orders[containment, default: 0])\""
        orders[containment, default: 0] += 1
      }
      out += "  <\(entity.name)\(order)\(objectAttributes(object))/>\n"
    }
    return out + "</outline>\n"
  }

  func objectAttributes(_ object: Int) -> String {
    var out = " xml:id=\"\(objects[object].id)\""
    for (name, value) in objects[object].attributes { out += " \(name)=\"\(value)\"" }
    for relationship in model.entities[objects[object].entity].relationships
    where written.contains("\(object) \(relationship.name)") && count(object, relationship.name) > 0 {
      var ids = (links[object]?[relationship.name] ?? []).map { objects[$0].id }
      if unknownTarget == "\(object) \(relationship.name)" { ids.insert("nosuch", at: 0) }
      out += " \(relationship.name)=\"\(ids.joined(separator: " "))\""
    }
    return out + objects[object].extra
  }
}

/// Generates valid graphs and their mutations for a model.
enum GraphGenerator {

  static func value(for attribute: Attribute, serial: Int, rng: inout SeededGenerator) -> String? {
    let minimum = attribute.minValue.flatMap(Double.init)
    let maximum = attribute.maxValue.flatMap(Double.init)
    switch attribute.type {
    case .integer16?, .integer32?, .integer64?:
      let low = Int(minimum ?? 0)
      let high = Int(maximum ?? Double(low + 30_000))
      guard high >= low else { return nil }
      return String(low + serial % (high - low + 1))
    case .double?, .float?, .decimal?:
      let low = minimum ?? 0
      let high = maximum ?? (low + 1000)
      return String(low + (high - low) * Double(serial % 7) / 7)
    case .boolean?: return serial % 2 == 0 ? "YES" : "false"
    case .date?: return "2024-0\(1 + serial % 9)-1\(serial % 9)T09:\(10 + serial % 50)Z"
    case .uuid?: return String(format: "%08X-0000-4000-8000-%012llX", serial, rng.next() & 0xFFFF_FFFF_FFFF)
    case .uri?: return "https://example.com/\(serial)"
    case .binary?: return "AAE\(serial % 10)"
    case .string?:
      let low = Int(minimum ?? 0)
      let high = Int(maximum ?? 40)
      if let pattern = attribute.regularExpression {
        let candidates = [
          "a", "A", "abc", "ABC", "a1", "user_\(serial)", "a@b.co", "x\(serial)@example.com", "1", "AAA",
        ]
        let regex = try? NSRegularExpression(pattern: "^(?:" + pattern + ")$")
        return candidates.first { candidate in
          candidate.count >= low && candidate.count <= high
            && regex?.firstMatch(in: candidate, range: NSRange(candidate.startIndex..., in: candidate)) != nil
        }
      }
      var text = "v\(serial)"
      while text.count < low { text += "x" }
      guard text.count <= high else { return high >= 1 ? String(text.suffix(high)) : "" }
      return text
    default: return "x\(serial)"
    }
  }

  /// A graph meant to be valid, or nil when the generator cannot satisfy the model.
  static func valid(_ model: Model, seed: UInt64) -> (ObjectGraph, String)? {
    var graph = ObjectGraph(model: model, seed: seed)
    let root = model.defaultRootEntity
    var serial = 0
    func add(_ entity: Int, nestedIn: String?, implied: String?) {
      serial += 1
      graph.objects.append(
        ObjectGraph.Object(
          entity: entity, id: "o\(graph.objects.count)", nestedIn: nestedIn, implied: implied))
    }
    if let root { add(root, nestedIn: nil, implied: nil) }
    // The root's entity has the root only: every object it can contain is its child.
    for entity in model.entities.indices where !model.entities[entity].isAbstract && entity != root {
      var nestedIn: String?
      var implied: String?
      if let root {
        switch model.containment(of: root, holding: entity) {
        case .relationship(let index):
          nestedIn = model.entities[root].relationships[index].name
          implied = model.entities[root].relationships[index].inverseName
        case .ambiguous:
          return nil
        case .none: break
        }
      }
      for _ in 0..<3 { add(entity, nestedIn: nestedIn, implied: implied) }
    }
    for object in graph.objects.indices where graph.objects[object].implied != nil {
      graph.link(object, graph.objects[object].implied!, 0)
    }
    // Attributes.
    for object in graph.objects.indices {
      let entity = model.entities[graph.objects[object].entity]
      for (index, attribute) in entity.attributes.enumerated() {
        if attribute.isTransient || attribute.isDerived || index == entity.orderAttribute { continue }
        // The root's element has format attributes of these names.
        if object == 0 && root != nil && ["version", "model", "entity"].contains(attribute.name) { continue }
        // Constraint members are always written, with values no other object has.
        let constrained = entity.uniquenessConstraints.contains { $0.names.contains(attribute.name) }
        let required = (!attribute.isOptional && attribute.defaultValue == nil) || constrained
        guard required || graph.rng.next() % 2 == 0 else { continue }
        guard let value = value(for: attribute, serial: object * 7 + index, rng: &graph.rng) else {
          if required {
            return nil
          }
          continue
        }
        graph.objects[object].attributes.append((attribute.name, value))
      }
    }
    // Links: first what the bounds require, then some optional ones.
    for pass in 0..<3 {
      for object in graph.objects.indices {
        let entity = model.entities[graph.objects[object].entity]
        for relationship in entity.relationships where !relationship.isTransient {
          guard let destination = relationship.destination else { continue }
          let (low, high) = graph.bounds(relationship)
          let minimum = relationship.minCount ?? 0
          var want = low
          if pass == 2 && graph.count(object, relationship.name) == 0 && graph.rng.next() % 3 == 0 {
            want = max(1, minimum)
          }
          var candidates = graph.objects.indices.filter {
            model.isKind(graph.objects[$0].entity, of: destination)
          }
          candidates.shuffle(using: &graph.rng)
          // The least linked first, so required inverses are spread over every candidate.
          if let inverse = relationship.inverseName {
            let counts = candidates.map { graph.count($0, inverse) }
            candidates = zip(candidates, counts).sorted { $0.1 < $1.1 }.map(\.0)
          }
          for candidate in candidates where graph.count(object, relationship.name) < min(want, high) {
            if graph.links[object]?[relationship.name]?.contains(candidate) == true { continue }
            let inverse = graph.inverseName(object, relationship.name)
            if let inverse, let back = graph.relationship(candidate, inverse) {
              if graph.count(candidate, inverse) >= graph.bounds(back).high { continue }
              if back.isTransient { continue }
            }
            guard
              graph.isWritable(object, relationship.name)
                || inverse.map({ graph.isWritable(candidate, $0) }) == true
            else { continue }
            graph.link(object, relationship.name, candidate)
          }
        }
      }
    }
    guard graph.violations() == 0 else {
      return nil
    }
    // Sides: each (object, relationship) written with some chance; every link by one side at least.
    // Relationships in model order: dictionaries iterate in a different order every run.
    func linked(_ object: Int) -> [String] {
      model.entities[graph.objects[object].entity].relationships.map(\.name).filter {
        graph.count(object, $0) > 0
      }
    }
    for object in graph.objects.indices {
      for name in linked(object) where graph.isWritable(object, name) && graph.rng.next() % 2 == 0 {
        graph.written.insert("\(object) \(name)")
      }
    }
    for object in graph.objects.indices {
      for name in linked(object) {
        for target in graph.links[object]?[name] ?? [] {
          let inverse = graph.inverseName(object, name)
          let covered =
            graph.written.contains("\(object) \(name)")
            || inverse.map { graph.written.contains("\(target) \($0)") } == true
            || graph.objects[object].implied == name
            || inverse.map { graph.objects[target].implied == $0 } == true
          if covered { continue }
          if graph.isWritable(object, name) {
            graph.written.insert("\(object) \(name)")
          } else if let inverse, graph.isWritable(target, inverse) {
            graph.written.insert("\(target) \(inverse)")
          } else {
            return nil
          }
        }
      }
    }
    return (graph, graph.text(rootEntity: root))
  }
}

/// Agreement, measured: valid generated graphs of every corpus model lint
/// clean, and each single mutation gives exactly the codes the in-memory
/// graph says Core Data would raise.
@Suite(.enabled(if: Corpus.available, Comment(rawValue: Corpus.absent)))
struct DifferentialTests {
  struct Tally {
    var models = 0
    var graphs = 0
    var skipped = 0
    var mutations = 0
    var graphsThroughBinary = 0
    var disagreements: [String] = []
  }

  static func corpusModels() -> [(name: String, path: String, model: Model)] {
    let folder = Corpus.folder("xcdatamodel")
    var paths: [String] = []
    for name in Corpus.names(in: "xcdatamodel") {
      let path = folder.appendingPathComponent(name).path
      if name.hasSuffix(".xcdatamodeld") {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        paths += versions.sorted().filter { $0.hasSuffix(".xcdatamodel") }.map {
          path + "/" + $0 + "/contents"
        }
      } else {
        paths.append(path)
      }
    }
    return paths.compactMap { path in
      guard let data = FileManager.default.contents(atPath: path) else { return nil }
      let model = ModelLoader.load(SourceText(bytes: [UInt8](data)), path: path)
      let file = path as NSString
      let name =
        file.lastPathComponent == "contents"
        ? (file.deletingLastPathComponent as NSString).lastPathComponent : file.lastPathComponent
      return model.hasErrors ? nil : (name, path, model)
    }
  }

  static func codes(_ text: String, _ model: Model) -> [String] {
    validate(text, model: model).filter { $0.severity != .hint }.map(\.code.rawValue).sorted()
  }

  @Test func generatedGraphsAgreeWithTheLinter() {
    var tally = Tally()
    let start = Date()
    var throughBinary: [(text: String, model: String, name: String)] = []
    for (name, path, model) in Self.corpusModels() {
      tally.models += 1
      for seed in 1...4 {
        guard
          let (graph, text) = GraphGenerator.valid(model, seed: UInt64(seed) &* 7919 &+ UInt64(tally.models))
        else {
          tally.skipped += 1
          continue
        }
        tally.graphs += 1
        if seed == 1 { throughBinary.append((text, path, name)) }
        let found = Self.codes(text, model)
        if !found.isEmpty {
          tally.disagreements.append("\(name) seed \(seed): valid graph got \(found)\n\(text)")
          continue
        }
        for (mutated, expected) in Self.mutations(of: graph, rootEntity: model.defaultRootEntity) {
          tally.mutations += 1
          let got = Self.codes(mutated, model)
          if got != expected.sorted() {
            tally.disagreements.append("\(name) seed \(seed): expected \(expected), got \(got)\n\(mutated)")
          }
        }
      }
    }
    // One valid graph per model through the real outline-lint, as a user runs it.
    let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(".build/debug/outline-lint")
    if FileManager.default.isExecutableFile(atPath: binary.path) {
      let folder = Scratch.url("differential")
      try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      for (index, graph) in throughBinary.enumerated() {
        let file = folder.appendingPathComponent("graph\(index).outline")
        try? Data(graph.text.utf8).write(to: file)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--quiet", "--model", graph.model, file.path]
        tally.graphsThroughBinary += 1
        do {
          let output = try CLI.collect(process)
          if output.status != 0 {
            tally.disagreements.append(
              "\(graph.name): outline-lint exited \(output.status) on a valid graph: \(output.stdout)")
          }
        } catch {
          tally.disagreements.append("\(graph.name): outline-lint did not start: \(error)")
        }
      }
    }
    let seconds = Date().timeIntervalSince(start)
    print(
      "differential: \(tally.models) models, \(tally.graphs) graphs (\(tally.skipped) not generated), \(tally.mutations) mutations, \(tally.graphsThroughBinary) graphs through outline-lint, \(tally.disagreements.count) disagreements, \(String(format: "%.1f", seconds)) s"
    )
    #expect(tally.disagreements.isEmpty, "\(tally.disagreements.prefix(3).joined(separator: "\n\n"))")
    #expect(tally.graphs > tally.models, "too few graphs generated")
  }

  /// Single mutations of a valid graph and the codes each must give.
  static func mutations(of graph: ObjectGraph, rootEntity: Int?) -> [(String, [String])] {
    var out: [(String, [String])] = []
    let model = graph.model
    func mutate(_ change: (inout ObjectGraph) -> Void) -> String {
      var copy = graph
      change(&copy)
      return copy.text(rootEntity: rootEntity)
    }
    let first = rootEntity == nil ? 0 : 1
    for object in graph.objects.indices.dropFirst(first) {
      let entity = model.entities[graph.objects[object].entity]
      // A required attribute removed: OL204.
      if let index = graph.objects[object].attributes.firstIndex(where: { pair in
        entity.attributes.first { $0.name == pair.name }.map { !$0.isOptional && $0.defaultValue == nil }
          == true
      }) {
        out.append((mutate { $0.objects[object].attributes.remove(at: index) }, ["OL204"]))
      }
      // An integer that is not one: OL300.
      if let index = graph.objects[object].attributes.firstIndex(where: { pair in
        entity.attributes.first { $0.name == pair.name }?.type?.isInteger == true
      }) {
        out.append((mutate { $0.objects[object].attributes[index].value = "x1" }, ["OL300"]))
      }
      // A derived attribute written: OL206; an unknown one: OL203.
      if let derived = entity.attributes.first(where: \.isDerived) {
        out.append((mutate { $0.objects[object].extra = " \(derived.name)=\"1\"" }, ["OL206"]))
      }
      out.append((mutate { $0.objects[object].extra = " zzUnknown=\"1\"" }, ["OL203"]))
      // A written relationship dropped: the graph says which counts break (OL503).
      for relationship in entity.relationships where graph.written.contains("\(object) \(relationship.name)")
      {
        var copy = graph
        copy.written.remove("\(object) \(relationship.name)")
        let inverse = copy.inverseName(object, relationship.name)
        for target in copy.links[object]?[relationship.name] ?? [] {
          let kept = inverse.map { copy.written.contains("\(target) \($0)") } == true
          if kept { continue }
          copy.links[object]?[relationship.name]?.removeAll { $0 == target }
          if let inverse { copy.links[target]?[inverse]?.removeAll { $0 == object } }
        }
        out.append((copy.text(rootEntity: rootEntity), Array(repeating: "OL503", count: copy.violations())))
        // An id no object has, added to a to-many without a maximum: OL501.
        if relationship.isToMany, (relationship.maxCount ?? 0) == 0 {
          out.append((mutate { $0.unknownTarget = "\(object) \(relationship.name)" }, ["OL501"]))
        }
        break
      }
    }
    // Two objects given the same values for a constraint: OL505.
    for entity in model.entities.indices where !model.entities[entity].uniquenessConstraints.isEmpty {
      let members = graph.objects.indices.filter { graph.objects[$0].entity == entity }
      guard members.count >= 2, let constraint = model.entities[entity].uniquenessConstraints.first,
        constraint.members?.allSatisfy({ if case .attribute = $0 { true } else { false } }) == true,
        model.entities[entity].uniquenessConstraints.count == 1
      else { continue }
      let (a, b) = (members[0], members[1])
      let values = constraint.names.map { name in graph.objects[a].attributes.first { $0.name == name }?.value
      }
      guard values.allSatisfy({ $0 != nil }) else { continue }
      out.append(
        (
          mutate { copy in
            for (name, value) in zip(constraint.names, values) {
              copy.objects[b].attributes.removeAll { $0.name == name }
              copy.objects[b].attributes.append((name, value!))
            }
          }, ["OL505"]
        ))
    }
    return out
  }
}
