"""The deployment files: Dockerfile, .dockerignore and docker-compose.yml.

They must agree with one another and with the server command (`parlour serve --host 0.0.0.0
--port 8765 --data-dir /data`), and docker-compose.yml must follow the Compose specification.
No Docker engine is needed: the files are read, the Compose file is checked against the
specification's schema, and the health checks' Python runs on the loopback address against a
stand-in server and against the image's own command line.
"""

import copy
import http.server
import json
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from ruamel.yaml import YAML

ROOT = Path(__file__).parent.parent
DOCKERFILE = ROOT / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"
COMPOSE = ROOT / "docker-compose.yml"
SERVICE = "parlour"
BASE_IMAGE = "python:3.11-slim"
NO_HTTP_TOOLS = re.compile(r"\b(curl|wget)\b")
RESTARTING_POLICIES = re.compile(r"always|unless-stopped|on-failure(:[0-9]+)?")


# --- Dockerfile ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Instruction:
    """One Dockerfile instruction: its keyword, its leading --flags and the rest."""

    keyword: str
    flags: tuple[str, ...]
    args: str


def parse_dockerfile(text: str) -> list[Instruction]:
    """The instructions, with `\\` continuations joined and comment lines dropped."""
    instructions: list[Instruction] = []
    pending: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue  # Docker drops comment and empty lines, inside a continuation too.
        if stripped.endswith("\\"):
            pending.append(stripped[:-1].strip())
            continue
        keyword, _, rest = " ".join([*pending, stripped]).partition(" ")
        pending = []
        words = rest.split()
        flags = tuple(words[: _count_flags(words)])
        args = rest.strip()
        for flag in flags:
            args = args.removeprefix(flag).lstrip()
        instructions.append(Instruction(keyword.upper(), flags, args))
    assert not pending, "the Dockerfile ends inside a `\\` continuation"
    return instructions


def _count_flags(words: list[str]) -> int:
    count = 0
    while count < len(words) and words[count].startswith("--"):
        count += 1
    return count


def final_stage(instructions: list[Instruction]) -> list[Instruction]:
    """The instructions that make the image: the last stage, after those it builds on."""
    stages: dict[str, list[Instruction]] = {}
    current: list[Instruction] = []
    for instruction in instructions:
        if instruction.keyword == "FROM":
            image, *alias = instruction.args.split()
            current = [*stages.get(image.lower(), []), instruction]
            if alias:
                assert alias[0].upper() == "AS", instruction
                stages[alias[1].lower()] = current
        else:
            current.append(instruction)
    return current


def exec_form(args: str) -> list[str] | None:
    """The argument list of an exec-form (JSON) command, or None for the shell form."""
    if not args.startswith("["):
        return None
    value = json.loads(args)
    assert isinstance(value, list), args
    assert all(isinstance(item, str) for item in value), args
    return value


def last(stage: list[Instruction], keyword: str) -> Instruction:
    found = [instruction for instruction in stage if instruction.keyword == keyword]
    assert found, f"the final stage of the Dockerfile has no {keyword}"
    return found[-1]


@pytest.fixture(scope="module")
def dockerfile() -> list[Instruction]:
    return parse_dockerfile(DOCKERFILE.read_text())


@pytest.fixture(scope="module")
def image(dockerfile: list[Instruction]) -> list[Instruction]:
    return final_stage(dockerfile)


def exposed_ports(stage: list[Instruction]) -> list[int]:
    ports = []
    for instruction in stage:
        if instruction.keyword == "EXPOSE":
            for word in instruction.args.split():
                number, _, protocol = word.partition("/")
                assert protocol in {"", "tcp"}, word
                ports.append(int(number))
    return ports


def volumes(stage: list[Instruction]) -> list[str]:
    paths: list[str] = []
    for instruction in stage:
        if instruction.keyword == "VOLUME":
            paths.extend(exec_form(instruction.args) or instruction.args.split())
    return paths


def image_command(stage: list[Instruction]) -> tuple[list[str], list[str]]:
    """The image's ENTRYPOINT and CMD, which must both be in exec form."""
    entrypoint = [i for i in stage if i.keyword == "ENTRYPOINT"]
    cmd = last(stage, "CMD")
    # The shell form would make /bin/sh PID 1, and SIGTERM would never reach the server.
    cmd_argv = exec_form(cmd.args)
    assert cmd_argv is not None, "CMD must be in exec form (a JSON list)"
    if not entrypoint:
        return [], cmd_argv
    entrypoint_argv = exec_form(entrypoint[-1].args)
    assert entrypoint_argv is not None, "ENTRYPOINT must be in exec form (a JSON list)"
    return entrypoint_argv, cmd_argv


def image_argv(stage: list[Instruction]) -> list[str]:
    """The command line the image runs: ENTRYPOINT then CMD."""
    entrypoint, cmd = image_command(stage)
    return entrypoint + cmd


def serve_options(argv: list[str]) -> dict[str, str]:
    """The options of a `parlour serve` command line, which must start the server."""
    assert "serve" in argv, argv
    program = argv[: argv.index("serve")]
    assert program in (["parlour"], ["python", "-m", "parlour"]), argv
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert program != ["parlour"] or "parlour" in scripts
    options: dict[str, str] = {}
    words = iter(argv[argv.index("serve") + 1 :])
    for word in words:
        assert word.startswith("--"), f"unexpected argument {word!r} in {argv}"
        name, equals, value = word.partition("=")
        options[name] = value if equals else next(words)
    return options


def healthcheck_code(argv: list[str]) -> str:
    """The Python source that a health check runs as `python -c SOURCE`."""
    assert not any(NO_HTTP_TOOLS.search(word) for word in argv), argv
    assert len(argv) == 3, argv
    assert re.fullmatch(r"python3?(\.[0-9]+)?", PurePosixPath(argv[0]).name), argv
    assert argv[1] == "-c", argv
    code = argv[2]
    assert "urllib.request" in code
    compile(code, "<healthcheck>", "exec")
    return code


def dockerfile_healthcheck(stage: list[Instruction]) -> tuple[dict[str, str], list[str]]:
    """The HEALTHCHECK's options and command."""
    healthcheck = last(stage, "HEALTHCHECK")
    kind, _, command = healthcheck.args.partition(" ")
    assert kind.upper() == "CMD", "the image must have a health check, not HEALTHCHECK NONE"
    argv = exec_form(command.strip()) or shlex.split(command)
    options = dict(flag.removeprefix("--").split("=", 1) for flag in healthcheck.flags)
    return options, argv


def test_the_parser_joins_continuations_and_reads_flags() -> None:
    text = (
        "# syntax comment\nFROM python:3.11-slim AS build\n"
        "RUN a \\\n    # dropped\n    && b\n"
        'HEALTHCHECK --interval=5s \\\n  CMD ["python", "-c", "pass"]\n'
    )
    assert parse_dockerfile(text) == [
        Instruction("FROM", (), "python:3.11-slim AS build"),
        Instruction("RUN", (), "a && b"),
        Instruction("HEALTHCHECK", ("--interval=5s",), 'CMD ["python", "-c", "pass"]'),
    ]
    with pytest.raises(AssertionError):
        parse_dockerfile("FROM scratch\nRUN a \\\n")


def test_every_stage_builds_on_python_3_11_slim(dockerfile: list[Instruction]) -> None:
    aliases: set[str] = set()
    bases = []
    for instruction in dockerfile:
        if instruction.keyword == "FROM":
            base, *alias = instruction.args.split()
            if base.lower() not in aliases:
                bases.append(base)
            if alias:
                aliases.add(alias[-1].lower())
    assert bases
    assert set(bases) == {BASE_IMAGE}


def test_the_image_installs_the_whole_filtered_context(dockerfile: list[Instruction]) -> None:
    # `COPY . DEST` then `pip install` of it: .dockerignore decides what goes in, so a package
    # folder that does not exist yet cannot break the build.
    copies = [i for i in dockerfile if i.keyword == "COPY" and not i.flags]
    assert any(exec_form(i.args) is None and i.args.split()[0] == "." for i in copies)
    installs = [i.args for i in dockerfile if i.keyword == "RUN" and "pip install" in i.args]
    assert installs
    assert not any(re.search(r"\s-e\b|--editable", args) for args in installs)


def test_the_image_runs_the_server_as_a_user_who_owns_the_data(
    image: list[Instruction],
) -> None:
    user = last(image, "USER").args.split(":")[0]
    assert user not in {"root", "0", ""}
    data_dir = serve_options(image_argv(image))["--data-dir"]
    runs = [(index, i.args) for index, i in enumerate(image) if i.keyword == "RUN"]
    assert any(re.search(rf"useradd\b.*\b{re.escape(user)}\b", args) for _, args in runs)
    # Changes to a path after it is declared a VOLUME are thrown away, so /data is given to
    # the user before; a new named volume then starts out with that owner.
    volume_at = next(i for i, ins in enumerate(image) if ins.keyword == "VOLUME")
    assert any(
        index < volume_at and re.search(rf"chown\b.*\s{re.escape(data_dir)}(\s|$)", args)
        for index, args in runs
    )


def test_the_image_serves_on_all_interfaces_at_the_exposed_port(
    image: list[Instruction],
) -> None:
    options = serve_options(image_argv(image))
    assert options["--host"] == "0.0.0.0"
    assert exposed_ports(image) == [int(options["--port"])]
    assert options["--data-dir"] in volumes(image)
    assert volumes(image) == ["/data"]
    env = " ".join(i.args for i in image if i.keyword == "ENV")
    assert re.search(r"\bPYTHONUNBUFFERED[= ]1\b", env)


def test_the_image_stops_with_sigterm(image: list[Instruction]) -> None:
    stopsignals = [i.args for i in image if i.keyword == "STOPSIGNAL"]
    assert stopsignals[-1:] in ([], ["SIGTERM"], ["15"])


def test_the_image_healthcheck_asks_healthz_with_python(image: list[Instruction]) -> None:
    options, argv = dockerfile_healthcheck(image)
    code = healthcheck_code(argv)
    port = exposed_ports(image)[0]
    assert f"http://127.0.0.1:{port}/healthz" in code
    assert {"interval", "timeout", "retries", "start-period"} <= options.keys()
    assert url_timeout(code) < seconds(options["timeout"]) <= seconds(options["interval"])


# --- docker-compose.yml ----------------------------------------------------------------------


def load_yaml(path: Path) -> Any:
    return YAML(typ="safe", pure=True).load(path.read_text())


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    document = load_yaml(COMPOSE)
    assert isinstance(document, dict)
    return document


@pytest.fixture(scope="module")
def service(compose: dict[str, Any]) -> dict[str, Any]:
    """The single server: the one service that starts without a profile."""
    services = compose["services"]
    assert [name for name, found in services.items() if "profiles" not in found] == [SERVICE]
    value = services[SERVICE]
    assert isinstance(value, dict)
    return value


def check_jsonschema() -> str:
    beside = Path(sys.executable).parent / "check-jsonschema"
    found = str(beside) if beside.exists() else shutil.which("check-jsonschema")
    if found is None:
        pytest.fail(
            "check-jsonschema is missing: install the test extra, `pip install -e .[test]`"
        )
    return found


def validate_compose(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [check_jsonschema(), "--builtin-schema", "vendor.compose-spec", str(path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


_VARIABLE = re.compile(
    r"\$(?:(?P<dollar>\$)|\{(?P<braced>[A-Za-z_]\w*)(?:(?P<op>:?-)(?P<default>[^}]*))?\}"
    r"|(?P<named>[A-Za-z_]\w*))"
)


def interpolate(text: str, env: Mapping[str, str]) -> str:
    """Compose's variable substitution: $VAR, ${VAR}, ${VAR:-default}, ${VAR-default}, $$."""

    def substitute(match: re.Match[str]) -> str:
        if match["dollar"]:
            return "$"
        value = env.get(match["braced"] or match["named"])
        if match["op"] == ":-" and not value:
            return match["default"]
        if match["op"] == "-" and value is None:
            return match["default"]
        return value or ""

    return _VARIABLE.sub(substitute, text)


def published_ports(service: dict[str, Any], env: Mapping[str, str]) -> list[tuple[str, int]]:
    """(host port, container port) for each port the service publishes on the host."""
    published = []
    for entry in service.get("ports", []):
        if isinstance(entry, dict):
            host = interpolate(str(entry.get("published", "")), env)
            container = interpolate(str(entry["target"]), env)
        else:
            *host_part, container = interpolate(str(entry), env).split("/")[0].split(":")
            host = host_part[-1] if host_part else ""
        published.append((host, int(container)))
    return published


def seconds(duration: str | int) -> float:
    """A Compose or Docker duration (`1m30s`, `10s`, `500ms`) in seconds."""
    units = {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
    parts = re.findall(r"([0-9.]+)(us|ms|s|m|h)", str(duration))
    assert parts, duration
    assert "".join(number + unit for number, unit in parts) == str(duration), duration
    return sum(float(number) * units[unit] for number, unit in parts)


def url_timeout(code: str) -> float:
    """The timeout a health check's urlopen waits, which must end before Docker's does."""
    match = re.search(r"\btimeout\s*=\s*([0-9.]+)", code)
    assert match, "the health check's urlopen needs a timeout"
    return float(match[1])


def compose_healthcheck_argv(test: str | list[str]) -> list[str]:
    if isinstance(test, str):
        return shlex.split(test)
    kind, *rest = test
    assert kind in {"CMD", "CMD-SHELL"}, test
    return rest if kind == "CMD" else shlex.split(" ".join(rest))


def test_the_compose_file_follows_the_compose_specification() -> None:
    result = validate_compose(COMPOSE)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("breakage", "change"),
    [
        ("ports as a mapping", lambda s: s.update(ports={"8765": "8765"})),
        ("a misspelt key", lambda s: s.update(health_check=s.pop("healthcheck"))),
        ("a healthcheck test that is a number", lambda s: s["healthcheck"].update(test=7)),
    ],
)
def test_the_validator_rejects_a_broken_compose_file(
    tmp_path: Path,
    compose: dict[str, Any],
    breakage: str,
    change: Callable[[dict[str, Any]], object],
) -> None:
    unchanged = tmp_path / "unchanged" / "docker-compose.yml"
    broken = tmp_path / "broken" / "docker-compose.yml"
    document = copy.deepcopy(compose)
    change(document["services"][SERVICE])
    for path, content in ((unchanged, compose), (broken, document)):
        path.parent.mkdir()
        path.write_text(json.dumps(content, indent=2))  # JSON is YAML
    assert validate_compose(unchanged).returncode == 0
    result = validate_compose(broken)
    assert result.returncode == 1, f"{breakage} passed: {result.stdout}{result.stderr}"
    assert "Schema validation errors" in result.stdout


def test_the_compose_file_has_no_obsolete_version(compose: dict[str, Any]) -> None:
    assert "version" not in compose


def test_the_service_builds_this_dockerfile_as_parlour_latest(service: dict[str, Any]) -> None:
    build = service["build"]
    context = ROOT / (build if isinstance(build, str) else build.get("context", "."))
    dockerfile = "Dockerfile" if isinstance(build, str) else build.get("dockerfile", "Dockerfile")
    assert context.resolve() == ROOT.resolve()
    assert (context / dockerfile).resolve() == DOCKERFILE.resolve()
    assert service["image"] == "parlour:latest"


def test_the_service_publishes_the_server_port(
    service: dict[str, Any], image: list[Instruction]
) -> None:
    assert "command" not in service, "the image's command line is the one to run"
    assert "entrypoint" not in service, "the image's command line is the one to run"
    port = int(serve_options(image_argv(image))["--port"])
    assert published_ports(service, {}) == [(str(port), port)]
    assert exposed_ports(image) == [port]
    # The host port can be moved with PARLOUR_PORT; the container port stays.
    assert published_ports(service, {"PARLOUR_PORT": "9000"}) == [("9000", port)]
    assert published_ports(service, {"PARLOUR_PORT": ""}) == [(str(port), port)]


def test_the_named_volume_holds_the_data_dir(
    compose: dict[str, Any], service: dict[str, Any], image: list[Instruction]
) -> None:
    data_dir = serve_options(image_argv(image))["--data-dir"]
    mounts = []
    for entry in service["volumes"]:
        if isinstance(entry, dict):
            assert entry.get("type", "volume") == "volume", entry
            mounts.append((entry["source"], entry["target"]))
        else:
            source, target, *_ = entry.split(":")
            mounts.append((source, target))
    assert len(mounts) == 1
    source, target = mounts[0]
    assert target == data_dir
    assert target in volumes(image)
    assert not source.startswith(("/", ".", "~")), "a named volume, not a host folder"
    assert source in compose["volumes"]


def test_the_service_restarts_and_stops_gracefully(service: dict[str, Any]) -> None:
    assert RESTARTING_POLICIES.fullmatch(service["restart"])
    assert service.get("stop_signal", "SIGTERM") == "SIGTERM"
    assert 0 < seconds(service["stop_grace_period"]) <= 60


def test_the_service_healthcheck_asks_healthz_with_python(
    service: dict[str, Any], image: list[Instruction]
) -> None:
    healthcheck = service["healthcheck"]
    assert not healthcheck.get("disable", False)
    code = healthcheck_code(compose_healthcheck_argv(healthcheck["test"]))
    port = exposed_ports(image)[0]
    assert f"http://127.0.0.1:{port}/healthz" in code
    assert "$" not in code, "Compose would substitute it"
    assert int(healthcheck["retries"]) >= 1
    assert seconds(healthcheck["start_period"]) > 0
    timeout = seconds(healthcheck["timeout"])
    assert url_timeout(code) < timeout <= seconds(healthcheck["interval"])


# --- the health checks at work ---------------------------------------------------------------


class StandIn:
    """A stand-in server on the loopback address: /healthz answers with `status`."""

    def __init__(self) -> None:
        self.status = 200
        self.requests: list[str] = []
        stand_in = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                stand_in.requests.append(self.path)
                status = stand_in.status if self.path == "/healthz" else 404
                body = b"ok" if status == 200 else b"no"
                self.send_response(status)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]


@pytest.fixture
def stand_in() -> Iterator[StandIn]:
    server = StandIn()
    thread = threading.Thread(target=server.server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.server.shutdown()
    server.server.server_close()
    thread.join(timeout=10)


def healthcheck_sources() -> list[tuple[str, int, str]]:
    """(where, port, code) for the Dockerfile's and the Compose file's health checks."""
    image = final_stage(parse_dockerfile(DOCKERFILE.read_text()))
    _, argv = dockerfile_healthcheck(image)
    port = exposed_ports(image)[0]
    service = load_yaml(COMPOSE)["services"][SERVICE]
    return [
        ("Dockerfile", port, healthcheck_code(argv)),
        (
            "docker-compose.yml",
            port,
            healthcheck_code(compose_healthcheck_argv(service["healthcheck"]["test"])),
        ),
    ]


def run_healthcheck(code: str, port: int, to_port: int) -> int:
    url = f"http://127.0.0.1:{port}/healthz"
    assert url in code
    moved = code.replace(url, f"http://127.0.0.1:{to_port}/healthz")
    return subprocess.run(
        [sys.executable, "-c", moved], capture_output=True, check=False, timeout=60
    ).returncode


@pytest.mark.parametrize("where", ["Dockerfile", "docker-compose.yml"])
def test_the_healthcheck_passes_only_when_healthz_answers_200(
    stand_in: StandIn, where: str
) -> None:
    [(_, port, code)] = [source for source in healthcheck_sources() if source[0] == where]
    assert run_healthcheck(code, port, stand_in.port) == 0
    assert stand_in.requests == ["/healthz"]
    stand_in.status = 503
    assert run_healthcheck(code, port, stand_in.port) != 0
    # A bound socket that does not listen refuses the connection.
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        assert run_healthcheck(code, port, closed.getsockname()[1]) != 0


# --- .dockerignore ---------------------------------------------------------------------------


def dockerignore_rules(text: str) -> list[tuple[bool, re.Pattern[str]]]:
    """(is an exception, pattern) for each line, as Docker reads them."""
    rules = []
    for line in text.splitlines():
        pattern = line.strip()
        if not pattern or pattern.startswith("#"):
            continue
        exception = pattern.startswith("!")
        pattern = str(PurePosixPath(pattern.removeprefix("!").strip().lstrip("/")))
        regex = ""
        index = 0
        while index < len(pattern):
            if pattern.startswith("**/", index):
                regex, index = regex + "(.*/)?", index + 3
            elif pattern.startswith("**", index):
                regex, index = regex + ".*", index + 2
            elif pattern[index] == "*":
                regex, index = regex + "[^/]*", index + 1
            elif pattern[index] == "?":
                regex, index = regex + "[^/]", index + 1
            elif pattern[index] == "[":
                end = pattern.index("]", index)
                regex, index = regex + pattern[index : end + 1], end + 1
            else:
                regex, index = regex + re.escape(pattern[index]), index + 1
        rules.append((exception, re.compile(regex)))
    return rules


def ignored(path: str, rules: list[tuple[bool, re.Pattern[str]]]) -> bool:
    """Whether Docker leaves `path` out of the build context: the last matching rule wins,
    and a rule that matches a folder covers what is in it."""
    parts = PurePosixPath(path).parts
    prefixes = ["/".join(parts[: count + 1]) for count in range(len(parts))]
    result = False
    for exception, regex in rules:
        if any(regex.fullmatch(prefix) for prefix in prefixes):
            result = not exception
    return result


@pytest.fixture(scope="module")
def ignore_rules() -> list[tuple[bool, re.Pattern[str]]]:
    return dockerignore_rules(DOCKERIGNORE.read_text())


def test_the_ignore_matcher_reads_patterns_as_docker_does() -> None:
    rules = dockerignore_rules("**/__pycache__\n*.md\n!README.md\n/build\n")
    assert ignored("a/b/__pycache__/x.pyc", rules)
    assert ignored("__pycache__/x.pyc", rules)
    assert ignored("NOTES.md", rules)
    assert not ignored("README.md", rules)
    assert not ignored("docs/NOTES.md", rules)
    assert ignored("build/lib/x.py", rules)
    assert not ignored("rules/build.py", rules)


def test_the_build_context_keeps_what_pip_install_reads(
    ignore_rules: list[tuple[bool, re.Pattern[str]]],
) -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    needed = ["pyproject.toml", pyproject["project"]["readme"]]
    folders = {*pyproject["tool"]["setuptools"]["package-dir"].values()}
    folders |= {"parlour", "rules", "protocol", "server", "bots", "client"}
    for folder in sorted(folders):
        sources = [
            path.relative_to(ROOT).as_posix()
            for path in (ROOT / folder).rglob("*")
            if path.is_file() and "__pycache__" not in path.parts
        ]
        needed += sources or [f"{folder}/__init__.py"]  # a folder still to come
    assert "parlour/__init__.py" in needed
    assert [path for path in needed if ignored(path, ignore_rules)] == []


@pytest.mark.parametrize(
    "path",
    [
        ".git/HEAD",
        ".venv/bin/python",
        "parlour/__pycache__/cli.cpython-311.pyc",
        "rules/__pycache__/game.cpython-311.pyc",
        ".mypy_cache/3.11/cache.db",
        ".ruff_cache/CACHEDIR.TAG",
        ".pytest_cache/README.md",
        ".hypothesis/examples/x",
        "build/lib/parlour/cli.py",
        "parlour.egg-info/PKG-INFO",
        "benchmarks/perft.py",
        "tests/test_deploy.py",
        ".env",
    ],
)
def test_the_build_context_leaves_out(
    path: str, ignore_rules: list[tuple[bool, re.Pattern[str]]]
) -> None:
    assert ignored(path, ignore_rules)


# --- the server command ----------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_the_images_command_serves_healthz_and_stops_on_sigterm(
    tmp_path: Path, image: list[Instruction], service: dict[str, Any]
) -> None:
    # The image's own command line, on the loopback address, a free port and a scratch folder.
    argv = image_argv(image)
    options = serve_options(argv)
    port = free_port()
    moved = {"--host": "127.0.0.1", "--port": str(port), "--data-dir": str(tmp_path / "data")}
    assert moved.keys() <= options.keys()
    script = Path(sys.executable).parent / "parlour"
    program = [str(script)] if script.exists() else [sys.executable, "-m", "parlour"]
    rest = argv[argv.index("serve") :]
    for name, value in moved.items():
        rest[rest.index(name) + 1] = value
    log = tmp_path / "server.log"
    with log.open("w") as output:
        server = subprocess.Popen(
            [*program, *rest], stdout=output, stderr=subprocess.STDOUT, cwd=tmp_path
        )
    try:
        [(_, exposed, code)] = [s for s in healthcheck_sources() if s[0] == "Dockerfile"]
        deadline = time.monotonic() + 30
        while run_healthcheck(code, exposed, port) != 0:
            assert server.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        server.send_signal(signal.SIGTERM)
        grace = seconds(service["stop_grace_period"])
        assert server.wait(timeout=grace) == 0, log.read_text()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
