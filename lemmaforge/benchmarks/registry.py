"""The registered benchmark datasets (`DATASETS`), where their files are (`data_dir`), and what a
dataset spec names (`resolve_dataset`): see `lemmaforge.benchmarks.datasets` for the specs.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path

from lemmaforge.benchmarks.provenance import MINIF2F_V15_KNOWN, PROVERBENCH_EXCLUSIONS, KnownIssue
from lemmaforge.errors import InputError


class DatasetError(InputError, ValueError):
    """A dataset cannot be loaded or filtered as asked. The message is one actionable line."""


# --------------------------------------------------------------------------------------------
# registry


@dataclass(frozen=True, slots=True)
class RemoteFile:
    """A published dataset file that is not packaged (its licence or our rule against committing
    fetched data): downloaded on first use from `url` (pinned to `commit`), checked against
    `sha256`, cached under the lemmaforge home (`lemmaforge.benchmarks.download`).

    `sha256` None: the digest could not be computed when the entry was written (the host was not
    reachable from here); the first download records what it got and says that it is unpinned."""

    url: str
    sha256: str | None
    commit: str
    format: str = "jsonl"  # or "parquet" (needs pyarrow)
    # rows whose statement carries no imports get this header (Kimina's rows hold the theorem only)
    default_header: str | None = None


@dataclass(frozen=True, slots=True)
class DatasetInfo:
    name: str
    filename: str
    lean_version: str
    description: str
    family: str  # datasets of one family hold the same problems for different Lean versions
    category_from_name: bool = False  # miniF2F: the category is the name's prefix
    source: str = ""  # who published it: repository @ commit : path
    date: str = ""  # the source commit's date
    papers: str = ""  # which published results were measured on this version
    known_issues: tuple[KnownIssue, ...] = ()  # listed, never edited (provenance.py)
    remote: RemoteFile | None = None  # None: packaged in lemmaforge/benchmarks/data
    # True: packaged too, although `remote` names the published file: the packaged copy is read
    # (offline) and must have `remote.sha256`; the download is the fallback where it is missing
    packaged: bool = False
    expected: tuple[tuple[str, int], ...] = ()  # (split, count) of the published file
    total: int | None = None  # problems of the full benchmark, where this copy is partial
    informal_in_header: bool = False  # ProverBench: the header's comment already states it


# DeepSeek-Prover-V1.5's header, the same for every miniF2F row of DeepSeek's, Goedel's and Kimina's
MINIF2F_HEADER = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 0\n\nopen BigOperators Real Nat Topology Rat\n\n"

DATASETS: dict[str, DatasetInfo] = {
    info.name: info
    for info in (
        DatasetInfo(
            "minif2f-deepseek-v1.5",
            "minif2f.jsonl",
            "v4.9.0",
            "miniF2F, DeepSeek-Prover-V1.5 version, unrevised (valid 244 + test 244; Mathlib fork on Lean v4.9.0)",
            "minif2f",
            category_from_name=True,
            source="deepseek-ai/DeepSeek-Prover-V1.5@2c4ba9119eef74d0d611f494261b2c5bae98c69a:datasets/minif2f.jsonl",
            date="2024-08",
            papers="DeepSeek-Prover-V1.5 (2024). The 2025 papers used revised versions: minif2f-kimina "
                   "(Kimina-Prover), minif2f-goedel-v2 (Goedel-Prover-V2); DeepSeek-Prover-V2 fixed it in "
                   "ways it did not publish as a file",
            known_issues=MINIF2F_V15_KNOWN,
            expected=(("valid", 244), ("test", 244)),
        ),
        DatasetInfo(
            "minif2f-goedel-v2",
            "minif2f_goedel_v2.jsonl",
            "v4.9.0",
            "miniF2F test, Goedel-Prover-V2's revised version (15 of 244 statements fixed; Lean v4.9.0); packaged, "
            "checked against the published file's sha256",
            "minif2f",
            category_from_name=True,
            source="Goedel-LM/Goedel-Prover-V2@2e9036e118464aa96a8bebaf9f5b9d091aa3585c:dataset/minif2f.jsonl",
            date="2025-07-16",
            papers="Goedel-Prover-V2 (2025) reports its miniF2F numbers on this file",
            remote=RemoteFile(
                url="https://raw.githubusercontent.com/Goedel-LM/Goedel-Prover-V2/"
                    "2e9036e118464aa96a8bebaf9f5b9d091aa3585c/dataset/minif2f.jsonl",
                sha256="47ca505cd60a503a77165e84bbf34c662f9a8c650d09fc33fb4c000179eee8f3",
                commit="2e9036e118464aa96a8bebaf9f5b9d091aa3585c",
            ),
            packaged=True,
            expected=(("test", 244),),
        ),
        DatasetInfo(
            "minif2f-kimina",
            "minif2f_kimina.parquet",
            "v4.15.0",
            "miniF2F test, Kimina's corrected version (AI-MO/minif2f_test on the Hugging Face hub); downloaded on first "
            "use; Lean v4.15.0 is Kimina Lean Server's 2025 default (the card names no version)",
            "minif2f",
            category_from_name=True,
            source="huggingface.co/datasets/AI-MO/minif2f_test@5def318348521dfc34875045a9ecddf729a2b49f:"
                   "data/train-00000-of-00001.parquet",
            date="2025",
            papers="Kimina-Prover Preview and Kimina-Prover (2025): its card says all their miniF2F results are on it",
            remote=RemoteFile(
                url="https://huggingface.co/datasets/AI-MO/minif2f_test/resolve/"
                    "5def318348521dfc34875045a9ecddf729a2b49f/data/train-00000-of-00001.parquet",
                sha256=None,
                commit="5def318348521dfc34875045a9ecddf729a2b49f",
                format="parquet",
                default_header=MINIF2F_HEADER,
            ),
            expected=(("test", 244),),
        ),
        DatasetInfo(
            "minif2f-yangky11",
            "minif2f_yangky11.jsonl",
            "v4.24.0",
            "miniF2F, yangky11/miniF2F-lean4 version (valid 244 + test 244; Lean v4.24.0)",
            "minif2f",
            category_from_name=True,
            source="yangky11/miniF2F-lean4@5746b7d6c47855ce1294bed87329618ff7f1bc31:MiniF2F/{Valid,Test}/*.lean",
            date="2026-03-25",
            papers="none of the 2025 prover papers (a port to recent Lean with PR #33's corrections)",
            expected=(("valid", 244), ("test", 244)),
        ),
        DatasetInfo(
            "proverbench",
            "proverbench.jsonl",
            "v4.9.0",
            "DeepSeek ProverBench, partial: 230 of 325 problems (test; Lean v4.9.0); the 95 missing are named",
            "proverbench",
            source="qguo-create/Autoformalizer-with-Tool-Feedback@758b2bdd22d5175c1b82d4d8a35f7f631459ee8a:"
                   "data/proverbench.jsonl",
            date="2025",
            papers="DeepSeek-Prover-V2 (2025) reports on all 325 problems (proverbench-full); "
                   "numbers on this 230-problem copy are not comparable",
            known_issues=PROVERBENCH_EXCLUSIONS,
            expected=(("test", 230),),
            total=325,
            informal_in_header=True,
        ),
        DatasetInfo(
            "proverbench-full",
            "proverbench_full.jsonl",
            "v4.9.0",
            "DeepSeek ProverBench, all 325 problems (deepseek-ai/DeepSeek-ProverBench on the Hugging Face hub); "
            "downloaded on first use",
            "proverbench",
            source="huggingface.co/datasets/deepseek-ai/DeepSeek-ProverBench@3b9f067:proverbench.jsonl",
            date="2025-04",
            papers="DeepSeek-Prover-V2 (2025)",
            remote=RemoteFile(
                url="https://huggingface.co/datasets/deepseek-ai/DeepSeek-ProverBench/resolve/3b9f067/proverbench.jsonl",
                sha256=None,
                commit="3b9f067",
            ),
            expected=(("test", 325),),
            informal_in_header=True,
        ),
        DatasetInfo(
            "putnambench",
            "putnambench.jsonl",
            "v4.27.0",
            "PutnamBench Lean 4, 672 problems incl. Putnam 2025 (test; Lean v4.27.0)",
            "putnambench",
            source="trishullab/PutnamBench@3c9b9268ebd132d482938b8e9d242dd71fc1ebc0:lean4/src/*.lean",
            date="2026-07-23",
            papers="DeepSeek-Prover-V2 reported on 658 problems (commit abf6a70d, Lean v4.17.0) and Goedel-Prover-V2 "
                   "on an earlier commit too: not this 672-problem set. 346 problems have answer slots: with "
                   "--answers slots their results are a lower bound (--answers fill: the model writes the answers; "
                   "--answers inlined: the answers are given)",
            expected=(("test", 672),),
        ),
    )
}
DEFAULT_DATASET = "minif2f"
_ALIASES = {
    "minif2f": "minif2f-deepseek-v1.5",
    "minif2f-deepseek": "minif2f-deepseek-v1.5",
    "deepseek-minif2f": "minif2f-deepseek-v1.5",
    "minif2f-deepseek-v1-5": "minif2f-deepseek-v1.5",
    "minif2f-v1.5": "minif2f-deepseek-v1.5",
    "minif2f-goedel": "minif2f-goedel-v2",
    "goedel-minif2f": "minif2f-goedel-v2",
    "kimina-minif2f": "minif2f-kimina",
    "deepseek-proverbench": "proverbench",
    "prover-bench": "proverbench",
    "putnam": "putnambench",
    "putnam-bench": "putnambench",
}


def aliases_of(name: str) -> list[str]:
    """The other names a registered dataset answers to, sorted."""
    return sorted(alias for alias, target in _ALIASES.items() if target == name)


def registered(spec: str) -> DatasetInfo | None:
    key = spec.strip().lower().replace("_", "-")
    key = _ALIASES.get(key, key)
    return DATASETS.get(key)


def _known() -> str:
    return ", ".join(DATASETS) + " (minif2f = minif2f-deepseek-v1.5)"


def _default_data_dir() -> Path:
    """The copies shipped inside the package (`lemmaforge/benchmarks/data`, package data of the
    wheel): a plain clone or a wheel install runs every registered benchmark with nothing beside it."""
    return Path(__file__).resolve().parent / "data"


def data_dir() -> Path:
    """The folder holding the registered datasets' JSONL files (see the module docstring)."""
    env = os.environ.get("LEMMAFORGE_DATA")
    if env:
        path = Path(env).expanduser()
        if not path.is_dir():
            raise DatasetError(
                f"LEMMAFORGE_DATA={env} is not a directory; point it at the folder holding the benchmark JSONL files"
            )
        has_files = any((path / info.filename).is_file() for info in DATASETS.values()
                        if info.remote is None or info.packaged)
        if not has_files and (path / "benchmarks").is_dir():
            return path / "benchmarks"
        return path
    default = _default_data_dir()
    if default.is_dir():
        return default
    raise DatasetError(
        f"benchmark data folder not found (looked for {default}: is the package installed with its data?); "
        "set LEMMAFORGE_DATA to the folder holding minif2f.jsonl, putnambench.jsonl, …"
    )


def resolve_dataset(spec: str | os.PathLike[str]) -> DatasetInfo | Path | str:
    """What `spec` names: a registered `DatasetInfo`, a JSONL `Path`, or an `hf:` spec (str)."""
    if not isinstance(spec, str | os.PathLike):
        raise DatasetError(f"dataset spec must be a name or a path, not {type(spec).__name__}")
    text = os.fspath(spec)
    if isinstance(spec, str):
        info = registered(text)
        if info is not None:
            return info
        if text.startswith("hf:"):
            return text
    path = Path(text).expanduser()
    if path.exists():
        if not path.is_file():
            raise DatasetError(f"{text} is not a file; expected a JSONL file with one problem per line")
        return path
    if isinstance(spec, str) and not _looks_like_path(text):
        close = difflib.get_close_matches(text.lower(), list(DATASETS) + list(_ALIASES), n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise DatasetError(
            f"unknown dataset {text!r}{hint}; known: {_known()}; or give a path to a .jsonl file, "
            "or hf:<dataset id>[:config]"
        )
    raise DatasetError(f"dataset file not found: {text} (known datasets: {_known()})")


def _looks_like_path(text: str) -> bool:
    return "/" in text or os.sep in text or text.startswith(".") or text.lower().endswith((".jsonl", ".json"))

