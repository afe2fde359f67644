"""all-MiniLM-L6-v2 in plain NumPy: the BERT encoder, mean pooling and L2 normalisation.

sentence-transformers would do the same through torch and transformers, whose import alone
costs ~6 s of CPU; this needs only numpy, the Rust `tokenizers` and `safetensors`, and
loads in a fraction of a second. It reads the model's own files (config.json,
tokenizer.json, model.safetensors, sentence_bert_config.json, 1_Pooling/config.json) and
computes in float32 like the torch model, so its vectors match sentence-transformers' to
float rounding (tests/test_memory_embeddings.py checks that).
"""

from __future__ import annotations

import json
import math
import threading
from pathlib import Path

import numpy as np

from macaron_cli.memory.cpu import CpuWorkers

# Tokens per forward pass: enough rows that the dense layers are efficient matrix products,
# few enough that one batch's activations stay in tens of MB. A call with fewer tokens than
# this is still split across the CPU's workers, down to MIN_TOKENS_PER_BATCH per batch.
TOKENS_PER_BATCH = 4096
MIN_TOKENS_PER_BATCH = 256


class MiniLM:
    """A sentence-transformers BERT model (mean pooling, normalised) read from `model_dir`."""

    def __init__(self, model_dir: Path):
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        config = json.loads((model_dir / "config.json").read_text())
        _check_supported(model_dir, config)
        self.heads = config["num_attention_heads"]
        self.eps = float(config["layer_norm_eps"])
        self.max_length = min(_max_seq_length(model_dir), config["max_position_embeddings"])
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        # tokenizer.json ships with truncation at 128 and padding to a fixed 128; batches
        # are padded here to their own longest text instead.
        self.tokenizer.enable_truncation(max_length=self.max_length)
        self.tokenizer.no_padding()
        self.pad_id = config.get("pad_token_id", 0)

        w = load_file(str(model_dir / "model.safetensors"))
        prefix = "bert." if "bert.embeddings.word_embeddings.weight" in w else ""
        w = {k.removeprefix(prefix): v.astype(np.float32, copy=False) for k, v in w.items() if v.dtype.kind == "f"}
        self.word = w["embeddings.word_embeddings.weight"]
        self.position = w["embeddings.position_embeddings.weight"]
        self.token_type0 = w["embeddings.token_type_embeddings.weight"][0]
        self.embed_norm = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        self.layers = [_Layer(w, f"encoder.layer.{i}.") for i in range(config["num_hidden_layers"])]
        self.dim = self.word.shape[1]
        self.workers = CpuWorkers()
        # One encode at a time: each already uses every core, and the BLAS thread setting
        # that CpuWorkers changes is process-wide.
        self._encoding = threading.Lock()

    def encode(self, texts: list[str]) -> np.ndarray:
        """Unit-length float32 vectors, one row per text, in the order given."""
        ids = [e.ids for e in self.tokenizer.encode_batch(list(texts))]
        out = np.empty((len(ids), self.dim), dtype=np.float32)
        per_worker = sum(map(len, ids)) // self.workers.count
        batches = _batches_by_length(ids, max(MIN_TOKENS_PER_BATCH, min(TOKENS_PER_BATCH, per_worker)))
        with self._encoding:
            vectors = self.workers.map(lambda rows: self._forward([ids[i] for i in rows]), batches)
            for rows, batch_vectors in zip(batches, vectors):
                out[rows] = batch_vectors
        return out

    def _forward(self, batch_ids: list[list[int]]) -> np.ndarray:
        n, length = len(batch_ids), max(len(x) for x in batch_ids)
        ids = np.full((n, length), self.pad_id, dtype=np.int64)
        mask = np.zeros((n, length), dtype=np.float32)
        for row, x in enumerate(batch_ids):
            ids[row, : len(x)] = x
            mask[row, : len(x)] = 1.0
        hidden = self.word[ids] + self.position[:length] + self.token_type0  # (n, length, dim)
        hidden = _layer_norm(hidden.reshape(n * length, self.dim), *self.embed_norm, self.eps)
        # Padded keys get the lowest float as score, so softmax gives them no weight.
        key_bias = ((1.0 - mask) * np.finfo(np.float32).min)[:, None, None, :]
        for layer in self.layers:
            hidden = layer(hidden, n, length, self.heads, key_bias, self.eps)
        summed = (mask[:, None, :] @ hidden.reshape(n, length, self.dim))[:, 0]  # mean over real tokens
        pooled = summed / np.maximum(mask.sum(axis=1, keepdims=True), np.float32(1e-9))
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), np.float32(1e-12))


def _batches_by_length(ids: list[list[int]], tokens_per_batch: int) -> list[list[int]]:
    """Row numbers grouped so each batch holds texts of similar length (little padding)."""
    order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
    batches, start = [], 0
    while start < len(order):
        end = start + 1  # sorted by length, so a batch's last text is its longest
        while end < len(order) and (end - start + 1) * len(ids[order[end]]) <= tokens_per_batch:
            end += 1
        batches.append(order[start:end])
        start = end
    return batches


class _Layer:
    """One BERT encoder layer; weights transposed once so every product is `x @ W`."""

    def __init__(self, w: dict, p: str):
        att = p + "attention.self."
        self.qkv = np.ascontiguousarray(np.concatenate(
            [w[att + "query.weight"], w[att + "key.weight"], w[att + "value.weight"]]).T)
        self.qkv_bias = np.concatenate([w[att + "query.bias"], w[att + "key.bias"], w[att + "value.bias"]])
        self.att_out = np.ascontiguousarray(w[p + "attention.output.dense.weight"].T)
        self.att_out_bias = w[p + "attention.output.dense.bias"]
        self.att_norm = (w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"])
        self.up = np.ascontiguousarray(w[p + "intermediate.dense.weight"].T)
        self.up_bias = w[p + "intermediate.dense.bias"]
        self.down = np.ascontiguousarray(w[p + "output.dense.weight"].T)
        self.down_bias = w[p + "output.dense.bias"]
        self.out_norm = (w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])

    def __call__(self, x: np.ndarray, n: int, length: int, heads: int, key_bias: np.ndarray, eps: float):
        dim = x.shape[1]
        head_dim = dim // heads
        qkv = x @ self.qkv
        qkv += self.qkv_bias
        # (n·length, 3·dim) → three (n, heads, length, head_dim) views
        q, k, v = qkv.reshape(n, length, 3, heads, head_dim).transpose(2, 0, 3, 1, 4)
        scores = q @ k.transpose(0, 1, 3, 2)
        scores *= np.float32(1.0 / math.sqrt(head_dim))
        scores += key_bias
        _softmax_inplace(scores)
        context = (scores @ v).transpose(0, 2, 1, 3).reshape(n * length, dim)
        attended = context @ self.att_out
        attended += self.att_out_bias
        attended += x
        x = _layer_norm(attended, *self.att_norm, eps)
        inner = x @ self.up
        inner += self.up_bias
        _gelu_inplace(inner)
        out = inner @ self.down
        out += self.down_bias
        out += x
        return _layer_norm(out, *self.out_norm, eps)


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    centred = x - x.mean(axis=-1, keepdims=True)
    var = np.mean(centred * centred, axis=-1, keepdims=True)
    centred *= 1.0 / np.sqrt(var + np.float32(eps))
    centred *= weight
    centred += bias
    return centred


def _softmax_inplace(x: np.ndarray) -> None:
    x -= x.max(axis=-1, keepdims=True)
    np.exp(x, out=x)
    x /= x.sum(axis=-1, keepdims=True)


# erf as a rational function of x on [-4, 4] (outside it erf is ±1 in float32), with
# Eigen's float32 coefficients, highest power first: within 5e-7 of the exact erf
# everywhere, so this is the exact (erf) GELU of BERT's "gelu", without importing scipy.
_ERF_NUM = tuple(np.float32(c) for c in (
    -2.72614225801306e-10, 2.77068142495902e-08, -2.10102402082508e-06, -5.69250639462346e-05,
    -7.34990630326855e-04, -2.95459980854025e-03, -1.60960333262415e-02))
_ERF_DEN = tuple(np.float32(c) for c in (
    -1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03, -7.37332916720468e-03,
    -1.42647390514189e-02))
# GELU runs in slices that stay in the CPU's cache: a dozen passes over a 16 MB array
# from memory cost as much as the matrix product before it.
_GELU_SLICE = 65536


def _gelu_inplace(x: np.ndarray) -> None:
    """x ← x · Φ(x) = 0.5·x·(1 + erf(x/√2)), the exact GELU (x must be contiguous)."""
    flat = x.reshape(-1)
    size = min(_GELU_SLICE, flat.size)
    t, t2, num, den = (np.empty(size, dtype=np.float32) for _ in range(4))
    for start in range(0, flat.size, _GELU_SLICE):
        v = flat[start:start + _GELU_SLICE]
        m = v.size
        t_, t2_, num_, den_ = t[:m], t2[:m], num[:m], den[:m]
        np.multiply(v, np.float32(1.0 / math.sqrt(2.0)), out=t_)
        np.clip(t_, -4.0, 4.0, out=t_)
        np.multiply(t_, t_, out=t2_)
        _horner(_ERF_NUM, t2_, num_)
        num_ *= t_
        _horner(_ERF_DEN, t2_, den_)
        num_ /= den_  # erf(v/√2)
        num_ += 1.0
        num_ *= 0.5
        v *= num_


def _horner(coefficients: tuple, x: np.ndarray, out: np.ndarray) -> None:
    np.multiply(x, coefficients[0], out=out)
    for c in coefficients[1:-1]:
        out += c
        out *= x
    out += coefficients[-1]


def _max_seq_length(model_dir: Path) -> int:
    path = model_dir / "sentence_bert_config.json"
    return int(json.loads(path.read_text())["max_seq_length"]) if path.exists() else 512


def _check_supported(model_dir: Path, config: dict) -> None:
    """Refuse a model this encoder would compute wrongly rather than return bad vectors."""
    pooling_path = model_dir / "1_Pooling" / "config.json"
    pooling = json.loads(pooling_path.read_text()) if pooling_path.exists() else {"pooling_mode_mean_tokens": True}
    modes = {k for k, v in pooling.items() if k.startswith("pooling_mode_") and v}
    problems = []
    if config.get("model_type") != "bert":
        problems.append(f"model_type {config.get('model_type')!r}")
    if config.get("hidden_act") != "gelu":  # transformers' "gelu" is the exact erf form
        problems.append(f"hidden_act {config.get('hidden_act')!r}")
    if config.get("position_embedding_type", "absolute") != "absolute":
        problems.append(f"position_embedding_type {config.get('position_embedding_type')!r}")
    if modes != {"pooling_mode_mean_tokens"}:
        problems.append(f"pooling {sorted(modes)}")
    if problems:
        raise RuntimeError(f"{model_dir}: unsupported by the NumPy encoder: {', '.join(problems)}")
