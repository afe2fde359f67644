"""Run independent NumPy work items on every CPU core, one thread each.

OpenBLAS splits each matrix product across its own threads, which pays off only for
large products on an idle machine: for a short query, or when other processes keep the
cores busy, its threads wait on each other and a 10 ms embedding takes 100 ms or more.
Handing whole batches to one worker thread per core (NumPy releases the GIL while it
computes) with BLAS held to one thread is faster in both cases and also parallelises the
element-wise work that BLAS never touches. Holding BLAS to one thread needs
`threadpoolctl`; without it the work runs on the calling thread and BLAS threads as usual.
"""

from __future__ import annotations

import contextlib
import os
from concurrent.futures import ThreadPoolExecutor


class CpuWorkers:
    def __init__(self):
        try:
            from threadpoolctl import ThreadpoolController
        except ImportError:
            self._blas = None
            self.count = 1
        else:
            self._blas = ThreadpoolController()  # finds the BLAS that NumPy has loaded
            self.count = _usable_cores()

    def map(self, fn, items: list) -> list:
        """[fn(item) for item in items], in order, spread over the cores."""
        with self._single_threaded_blas():
            if self.count == 1 or len(items) <= 1:
                return [fn(item) for item in items]
            with ThreadPoolExecutor(min(self.count, len(items)), thread_name_prefix="macaron-cpu") as pool:
                return list(pool.map(fn, items))

    def _single_threaded_blas(self):
        return self._blas.limit(limits=1, user_api="blas") if self._blas else contextlib.nullcontext()


def _usable_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
