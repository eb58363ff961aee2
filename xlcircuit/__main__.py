import sys

try:
    from .cli import main  # it says what a Ctrl-C interrupted, from its first import on

    sys.exit(main())
except KeyboardInterrupt:  # Ctrl-C while Python was still starting
    print("Interrompu (Ctrl-C) au démarrage : rien n'a été lu ni écrit.", file=sys.stderr)
    sys.exit(130)
