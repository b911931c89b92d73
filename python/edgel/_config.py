"""What this installation has: the library, its build, the compiled call path, the GPUs and
the command."""
from __future__ import annotations

import ctypes
import os

from ._capi import __version__, _hostcall, _lib, _library_path
from ._context import cuda_device_count


def show_config(print_out: bool = True) -> dict:
    """What this installation has, as numpy.show_config tells NumPy's.

    Parameters
    ----------
    print_out : bool
        Print it, a line a key.

    Returns
    -------
    dict
        The library (its file, version, CUDA architectures and CPU FFT), whether NumPy calls
        take the compiled path, the CUDA devices seen, and the `edgel` command with the file
        formats it reads (TIFF among them).
    """
    import subprocess
    try:
        build = _lib.edgel_build_config
        build.restype = ctypes.c_char_p
        build = build().decode()
    except AttributeError:  # a library older than this call
        build = "unknown (library before 0.4.0's edgel_build_config)"
    config = {"version": __version__, "library": _library_path(), "build": build,
              "compiled calls": _hostcall is not None, "cuda devices": cuda_device_count()}
    command = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "edgel")
    if os.access(command, os.X_OK):
        r = subprocess.run([command, "--version"], capture_output=True, text=True)
        files = [line for line in r.stdout.splitlines() if line.startswith("files:")]
        config["command"] = command
        config["command files"] = files[0][len("files: "):] if files else r.stderr.strip()
    else:
        config["command"] = None
    if print_out:
        for key, value in config.items():
            print(f"{key}: {value}")
    return config
