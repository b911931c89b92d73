"""The `edgel` command of a pip installation: runs the program installed in the package
(edgel/bin/edgel, beside the library it uses) with the same arguments."""
import os
import sys


def main() -> None:
    exe = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "edgel")
    if not os.access(exe, os.X_OK):
        sys.exit(f"edgel: the command is not installed with this package ({exe}); "
                 "install with `pip install .` or build it with scripts/build.sh")
    os.execv(exe, [exe] + sys.argv[1:])


if __name__ == "__main__":
    main()
