import OutlineCommands

LintCommand.main()
