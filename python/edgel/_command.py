"""The `edgel` command of a pip installation (and `python -m edgel`): runs the program
installed in the package (edgel/bin/edgel, beside the library it uses), or in a build tree
the one beside $EDGEL_LIBRARY, with the same arguments."""
import os
import sys


def main() -> None:
    exe = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "edgel")
    library = os.environ.get("EDGEL_LIBRARY")
    if not os.access(exe, os.X_OK) and library:  # a build tree: the command beside its library
        exe = os.path.join(os.path.dirname(os.path.abspath(library)), "edgel")
    if not os.access(exe, os.X_OK):
        sys.exit(f"edgel: the command is not installed with this package ({exe}); "
                 "install with `pip install .` or build it with scripts/build.sh")
    os.execv(exe, [exe] + sys.argv[1:])


if __name__ == "__main__":
    main()
