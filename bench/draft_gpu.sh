#!/usr/bin/env bash
# Measure a DeepSeek draft model on a GPU machine: engine start-up, tokens per second
# (macaron's client vs the engine directly) and the time to a verified draft
# (`macaron make --local-only`: draft, verify, fix rounds; no cloud call).
#
#   bash bench/draft_gpu.sh [MODEL] [GPUS] [ENGINE]
#   defaults: deepseek-ai/DeepSeek-Coder-V2-Lite-Instruct, all visible GPUs, vllm
#
# Needs the engine installed (pip install vllm / 'sglang[all]', or llama-server / ollama
# on PATH) and the model in its cache or reachable. Writes its logs under $OUT (default
# a temp dir) and prints one summary block at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

MODEL=${1:-deepseek-ai/DeepSeek-Coder-V2-Lite-Instruct}
GPUS=${2:-$( (nvidia-smi -L 2>/dev/null || true) | wc -l)}
ENGINE=${3:-vllm}
PORT=${PORT:-8765}
OUT=${OUT:-$(mktemp -d)}
export MACARON_HOME=${MACARON_HOME:-$OUT/home}
export MACARON_APPS_DIR=${MACARON_APPS_DIR:-$OUT/apps}
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
MACARON=(python3 -m macaron_cli)
unset MACARON_DRAFT_URL MACARON_DRAFT_MODEL MACARON_DRAFT_API ANTHROPIC_BASE_URL ANTHROPIC_API_KEY

[ "${GPUS:-0}" -ge 1 ] || { echo "no NVIDIA GPU visible (nvidia-smi -L lists none)"; exit 2; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sed 's/^/gpu: /'

echo "starting $ENGINE with $MODEL on $GPUS GPU(s), port $PORT …"
t0=$(date +%s.%N)
"${MACARON[@]}" draft serve --engine "$ENGINE" --model "$MODEL" --gpus "$GPUS" --port "$PORT" >"$OUT/serve.log" 2>&1 &
SERVE=$!
trap 'kill -INT $SERVE 2>/dev/null; wait $SERVE 2>/dev/null || true' EXIT
until grep -q "Draft model ready" "$OUT/serve.log"; do
  kill -0 $SERVE 2>/dev/null || { echo "draft serve exited:"; tail -20 "$OUT/serve.log"; exit 1; }
  sleep 2
done
t_ready=$(python3 -c "import time; print(f'{time.time() - $t0:.1f}')")
echo "ready after ${t_ready}s"

"${MACARON[@]}" draft status --json | tee "$OUT/status.json"
python3 bench/draft_throughput.py --url "http://127.0.0.1:$PORT" --rounds 5 --max-tokens 512 | tee "$OUT/throughput.txt"

echo "time to a verified draft (macaron make --local-only) …"
t1=$(date +%s.%N)
set +e
"${MACARON[@]}" make "a water tracker that reminds me to drink 2 litres a day" --local-only --yes --json \
  >"$OUT/make.json" 2>"$OUT/make.err"
make_rc=$?
set -e
t_make=$(python3 -c "import time; print(f'{time.time() - $t1:.1f}')")

echo "──── summary ($OUT)"
echo "engine $ENGINE  model $MODEL  gpus $GPUS"
echo "start-up to healthy: ${t_ready}s"
python3 - "$OUT" <<'EOF'
import json, sys, pathlib
out = pathlib.Path(sys.argv[1])
status = json.loads((out / "status.json").read_text())
print(f"probe: {status.get('tokens_per_second')} tok/s, first token {status.get('first_token_seconds')} s")
print((out / "throughput.txt").read_text().strip().splitlines()[-1])
try:
    made = json.loads((out / "make.json").read_text())
    phases = ", ".join(c["phase"] for c in made.get("checkpoints", []))
    print(f"make --local-only: tests {made.get('tests')}, opened {made.get('opened')}, checkpoints {phases}, "
          f"tokens {made.get('tokens', {}).get('total')}, cost ${made.get('cost_usd')}")
except (OSError, ValueError):
    print("make --local-only: no JSON; see", out / "make.err")
EOF
echo "time to a verified draft: ${t_make}s (exit $make_rc)"
