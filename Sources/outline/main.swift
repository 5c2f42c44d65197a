import OutlineCommands

OutlineCommand.main()
