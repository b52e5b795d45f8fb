"""Evolution Strategies: seeded perturbations from a clean copy, exact replay from the history."""

from __future__ import annotations

import json

import pytest

torch = pytest.importorskip("torch", reason="needs the train extra: pip install 'lemmaforge[train]'")
pytest.importorskip("transformers", reason="needs the train extra: pip install 'lemmaforge[train]'")

from lemmaforge.training.es import (  # noqa: E402
    ESConfig,
    ESHistory,
    EvolutionStrategy,
    derive_seed,
    es_parameters,
    es_state,
    param_noise,
    replay,
    z_scores,
)


def logit_reward(tokenizer):
    """A cheap deterministic reward of the weights: the mean logit of a fixed Lean token after a
    fixed prompt (ES should push it up)."""
    enc = tokenizer(["theorem t : 1 + 1 = 2 := by"], return_tensors="pt")
    target = tokenizer("norm_num", add_special_tokens=False)["input_ids"][0]

    def reward(model, iteration):
        with torch.no_grad():
            return float(model(**enc).logits[0, -1, target])

    return reward


def snapshot(model):
    return {n: p.detach().clone() for n, p in es_parameters(model)}


def assert_same(a, b):
    assert a.keys() == b.keys()
    for name in a:
        assert a[name].dtype == b[name].dtype, name
        assert torch.equal(a[name], b[name]), name


def test_two_iterations_replay_exactly(tiny_model, tiny_tokenizer, tmp_path):
    base = es_state(tiny_model)
    base_copy = {n: t.clone() for n, t in base.items()}
    calls = []

    def reward(model, t):
        calls.append(t)
        return logit_reward(tiny_tokenizer)(model, t)

    es = EvolutionStrategy(tiny_model, reward, ESConfig(sigma=1e-2, alpha=1e-2, population=4, seed=7),
                           base_state=base)
    before = reward(tiny_model, -1)
    history = es.train(2, history_path=tmp_path / "h.json")
    assert calls.count(0) == 4 and calls.count(1) == 4
    assert len(history.iterations) == 2
    live = snapshot(tiny_model)
    assert_same(live, es.state)  # the model holds the live weights after training
    assert_same(replay(base, history), live)  # bitwise replay
    assert_same(base, base_copy)  # the clean base was never touched
    assert any(not torch.equal(live[n], base[n]) for n in live)  # ...and the weights did move
    # the JSON history (a few hundred bytes per iteration) replays to the same weights
    loaded = ESHistory.load(tmp_path / "h.json")
    assert_same(replay(base, loaded), live)
    size = (tmp_path / "h.json").stat().st_size
    assert size < 1500, size
    assert reward(tiny_model, -1) > before  # two ES steps on a smooth reward go uphill


def test_evaluation_builds_from_the_clean_copy(tiny_model, tiny_tokenizer):
    es = EvolutionStrategy(tiny_model, logit_reward(tiny_tokenizer), ESConfig(sigma=1e-2, population=3))
    state_before = {n: t.clone() for n, t in es.state.items()}
    seed = derive_seed(123, 0)
    r1 = es.evaluate(seed, 0)
    es.evaluate(derive_seed(123, 1), 0)
    r1_again = es.evaluate(seed, 0)
    assert r1 == r1_again  # same member, same weights: nothing accumulated
    assert_same(es.state, state_before)  # evaluation never writes the live copy
    # the working model holds exactly θ + σ·ε(member) right after an evaluation
    for k, (name, p) in enumerate(es_parameters(tiny_model)):
        expected = (state_before[name].float() + 1e-2 * param_noise(p.shape, derive_seed(seed, k))).to(p.dtype)
        assert torch.equal(p.detach(), expected), name


def test_bf16_replay_is_exact(tiny_model, tiny_tokenizer):
    model = tiny_model.to(torch.bfloat16)
    base = es_state(model)
    es = EvolutionStrategy(model, lambda m, t: float(sum(p.detach().float().sum() for _, p in es_parameters(m))),
                           ESConfig(sigma=1e-3, alpha=1e-3, population=3, seed=1), base_state=base)
    es.train(2)
    assert all(t.dtype == torch.bfloat16 for t in es.state.values())
    assert_same(replay(base, ESHistory.from_json(json.loads(json.dumps(es.history.to_json())))), snapshot(model))


def test_per_parameter_noise_differs_and_is_reproducible():
    a = param_noise((4, 4), derive_seed(5, 0))
    b = param_noise((4, 4), derive_seed(5, 1))  # same member, another parameter of the same shape
    assert not torch.equal(a, b)
    assert torch.equal(a, param_noise((4, 4), derive_seed(5, 0)))


def test_resume_from_history(tiny_model, tiny_tokenizer):
    base = es_state(tiny_model)
    reward = logit_reward(tiny_tokenizer)
    cfg = ESConfig(sigma=1e-2, alpha=1e-2, population=3, seed=3)
    first = EvolutionStrategy(tiny_model, reward, cfg, base_state=base)
    first.train(2)
    straight = {n: t.clone() for n, t in first.state.items()}
    # a fresh run that did one iteration, saved, and resumed for one more lands on the same weights
    second = EvolutionStrategy(tiny_model, reward, ESConfig(**vars(cfg)), base_state=base)
    second.train(1)
    resumed = EvolutionStrategy(tiny_model, reward, base_state=base,
                                history=ESHistory.from_json(second.history.to_json()))
    resumed.train(1)
    assert_same(resumed.state, straight)


def test_z_scores_and_history_checks(tiny_model):
    assert z_scores([1.0, 1.0, 1.0]) == [0.0, 0.0, 0.0]
    z = z_scores([0.0, None, 1.0, float("nan")])
    assert z[1] == 0.0 and z[3] == 0.0 and z[0] == pytest.approx(-1.0) and z[2] == pytest.approx(1.0)
    with pytest.raises(ValueError):
        ESConfig(population=1)
    with pytest.raises(ValueError, match="format"):
        ESHistory.from_json({"format": "other"})
    history = ESHistory(digest="0" * 16)
    with pytest.raises(ValueError, match="layout"):
        replay(es_state(tiny_model), history)


def test_replay_check_against_the_model_on_its_device(tiny_model, tiny_tokenizer, tmp_path):
    """`replay_matches`: the JSON history rebuilds the weights the model holds (on CUDA too when
    there is one: the live weights are computed on the CPU and copied), and a weight changed
    behind ES's back is caught. Settings stored in the history survive the JSON round trip."""
    from lemmaforge.training.es import replay_matches

    device = "cuda" if torch.cuda.is_available() else "cpu"
    tiny_model.to(device)
    base = es_state(tiny_model)
    es = EvolutionStrategy(tiny_model, logit_reward_on(tiny_tokenizer, device),
                           ESConfig(sigma=1e-2, alpha=1e-2, population=3, seed=1), base_state=base)
    es.history.settings = {"samples": 2, "max_new_tokens": 16, "data_sha256": "ab" * 32}
    es.train(2, history_path=tmp_path / "h.json")
    loaded = ESHistory.load(tmp_path / "h.json")
    assert loaded.settings == es.history.settings
    assert replay_matches(tiny_model, base, loaded)
    with torch.no_grad():
        next(iter(es_parameters(tiny_model)))[1].view(-1)[0] += 1.0
    assert not replay_matches(tiny_model, base, loaded)


def logit_reward_on(tokenizer, device):
    enc = tokenizer(["theorem t : 1 + 1 = 2 := by"], return_tensors="pt").to(device)
    target = tokenizer("norm_num", add_special_tokens=False)["input_ids"][0]

    def reward(model, iteration):
        with torch.no_grad():
            return float(model(**enc).logits[0, -1, target])

    return reward
