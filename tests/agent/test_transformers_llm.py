"""TransformersLLM on a tiny random Llama and a BPE tokenizer trained here on real Lean proofs.

Marked slow; skipped when torch / transformers / tokenizers are missing (extra `train`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lemmaforge.agent.backends.hf_local import TransformersLLM
from lemmaforge.agent.llm import LLM, make_llm
from lemmaforge.config import LLMEndpoint
from lemmaforge.records import LLMCallRecord, MemoryRecorder
from tests.conftest import reference_proof_files

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
tokenizers = pytest.importorskip("tokenizers")

pytestmark = pytest.mark.slow

CHAT_TEMPLATE = (
    "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)


@pytest.fixture(scope="module")
def tiny_model_dir(tmp_path_factory) -> Path:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import AutoModelForCausalLM, LlamaConfig, PreTrainedTokenizerFast

    texts = [p.read_text(encoding="utf-8") for p in reference_proof_files()[:60]]
    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    special = ["<unk>", "<s>", "</s>", "<pad>", "<|user|>", "<|assistant|>", "<|system|>", "<|end|>"]
    tok.train_from_iterator(texts, trainers.BpeTrainer(vocab_size=600, special_tokens=special))
    from tokenizers import decoders

    tok.decoder = decoders.ByteLevel()
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok, unk_token="<unk>", bos_token="<s>", eos_token="</s>", pad_token="<pad>"
    )
    fast.chat_template = CHAT_TEMPLATE
    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=fast.vocab_size,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=256,
        bos_token_id=fast.bos_token_id,
        eos_token_id=fast.eos_token_id,
        pad_token_id=fast.pad_token_id,
    )
    model = AutoModelForCausalLM.from_config(config)
    out = tmp_path_factory.mktemp("tiny-lean-llama")
    model.save_pretrained(out)
    fast.save_pretrained(out)
    return out


@pytest.mark.slow
async def test_sampling_chat_and_recording(tiny_model_dir):
    rec = MemoryRecorder()
    llm = make_llm(
        LLMEndpoint(url=f"hf://{tiny_model_dir}", max_tokens=12), "prover", recorder=rec, run_id="r"
    )
    assert isinstance(llm, TransformersLLM) and isinstance(llm, LLM)
    messages = [{"role": "user", "content": "theorem foo (a b : ℝ) : a + b = b + a := by"}]

    outs = await llm.generate(messages, n=3, temperature=1.0, seed=0)

    assert len(outs) == 3
    assert all(isinstance(o.text, str) for o in outs)
    assert all(o.finish_reason in ("stop", "length") for o in outs)
    assert all(0 < o.completion_tokens <= 12 for o in outs)
    [call] = rec.of_type(LLMCallRecord)
    assert call.endpoint == f"hf://{tiny_model_dir}" and call.run_id == "r" and call.role == "prover"
    assert call.prompt_tokens == outs[0].prompt_tokens > 5
    assert call.completion_tokens == sum(o.completion_tokens for o in outs)
    assert call.completions == [o.text for o in outs]


@pytest.mark.slow
async def test_greedy_is_deterministic_and_stop_strings_trim(tiny_model_dir):
    llm = TransformersLLM(str(tiny_model_dir), max_tokens=20, mode="completion")
    prompt = "theorem foo (x : ℕ) : x + 0 = x := by\n"
    a = await llm.generate(prompt, n=2, temperature=0.0)
    b = await llm.generate(prompt, temperature=0.0)
    assert a[0].text == a[1].text == b[0].text
    text = a[0].text
    if len(text) > 3:
        stop = text[2:4]
        [cut] = await llm.generate(prompt, temperature=0.0, stop=[stop])
        assert cut.text == text[: text.find(stop)] and cut.finish_reason == "stop"
