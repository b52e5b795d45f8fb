from pathlib import Path

import pytest

from lemmaforge.config import ConfigError, load_config


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "lemmaforge.toml"
    p.write_text(text, encoding="utf-8")
    return p


def test_defaults_without_file_or_env(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    s = load_config(environ={})
    assert s.verifier.backend == "repl"
    assert s.audit.axioms == ["propext", "Classical.choice", "Quot.sound"]
    assert s.db_url.startswith("sqlite:///")


def test_precedence_file_then_env_then_flags(tmp_path):
    cfg = write(tmp_path, '[verifier]\nbackend = "lake"\ntimeout = 30\nworkers = 3\n')
    env = {"LEMMAFORGE_VERIFIER__TIMEOUT": "45", "LEMMAFORGE_VERIFIER__WORKERS": "5"}
    s = load_config(cfg, overrides={"verifier": {"workers": 9, "backend": None}}, environ=env)
    assert s.verifier.backend == "lake"  # file; a None flag does not override
    assert s.verifier.timeout == 45.0  # env beats file
    assert s.verifier.workers == 9  # flag beats env


def test_lean_project_short_env_name(tmp_path):
    s = load_config(environ={"LEMMAFORGE_LEAN_PROJECT": str(tmp_path)})
    assert s.verifier.project == tmp_path


def test_config_file_from_env_variable(tmp_path):
    cfg = write(tmp_path, 'db_url = "sqlite:///x.db"\n')
    assert load_config(environ={"LEMMAFORGE_CONFIG": str(cfg)}).db_url == "sqlite:///x.db"


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('[verifier]\nbackend = "coq"\n', "verifier.backend"),
        ("[verifier]\ntimeout = -1\n", "verifier.timeout"),
        ("[verifier]\nnot_a_key = 1\n", "verifier.not_a_key"),
        ('db_url = "no-scheme"\n', "db_url"),
        ("[verifier\n", "not valid TOML"),
    ],
)
def test_invalid_values_name_the_key(tmp_path, text, needle):
    with pytest.raises(ConfigError, match=needle.replace(".", r"\.")):
        load_config(write(tmp_path, text), environ={})


def test_missing_explicit_file(tmp_path):
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path / "nope.toml", environ={})


def test_record_is_json_safe(tmp_path):
    import json

    s = load_config(environ={"LEMMAFORGE_LEAN_PROJECT": str(tmp_path)})
    assert json.loads(json.dumps(s.to_record()))["verifier"]["project"] == str(tmp_path)


def test_readme_example_config_is_valid():
    """The configuration shown in the docs loads: the documented keys are the real ones."""
    import re
    import tomllib

    from lemmaforge.config import Settings
    from tests.conftest import REPO_ROOT

    page = (REPO_ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    block = re.search(r"```toml\n(.*?)```", page, re.DOTALL)
    assert block, "docs/configuration.md has a TOML example"
    settings = Settings.model_validate(tomllib.loads(block.group(1)))
    assert settings.verifier.kimina_position_mode == "auto"
    assert settings.prover.model == "deepseek-ai/DeepSeek-Prover-V2-7B"
