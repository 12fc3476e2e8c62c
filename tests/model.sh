#!/usr/bin/env bash
# A soak of the reference model (shared/model, decision 054): CASES random household
# histories (default 1000) on the memory store and as many on the embedded store, each
# checked against the model after every step. The seed of every history is printed on a
# failure; MODEL_SEED=<seed> tests/model.sh replays that one (CASES is then ignored).
# MODEL_BASE=<n> fixes the run's first seed, to repeat a whole run.
set -euo pipefail
cd "$(dirname "$0")/.."
export MODEL_CASES="${1:-1000}"
started=$(date +%s)
cargo test -p dochiya-model --all-features --locked --test model -- --nocapture --exact --test-threads 2 \
  histories_on_the_memory_store histories_on_the_embedded_store
echo "model soak: ${MODEL_SEED:+seed $MODEL_SEED}${MODEL_SEED:-$MODEL_CASES histories on each of 2 stores} in $(($(date +%s) - started)) s"
