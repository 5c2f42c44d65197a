import OutlineCommands

CommandLineTool.main(OutlineLintCommand.self, name: "outline-lint", quick: OutlineLintCommand.quickRun)
