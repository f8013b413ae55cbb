"""The self-hosted stack's files (issues 7 and 25): Dockerfile, docker-compose.yml, and the
Prefect versions pyproject.toml lets pip choose. Only files and installed metadata are read."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = ROOT / "docker-compose.yml"
PREFECT_YAML = ROOT / "prefect.yaml"
DOCKERFILE = ROOT / "Dockerfile"


def yaml_deployments() -> dict[str, dict[str, Any]]:
    return {d["name"]: d for d in yaml.safe_load(PREFECT_YAML.read_text())["deployments"]}


# --- Dockerfile and docker-compose.yml ----------------------------------------------------------


def compose() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text())  # SafeLoader resolves the `<<` merge keys


def test_compose_services_profiles_and_dependencies() -> None:
    services = compose()["services"]
    assert set(services) == {"postgres", "prefect-server", "register-deployments", "worker",
                             "watcher", "dask-scheduler", "dask-worker"}  # fmt: skip
    for name in ("dask-scheduler", "dask-worker"):
        assert services[name]["profiles"] == ["dask"]
    for name in ("postgres", "prefect-server", "register-deployments", "worker", "watcher"):
        assert "profiles" not in services[name]
    server = services["prefect-server"]
    assert server["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert (
        server["environment"]["PREFECT_API_DATABASE_CONNECTION_URL"].startswith(
            "postgresql+asyncpg://prefect:"
        )
        and "@postgres:5432/prefect" in server["environment"]["PREFECT_API_DATABASE_CONNECTION_URL"]
    )
    assert services["worker"]["depends_on"]["register-deployments"]["condition"] == (
        "service_completed_successfully"
    )
    # every deployment of prefect.yaml in one documented call; a failing step fails the service
    register = services["register-deployments"]["command"]
    assert register[:2] == ["sh", "-ec"]
    assert register[-1].splitlines() == [
        "prefect work-pool create ddrank-process --type process --overwrite",
        "prefect --no-prompt deploy --all",
    ]
    pools = {d["work_pool"]["name"] for d in yaml_deployments().values()}
    assert pools == {
        services["worker"]["command"][services["worker"]["command"].index("--pool") + 1]
    }
    for name, svc in services.items():
        if name != "postgres":
            assert svc["build"] == "." and svc["image"] == "ddrank:latest", name
    assert "dask-scheduler:8786" in " ".join(services["dask-worker"]["command"])


def test_compose_publishes_only_on_loopback_and_has_healthchecks() -> None:
    services = compose()["services"]
    published = {n: s.get("ports", []) for n, s in services.items()}
    assert published["postgres"] == [] and published["dask-worker"] == []
    assert published["prefect-server"] == ["127.0.0.1:4200:4200"]
    assert published["dask-scheduler"] == ["127.0.0.1:8787:8787"]
    for ports in published.values():
        for p in ports:
            assert str(p).startswith("127.0.0.1:"), p
    for name, svc in services.items():
        if svc.get("restart") == "no":  # the one-shot registration
            continue
        test = svc["healthcheck"]["test"]
        assert test[0] in ("CMD", "CMD-SHELL") and len(test) > 1, name


def test_compose_requires_secrets_and_commits_none() -> None:
    services = compose()["services"]
    required = re.compile(r"^\$\{PREFECT_SERVER_API_AUTH_STRING:\?[^}]+\}$")
    assert required.match(
        services["prefect-server"]["environment"]["PREFECT_SERVER_API_AUTH_STRING"]
    )
    clients = [n for n, s in services.items() if "PREFECT_API_URL" in s.get("environment", {})]
    assert set(clients) == {"register-deployments", "worker", "watcher", "dask-worker"}
    for name in clients:
        env = services[name]["environment"]
        assert required.match(env["PREFECT_API_AUTH_STRING"]), name
        assert env["PREFECT_API_URL"] == "http://prefect-server:4200/api"
    pg = services["postgres"]["environment"]["POSTGRES_PASSWORD"]
    assert re.match(r"^\$\{POSTGRES_PASSWORD:\?[^}]+\}$", pg)
    # no literal secret anywhere: every password/auth value is a required variable
    keyed = re.compile(r"^\s*-?\s*(\w*(PASSWORD|AUTH_STRING))\s*[:=]\s*(\S+)", re.M)
    found = keyed.findall(COMPOSE.read_text())
    assert len(found) == 3  # the client anchor, Postgres, the server
    for key, _, value in found:
        assert value.startswith("${") and ":?" in value, key
    url = services["prefect-server"]["environment"]["PREFECT_API_DATABASE_CONNECTION_URL"]
    assert "prefect:${POSTGRES_PASSWORD:?" in url
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert ".env" in ignored and ".git" in ignored and ".venv" in ignored


def test_dockerfile_installs_the_wheel_at_the_locked_versions() -> None:
    import tomllib

    text = DOCKERFILE.read_text()
    assert re.search(r"^FROM python:3\.11-slim AS wheel\s*$", text, re.M)
    assert re.search(r"^FROM python:3\.11-slim\s*$", text, re.M)
    assert "pip wheel --no-deps --wheel-dir /wheels ." in text
    assert re.search(r"pip install -c /tmp/requirements\.lock .*ddrank-\*\.whl\)\[dask,", text)
    assert "pip install -e" not in text  # the image runs the wheel, not the source tree
    assert "USER ddrank" in text
    # the wheel is built from every package pyproject.toml installs (the image once lacked
    # store/, stages/, publish/); the bundled data and model are inside ddrank/
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = {
        p.rstrip("*") for p in pyproject["tool"]["setuptools"]["packages"]["find"]["include"]
    }
    assert {"ddrank", "store", "stages", "publish", "cli", "sql"} <= packages
    for folder in sorted(packages):
        assert f"COPY {folder} ./{folder}" in text, folder
    # the deployments' working directory: prefect.yaml and the flow files it names
    assert "COPY prefect.yaml ./" in text


@pytest.mark.skipif(shutil.which("docker-compose") is None, reason="docker-compose not installed")
def test_docker_compose_config_accepts_the_file() -> None:
    env = {**os.environ, "POSTGRES_PASSWORD": "test-only", "PREFECT_SERVER_API_AUTH_STRING": "a:b"}
    ok = subprocess.run(["docker-compose", "--profile", "dask", "config", "-q"], cwd=ROOT,
                        env=env, capture_output=True, text=True)  # fmt: skip
    assert ok.returncode == 0, ok.stderr
    env.pop("PREFECT_SERVER_API_AUTH_STRING")
    refused = subprocess.run(["docker-compose", "config", "-q"], cwd=ROOT, env=env,
                             capture_output=True, text=True)  # fmt: skip
    assert refused.returncode != 0 and "PREFECT_SERVER_API_AUTH_STRING" in refused.stderr


# --- the Prefect stack's versions (issue 25) ----------------------------------------------------


def test_prefect_chooses_its_own_fastapi_and_starlette() -> None:
    """Our own fastapi pin (>=0.151) once broke `prefect deploy` and the CLI's list calls with
    HTTP 422; fastapi and starlette now come from Prefect's requirements alone."""
    import importlib.metadata as meta
    import tomllib

    from packaging.requirements import Requirement

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    ours = {Requirement(d).name.lower(): Requirement(d) for d in deps}
    assert "fastapi" not in ours and "starlette" not in ours
    assert ours["prefect"].specifier.contains("3.9.1")
    assert meta.version("prefect").startswith("3.9.")
    wanted = {r.name.lower(): r for r in map(Requirement, meta.requires("prefect") or [])
              if r.marker is None}  # fmt: skip
    for name in ("fastapi", "starlette", "sqlalchemy"):
        assert wanted[name].specifier.contains(meta.version(name), prereleases=True), name
