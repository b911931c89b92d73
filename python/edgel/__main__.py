"""`python -m edgel ...` runs the edgel command of this installation (edgel --help)."""
from ._command import main

main()
