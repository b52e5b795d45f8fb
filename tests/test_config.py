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


# --- every setting explains itself, and the page says what the model says (issue 48, point 4) -----


def _fields():
    from lemmaforge.config import SECTIONS, Settings

    for name, field in Settings.model_fields.items():
        yield name, field
    for section, model in SECTIONS.items():
        for name, field in model.model_fields.items():
            yield f"{section}.{name}", field


def test_every_setting_has_a_description():
    undescribed = [name for name, field in _fields() if len((field.description or "").split()) < 5]
    assert undescribed == []


def test_full_speculation_is_described_as_experimental():
    from lemmaforge.config import SearchConfig

    description = SearchConfig.model_fields["speculation"].description or ""
    assert "`full` (experimental)" in description


def _generator():
    import importlib.util

    from tests.conftest import REPO_ROOT

    spec = importlib.util.spec_from_file_location("gen_config_docs", REPO_ROOT / "scripts" / "gen_config_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_configuration_page_is_generated_from_the_model():
    gen = _generator()
    page = gen.PAGE.read_text(encoding="utf-8")
    assert gen.render(page) == page, f"docs/configuration.md is out of date with lemmaforge/config.py: run {gen.REGENERATE}"
    flat = " ".join(page.split())
    for name, field in _fields():
        assert " ".join((field.description or "").split()) in flat, name  # every description, whole
    for env in ("LEMMAFORGE_VERIFIER__SANDBOX_PATHS` (JSON)", "LEMMAFORGE_DB_URL", "LEMMAFORGE_LEAN_PROJECT",
                "LEMMAFORGE_SEARCH__SPECULATION"):
        assert env in page


def test_the_generator_keeps_the_hand_written_text_and_replaces_a_stale_reference():
    gen = _generator()
    page = gen.PAGE.read_text(encoding="utf-8")
    start, end = page.index(gen.BEGIN), page.index(gen.END)
    stale = page[:start] + "my own words\n" + page[start:end].replace("REPL processes", "REPL things") + page[end:] + "x\n"
    fixed = gen.render(stale)
    assert fixed == page[:start] + "my own words\n" + page[start:] + "x\n"
    assert gen.main(["--check"]) == 0


def test_a_list_setting_is_json_in_the_environment(tmp_path):
    env = {"LEMMAFORGE_VERIFIER__SANDBOX_PATHS": '["/opt/lean", "/srv/toolchain"]',
           "LEMMAFORGE_PROVER__EXTRA_BODY": '{"top_k": 20}', "LEMMAFORGE_SEARCH__PORTFOLIO": '["omega"]'}
    s = load_config(write(tmp_path, "[verifier]\nsandbox_paths = [\"/from/file\"]\n"), environ=env)
    assert s.verifier.sandbox_paths == [Path("/opt/lean"), Path("/srv/toolchain")]  # env beats file
    assert s.prover.extra_body == {"top_k": 20} and s.search.portfolio == ["omega"]
    with pytest.raises(ConfigError, match=r"'verifier\.sandbox_paths' in environment variable "
                                          r"LEMMAFORGE_VERIFIER__SANDBOX_PATHS: not valid JSON"):
        load_config(environ={"LEMMAFORGE_VERIFIER__SANDBOX_PATHS": "/opt/lean"})
    with pytest.raises(ConfigError, match=r"'search\.portfolio' in environment variable "
                                          r"LEMMAFORGE_SEARCH__PORTFOLIO: .*JSON in the environment"):
        load_config(environ={"LEMMAFORGE_SEARCH__PORTFOLIO": "omega"})


def test_environment_names_as_documented(tmp_path):
    s = load_config(environ={"lemmaforge_verifier__timeout": "45",  # names are case-insensitive
                             "LEMMAFORGE_PROVER": '{"url": "http://a/v1", "model": "m"}',  # a section as JSON …
                             "LEMMAFORGE_PROVER__MODEL": "n",  # … a key's own variable wins over it
                             "LEMMAFORGE_DB_URL": "sqlite:///x.db"})
    assert (s.verifier.timeout, s.prover.url, s.prover.model, s.db_url) == (45.0, "http://a/v1", "n", "sqlite:///x.db")
    both = load_config(environ={"LEMMAFORGE_LEAN_PROJECT": "/short", "LEMMAFORGE_VERIFIER__PROJECT": str(tmp_path)})
    assert both.verifier.project == tmp_path  # the long form wins


def test_other_lemmaforge_variables_are_not_settings(tmp_path):
    env = {"LEMMAFORGE_HOME": str(tmp_path), "LEMMAFORGE_CONFIG": "", "LEMMAFORGE_DATA": str(tmp_path),
           "LEMMAFORGE_TEST_PG_URL": "postgresql://x", "LEMMAFORGE_BENCH_LEASE_SECONDS": "5"}
    assert load_config(environ=env).to_record() == load_config(environ={}).to_record()
    with pytest.raises(ConfigError, match="LEMMAFORGE_DB_URL__X: 'db_url' is a key, not a section"):
        load_config(environ={"LEMMAFORGE_DB_URL__X": "1"})


def test_the_environment_read_is_the_one_given(monkeypatch, tmp_path):
    """`load_config(environ=…)` reads that mapping, not the process's (pydantic-settings' own source
    reads os.environ: the hook EnvironmentSource overrides); with none given, the process's. A
    `Settings(...)` made in code reads neither."""
    from lemmaforge.config import Settings

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LEMMAFORGE_VERIFIER__TIMEOUT", "7")
    assert load_config(environ={}).verifier.timeout == 120.0
    assert load_config().verifier.timeout == 7.0
    assert Settings().verifier.timeout == 120.0
