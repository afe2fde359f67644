from macaron_cli.cli import main

main()
