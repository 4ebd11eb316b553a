"""``doctor`` finds the Python that runs ``hermes`` from the script's first lines."""

from __future__ import annotations

from pathlib import Path

import pytest


def test_doctor_finds_the_python_of_hermes_in_both_script_forms(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hermes_gbrain.commands import doctor

    script = tmp_path / "hermes"
    monkeypatch.setattr(doctor.shutil, "which", lambda name: str(script))
    script.write_text("#!/opt/hermes/bin/python3.11\nimport sys\n")
    assert doctor._hermes_python() == ("/opt/hermes/bin/python3.11", str(script))
    long_form = "#!/bin/sh\n'''exec' /very/long/venv/bin/python \"$0\" \"$@\"\n' '''\n"
    script.write_text(long_form)
    assert doctor._hermes_python() == ("/very/long/venv/bin/python", str(script))
    script.write_text("#!/usr/bin/env node\n")
    assert doctor._hermes_python() == (None, str(script))
