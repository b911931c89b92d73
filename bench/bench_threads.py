"""The CPU backend at 1..N threads, on an idle machine and with background load: the whole
Canny pipeline (gray, Gaussian blur, Canny) through `edgel bench`, median of --runs calls
after a warm-up. More threads must never be slower; with every core busy with other
processes, N threads should cost about what 1 thread costs, not a multiple of it.

    python3 bench/bench_threads.py [--edgel build/edgel] [--sizes 640x480,1920x1080,3840x2160]
                                   [--threads 1,2,4,...] [--load N] [--runs 15]

--load N: N busy processes (default: one a core) run beside the loaded column.
Prints a Markdown table: ms per frame, idle and loaded, per size and thread count.
"""
import argparse
import multiprocessing
import os
import re
import subprocess
import sys
import time


def spin(stop):
    while not stop.is_set():
        for _ in range(100000):
            pass


def totals(edgel, sizes, threads, runs):
    """{size: ms} of the multi-threaded rows of one `edgel bench` run."""
    out = subprocess.run([edgel, "bench", "--sizes", sizes, "--threads", str(threads),
                          "--runs", str(runs)], capture_output=True, text=True, check=True)
    result = {}
    for line in out.stdout.splitlines():
        m = re.match(r"\| (\d+x\d+) \| (\d+) \| [\d.]+ \| [\d.]+ \| [\d.]+ \| ([\d.]+) \|", line)
        if m and int(m.group(2)) == threads:
            result[m.group(1)] = float(m.group(3))
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--edgel", default=os.path.join("build", "edgel"))
    ap.add_argument("--sizes", default="640x480,1920x1080,3840x2160")
    cores = os.cpu_count() or 1
    default_threads = sorted({1, 2, 4, 8, 16, 32, cores} & set(range(1, 2 * cores + 1)))
    ap.add_argument("--threads", default=",".join(map(str, default_threads)))
    ap.add_argument("--load", type=int, default=cores)
    ap.add_argument("--runs", type=int, default=15)
    a = ap.parse_args()
    counts = [int(t) for t in a.threads.split(",")]
    idle = {t: totals(a.edgel, a.sizes, t, a.runs) for t in counts}
    stop = multiprocessing.Event()
    load = [multiprocessing.Process(target=spin, args=(stop,)) for _ in range(a.load)]
    for p in load:
        p.start()
    time.sleep(1)
    try:
        loaded = {t: totals(a.edgel, a.sizes, t, a.runs) for t in counts}
    finally:
        stop.set()
        for p in load:
            p.join()
    print(f"edgel CPU pipeline (gray, blur 1.4, Canny 50/150), {cores} cores, ms per frame, "
          f"median of {a.runs}; loaded: {a.load} busy processes beside it\n")
    print("| size | threads | idle ms | loaded ms |")
    print("|---|---|---|---|")
    for size in a.sizes.split(","):
        for t in counts:
            print(f"| {size} | {t} | {idle[t][size]:.3f} | {loaded[t][size]:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
