#!/usr/bin/env bash
# GPU check of the training CLI: on ONE CUDA GPU, with torch + transformers and the project
# installed, run `train sft`, `train grpo --preset gpu` (generation with transformers, no vLLM)
# and `train es --device cuda` (then a resume, with the replay check on the GPU) through the
# `lemmaforge` CLI, on a small random model, against the stand-in Kimina Lean Server
# (tests/fakes/fake_kimina.py). One line per step; about a minute on an H200, bounded to 4.
#
#   bash scripts/gpu_check.sh            (from the repo root; PYTHON=... to pick the interpreter)
#
# Self-contained: no network, installs nothing. The data (4 miniF2F problems with proofs) is
# written here. trl (and datasets, accelerate) are needed for sft and grpo: when missing, those
# steps say so and are skipped; es needs only torch and transformers. Exit 0 when nothing failed
# (skips are listed), 1 when a step failed (its log tail follows its line).

set -u
cd "$(dirname "$0")/.."
ROOT="$PWD"
PY="${PYTHON:-python3}"
export PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}"
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_DATASETS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
export PIP_NO_INDEX=1 WANDB_DISABLED=true
export LEMMAFORGE_HOME="${LEMMAFORGE_HOME:-$(mktemp -d)}"  # never the user's store
WORK="$(mktemp -d "${TMPDIR:-/tmp}/gpu_check.XXXXXX")"
DB="sqlite:///$WORK/runs.db"
STEP_TIMEOUT="${STEP_TIMEOUT:-150}"
# GPU_CHECK_DEVICE=cpu: a dry run of this script on a machine without a GPU (es on the CPU, grpo
# with the cpu preset, sft with --cpu); it proves the script, not the GPU paths.
export GPU_CHECK_DEVICE="${GPU_CHECK_DEVICE:-cuda}"
if [ "$GPU_CHECK_DEVICE" = cpu ]; then GRPO_PRESET=cpu; SFT_CPU=(--cpu); else GRPO_PRESET=gpu; SFT_CPU=(); fi
START=$(date +%s)
OK=0; FAILED=0; SKIPPED=0
KIMINA_PID=""

cleanup() { [ -n "$KIMINA_PID" ] && kill "$KIMINA_PID" 2>/dev/null; }
trap cleanup EXIT

elapsed() { echo $(( $(date +%s) - START ))s; }
line() { printf '[gpu_check %6s] %-4s %s\n' "$(elapsed)" "$1" "$2"; }
fail_step() {  # name log
  FAILED=$((FAILED + 1)); line FAIL "$1 (log: $2)"
  [ -f "$2" ] && tail -n 15 "$2" | sed 's/^/      | /'
}
# run_step NAME LOG CHECK_PY -- command...: the command's stdout (JSON) goes to LOG.json, all of
# it to LOG; CHECK_PY reads the JSON as `out` and prints the step's one-line summary (or raises).
run_step() {
  local name="$1" log="$2" check="$3"; shift 4
  local t0=$(date +%s)
  if timeout "$STEP_TIMEOUT" "$@" >"$log.json" 2>"$log"; then
    local msg
    if msg=$("$PY" - "$log.json" <<EOF 2>>"$log"
import json, os, sys
DEVICE = os.environ.get("GPU_CHECK_DEVICE", "cuda")
out = json.load(open(sys.argv[1]))
$check
EOF
    ); then
      OK=$((OK + 1)); line ok "$name: $msg ($(( $(date +%s) - t0 ))s)"; return 0
    fi
  fi
  cat "$log.json" >>"$log" 2>/dev/null
  fail_step "$name" "$log"; return 1
}

# --- environment ------------------------------------------------------------------------------
ENV_INFO=$("$PY" - <<'EOF' 2>&1
import importlib.util, os, sys
def have(m): return importlib.util.find_spec(m) is not None
try:
    import torch, transformers
except ImportError as exc:
    print(f"MISSING {exc.name}"); sys.exit(1)
cuda = torch.cuda.is_available()
name = torch.cuda.get_device_name(0) if cuda else "no CUDA device"
extras = " ".join(f"{m}={'yes' if have(m) else 'MISSING'}" for m in ("trl", "datasets", "accelerate", "peft", "vllm"))
print(f"torch {torch.__version__} (cuda {torch.version.cuda}), transformers {transformers.__version__}, GPU: {name}; {extras}")
sys.exit(0 if cuda or os.environ.get("GPU_CHECK_DEVICE") == "cpu" else 2)
EOF
)
case $? in
  0) line ok "environment: $ENV_INFO" ;;
  2) line FAIL "environment: $ENV_INFO (this check needs a CUDA GPU)"; exit 1 ;;
  *) line FAIL "environment: $ENV_INFO (torch and transformers must be installed)"; exit 1 ;;
esac
HAVE_TRL=1
for m in trl datasets accelerate; do
  "$PY" -c "import importlib.util,sys; sys.exit(importlib.util.find_spec('$m') is None)" || { HAVE_TRL=0; MISSING_TRAIN="${MISSING_TRAIN:-}$m "; }
done

if ! "$PY" -c "import lemmaforge.cli" >"$WORK/import.log" 2>&1; then
  MISSING_MOD=$(grep -o "No module named '[^']*'" "$WORK/import.log" | head -n 1)
  fail_step "import lemmaforge.cli: ${MISSING_MOD:-see the log} (the project's base dependencies must be installed: pip install -e . needs no GPU)" "$WORK/import.log"
  exit 1
fi
line ok "project: lemmaforge.cli imports from $ROOT"

# --- data and a small random model --------------------------------------------------------------
if "$PY" - "$WORK" >"$WORK/prepare.log" 2>&1 <<'EOF'; then
import json, sys
from pathlib import Path
from lemmaforge.agent import prompts
from lemmaforge.training.tiny import build_tiny_model, build_tokenizer, save_tiny, texts_of_rows

work = Path(sys.argv[1])
header = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 400000\n\nopen BigOperators Real Nat Topology Rat\n\n"
problems = [
    ("mathd_numbertheory_66", "Determine the remainder of 194 (mod 11). Show that it is 7.",
     "theorem mathd_numbertheory_66 : 194 % 11 = 7 := by\n  sorry", "norm_num"),
    ("mathd_algebra_141", "The product of two numbers is 180 and twice their sum is 54. Show that the sum of their squares is 369.",
     "theorem mathd_algebra_141 (a b : ℝ) (h₁ : a * b = 180) (h₂ : 2 * (a + b) = 54) :\n    a ^ 2 + b ^ 2 = 369 := by\n  sorry",
     "have h₃ : a + b = 27 := by linarith\n  nlinarith [h₁, h₃]"),
    ("mathd_numbertheory_299", "What is the ones digit of 1·3·5·7·9·11·13? Show that it is 5.",
     "theorem mathd_numbertheory_299 : 1 * 3 * 5 * 7 * 9 * 11 * 13 % 10 = 5 := by\n  sorry", "norm_num"),
    ("mathd_algebra_33", "If 2x = 5y and 7y = 10z, what is z/x? Show that it is 7/25.",
     "theorem mathd_algebra_33 (x y z : ℝ) (h₀ : x ≠ 0) (h₁ : 2 * x = 5 * y) (h₂ : 7 * y = 10 * z) :\n    z / x = 7 / 25 := by\n  sorry",
     "field_simp\n  nlinarith [h₁, h₂]"),
]
grpo, sft = [], []
for name, informal, stmt, proof in problems:
    messages = prompts.prover_messages(header, stmt, cot=False, informal=informal)
    grpo.append({"name": name, "prompt": messages, "header": header, "statement": stmt})
    done = header + stmt.replace("sorry", proof)
    sft.append({"prompt": messages, "completion": [{"role": "assistant", "content": f"```lean4\n{done}\n```"}]})
bench = [{"name": n, "split": "test", "header": header, "formal_statement": s, "informal_statement": i}
         for n, i, s, _ in problems]
for fname, rows in (("grpo.jsonl", grpo), ("sft.jsonl", sft), ("bench.jsonl", bench)):
    (work / fname).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
tok = build_tokenizer(texts_of_rows(sft + grpo), vocab_size=512)
model = build_tiny_model(tok, hidden_size=64, intermediate_size=128, num_hidden_layers=2, seed=0)
save_tiny(model, tok, work / "model")
print(sum(p.numel() for p in model.parameters()))
EOF
  line ok "data and model: 4 problems, random Qwen2 of $(tail -n 1 "$WORK/prepare.log") parameters in $WORK/model"
else
  fail_step "data and model" "$WORK/prepare.log"; exit 1
fi

# --- the stand-in Kimina server -----------------------------------------------------------------
"$PY" "$ROOT/scripts/fake_kimina_server.py" "$WORK/kimina_url" >"$WORK/kimina.log" 2>&1 &
KIMINA_PID=$!
for _ in $(seq 1 50); do [ -s "$WORK/kimina_url" ] && break; sleep 0.1; done
if [ ! -s "$WORK/kimina_url" ]; then fail_step "stand-in Kimina server" "$WORK/kimina.log"; exit 1; fi
KIMINA="$(cat "$WORK/kimina_url")"
LEAN=(--verifier kimina --kimina-url "$KIMINA" --db "$DB")
line ok "stand-in Kimina at $KIMINA"

LF=("$PY" -m lemmaforge.cli)

# --- sft ------------------------------------------------------------------------------------------
if [ "$HAVE_TRL" = 1 ]; then
  run_step "train sft on $GPU_CHECK_DEVICE" "$WORK/sft.log" \
    'assert out["global_step"] == 4, out; print("4 steps, train loss %s, run %s" % (out.get("train_loss"), out["run_id"]))' -- \
    "${LF[@]}" train sft --data "$WORK/sft.jsonl" --model "$WORK/model" --output "$WORK/sft" \
    --max-steps 4 --batch-size 2 --max-length 512 --lr 1e-4 "${SFT_CPU[@]}" --db "$DB" --json
else
  SKIPPED=$((SKIPPED + 1)); line SKIP "train sft: ${MISSING_TRAIN}not installed (pip install 'lemmaforge[train]')"
fi

# --- grpo: the one-GPU preset without vLLM, then the pass-rate filter ---------------------------------
if [ "$HAVE_TRL" = 1 ]; then
  run_step "train grpo --preset $GRPO_PRESET (transformers generation, no vLLM)" "$WORK/grpo.log" \
    'assert out["global_step"] == 2, out; print("2 steps, lean reward means %s, run %s" % (out["rewards"].get("rewards/lean_reward/mean"), out["run_id"]))' -- \
    "${LF[@]}" train grpo --data "$WORK/grpo.jsonl" --model "$WORK/model" --output "$WORK/grpo" --preset "$GRPO_PRESET" \
    --max-steps 2 --num-generations 2 --batch-size 2 --grad-accum 1 --max-completion-length 16 "${LEAN[@]}" --json
  # a random model solves nothing: every problem's pass rate is 0, so the filter keeps none and
  # says so (exit 1); the step checks the sampler ran on the GPU and the rates were recorded
  t0=$(date +%s)
  timeout "$STEP_TIMEOUT" "${LF[@]}" train grpo --data "$WORK/bench.jsonl" --model "$WORK/model" --output "$WORK/grpo_filter" \
    --preset "$GRPO_PRESET" --filter-pass-rate 2 --filter-max-new-tokens 16 --max-steps 1 --num-generations 2 --batch-size 2 \
    "${LEAN[@]}" >"$WORK/filter.log" 2>&1
  rc=$?
  if [ "$rc" = 1 ] && grep -q "no problem has a pass rate" "$WORK/filter.log" && [ "$(wc -l <"$WORK/grpo_filter/pass_rates.jsonl")" = 4 ]; then
    OK=$((OK + 1)); line ok "train grpo --filter-pass-rate 2 on benchmark JSONL: 4 problems sampled on $GPU_CHECK_DEVICE and verified, none kept (random model) ($(( $(date +%s) - t0 ))s)"
  elif [ "$rc" = 0 ]; then
    OK=$((OK + 1)); line ok "train grpo --filter-pass-rate 2: some problems kept, trained ($(( $(date +%s) - t0 ))s)"
  else
    fail_step "train grpo --filter-pass-rate 2 (exit $rc)" "$WORK/filter.log"
  fi
else
  SKIPPED=$((SKIPPED + 1)); line SKIP "train grpo: ${MISSING_TRAIN}not installed (pip install 'lemmaforge[train]')"
fi

# --- es on the GPU, resumed, with the replay check on the GPU ---------------------------------------
run_step "train es --device $GPU_CHECK_DEVICE" "$WORK/es.log" \
  'assert out["device"].startswith(DEVICE) and out["replay_exact"] is True and out["global_step"] == 2, out; print("2 iterations on %s, replay exact, mean rewards %s" % (out["device"], [i["mean_reward"] for i in out["iterations"]]))' -- \
  "${LF[@]}" train es --data "$WORK/grpo.jsonl" --model "$WORK/model" --output "$WORK/es" --device "$GPU_CHECK_DEVICE" \
  --iterations 2 --population 2 --problems-per-iteration 2 --samples 2 --max-new-tokens 16 "${LEAN[@]}" --json
run_step "train es --resume --iterations 3 (settings restored)" "$WORK/es_resume.log" \
  'assert out["global_step"] == 3 and out["iterations_run"] == 1 and out["replay_exact"] is True, out; print("3 iterations in all, replay exact on %s" % out["device"])' -- \
  "${LF[@]}" train es --output "$WORK/es" --resume --iterations 3 --device "$GPU_CHECK_DEVICE" "${LEAN[@]}" --json

# --- the store: one run row per command --------------------------------------------------------------
run_step "train runs (store)" "$WORK/runs.log" \
  'runs = out["runs"]; assert runs and all(r["status"] in ("finished", "failed") for r in runs), runs; print(", ".join("%s:%s" % (r["kind"], r["status"]) for r in runs))' -- \
  "${LF[@]}" train runs --db "$DB" --json

SUMMARY="$OK ok, $SKIPPED skipped, $FAILED failed in $(elapsed) (work dir $WORK)"
if [ "$FAILED" -gt 0 ]; then line FAIL "$SUMMARY"; exit 1; fi
line done "$SUMMARY"
exit 0
