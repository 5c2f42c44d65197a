/// The seed of the validator's hash tables (``IDTable``, ``UniquenessTables``):
/// drawn once per process, on first use.
///
/// Random per process, so ids or keys crafted to collide cannot make a file
/// slow to check; not per table, which cost a `getrandom` system call for
/// each table of each document (three a file when linting many small files).
enum HashSeed {
  static let process = UInt64.random(in: .min ... .max)
}
