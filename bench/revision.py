"""The code of another git revision, for a benchmark's same-run baseline: a temporary `git worktree` (run in a
subprocess with PYTHONPATH set to it) and a scratch folder beside it, both removed afterwards."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def checkout(rev: str, prefix: str) -> Iterator[tuple[Path, Path]]:
    """(tree, scratch): `rev` checked out at scratch/tree; a stopped run still removes both."""
    tmp = Path(tempfile.mkdtemp(prefix=prefix))
    tree = tmp / "tree"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), rev], check=True,
                   capture_output=True, text=True)
    try:
        yield tree, tmp
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)
