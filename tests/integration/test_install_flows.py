"""Installing through Hermes' own flow: the repository's plugin folder, as
``hermes plugins install`` clones it, is what ``hermes-gbrain install`` writes."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from hermes_gbrain.commands.install import install, plugin_files
from support.hermes_cli import child_env, hermes_executable
from support.hermes_home import HermesHome

REPO_PLUGIN = Path(__file__).resolve().parents[2] / "hermes-plugin" / "gbrain"


def test_the_repository_plugin_folder_is_what_install_writes() -> None:
    expected = plugin_files("gbrain")
    found = {p.name: p.read_text(encoding="utf-8") for p in REPO_PLUGIN.iterdir()}
    assert found == expected, "regenerate hermes-plugin/gbrain from plugin_files('gbrain')"
    assert "pip_dependencies:\n  - hermes-gbrain\n" in expected["plugin.yaml"]


# Newer Hermes installs a plugin's pip_dependencies into a Python it downloads first, which
# an offline test run cannot do.
@pytest.mark.hermes
@pytest.mark.hermes019
def test_hermes_plugins_install_accepts_the_folder(hermes_home: HermesHome, tmp_path: Path) -> None:
    repo = tmp_path / "clone"
    shutil.copytree(REPO_PLUGIN, repo / "hermes-plugin" / "gbrain")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "plugin"]):
        subprocess.run([*git, *args], check=True, capture_output=True)
    done = subprocess.run(
        [
            hermes_executable(),
            "plugins",
            "install",
            f"file://{repo}#hermes-plugin/gbrain",
            "--no-enable",
        ],
        env=child_env(hermes_home.path),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    folder = hermes_home.plugin_dir("gbrain")
    assert (folder / "plugin.yaml").is_file()

    from plugins.memory import load_memory_provider

    provider = load_memory_provider("gbrain")
    assert provider is not None and provider.name == "gbrain"
    # the package's own installer recognises the folder as its own: nothing to rewrite
    assert install("gbrain", hermes_home.path).changed == ()
