"""Package-level promises: public names, and no Hermes import below the adapters."""

from __future__ import annotations

import subprocess
import sys

import hermes_gbrain

BELOW_THE_ADAPTERS = (
    "hermes_gbrain",
    "hermes_gbrain.commands.main",
    "hermes_gbrain.recall.pointers",
    "hermes_gbrain.recall.briefing",
    "hermes_gbrain.recall.digest",
    "hermes_gbrain.toolbridge.bridge",
    "hermes_gbrain.toolbridge.outbox",
    "hermes_gbrain.emulator",
)
HERMES_MODULES = ("agent", "run_agent", "hermes_cli", "hermes_constants", "plugins", "tools")


def test_public_names_resolve() -> None:
    for name in hermes_gbrain.__all__:
        assert getattr(hermes_gbrain, name) is not None


def test_layers_below_the_adapters_never_import_hermes() -> None:
    """DESIGN: only the adapters import Hermes; everything else works without it."""
    code = (
        "import importlib, sys\n"
        f"for name in {BELOW_THE_ADAPTERS!r}:\n"
        "    importlib.import_module(name)\n"
        f"leaked = sorted(m for m in {HERMES_MODULES!r} if m in sys.modules)\n"
        "print(','.join(leaked))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == ""


def test_the_emulator_http_layer_does_not_import_the_emulator_app() -> None:
    import ast
    from pathlib import Path

    from hermes_gbrain.emulator import server

    tree = ast.parse(Path(server.__file__).read_text(encoding="utf-8"))
    imported = {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    assert "hermes_gbrain.emulator.app" not in imported
