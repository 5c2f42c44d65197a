import OutlineCommands

CommandLineTool.main(OutlineCommand.self, name: "outline", quick: OutlineCommand.quickRun)
