import OutlineCore
import OutlineFiles
import OutlineMigration
import OutlineWorkspace

extension MigrateCommand {
  /// Migrates the document in the JSON form at `path` (mapped as `bytes`, unchanged since
  /// `snapshot`) along `plan`: read as `outline convert` reads it, migrated as XML, validated
  /// against the target, and written back as the JSON form atomically, or not at all.
  func migrateJSON(
    _ path: String, bytes: ByteBuffer, snapshot: FileSnapshot?, plan: MigrationPlan, step: String,
    report: inout MigrationReport
  ) -> FileResult {
    let migration = JSONFormMigration.run(bytes, plan: plan)
    // Bytes another program changed meanwhile are not the document (a page past a new end reads
    // as zeros): nothing they say is reported or written.
    if let change = bytes.changedWhileRead() {
      Terminal.error("\(path): not migrated: \(change)")
      return .trouble
    }
    report.list(migration.outcome, limit: bytes.view.count + 1) { migration.locate($0) }
    // Nothing to change (a document already at the target): its own problems are the linter's.
    if migration.outcome.changesNothing && migration.sourceErrors.isEmpty { return .unchanged }
    if let refusal = migration.refusal(allowDataLoss: allowDataLoss) {
      report.refusal = refusal
      Terminal.error("\(path): not migrated \(step): \(refusal)")
      return .refused
    }
    guard migration.outcome.changed else { return .unchanged }
    if check {
      report.text += "\(path): migration pending \(step)\n"
      return .pending
    }
    do {
      let writer = try AtomicFileWriter(path: path, unchangedSince: snapshot, activity: "migrated")
      // Removes the temporary file when the write fails (a no-op after the commit).
      defer { writer.discard() }
      migration.writeJSON { writer.write($0) }
      if let change = bytes.changedWhileRead() {
        Terminal.error("\(path): not migrated: \(change)")
        return .trouble
      }
      try writer.commit()
    } catch {
      Terminal.error(error.description)
      return .trouble
    }
    Terminal.write("\(TextFormat.displayedPath(path)): migrated \(step)\n", to: 2)
    return .written
  }
}
