import sys

try:
    from .cli import main

    sys.exit(main())
except KeyboardInterrupt:  # Ctrl-C while Python was still starting
    print("Interrompu (Ctrl-C) : aucun classeur n'est resté à moitié écrit.", file=sys.stderr)
    sys.exit(130)
