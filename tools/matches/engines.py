"""Engine specifications (`cmd=... name=... option.X=Y`) and managed UCI engine processes."""

from __future__ import annotations

import asyncio
import os
import shlex
import signal
import subprocess
from dataclasses import dataclass, field
from typing import IO

import chess.engine

MANAGED = {"uci_chess960", "uci_variant", "multipv", "ponder"}  # python-chess sets these itself


@dataclass
class EngineSpec:
    """How to start one engine: command line, display name, UCI options, working dir."""

    cmd: list[str]
    name: str
    options: dict[str, str | int | bool] = field(default_factory=dict)
    proto: str = "uci"
    cwd: str | None = None
    ponder: bool = False  # think on the opponent's time (go ponder, then ponderhit or stop)
    nodes: int | None = None  # this engine's own `go nodes` (overrides the match's --nodes)


def _option_value(text: str) -> str | int | bool:
    """Convert 'true'/'false' to bool and integers to int; leave other strings alone."""
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        return int(text)
    except ValueError:
        return text


def parse_engine_spec(tokens: list[str], each: list[str] | None = None) -> EngineSpec:
    """Parse key=value tokens: cmd=, name=, proto=uci, dir=, ponder=true|false, nodes=N,
    option.NAME=VALUE (each= tokens first)."""
    cmd: list[str] = []
    name = ""
    proto = "uci"
    cwd = None
    ponder = False
    nodes = None
    options: dict[str, str | int | bool] = {}
    for token in [*(each or []), *tokens]:
        key, sep, value = token.partition("=")
        if not sep:
            raise ValueError(f"engine setting {token!r} is not key=value")
        if key == "cmd":
            cmd = shlex.split(value)
        elif key == "name":
            name = value
        elif key == "proto":
            proto = value.lower()
        elif key == "dir":
            cwd = value
        elif key == "ponder":
            if value.lower() not in ("true", "false"):
                raise ValueError(f"ponder={value!r}: give ponder=true or ponder=false")
            ponder = value.lower() == "true"
        elif key == "nodes":
            if not value.isdigit() or int(value) < 1:
                raise ValueError(f"nodes={value!r}: give a positive whole number")
            nodes = int(value)
        elif key.startswith("option."):
            opt = key[len("option."):]
            if opt.lower() in MANAGED:
                raise ValueError(f"option {opt} is managed by the runner (use --variant chess960 for "
                                 f"UCI_Chess960, ponder=true for Ponder)")
            options[opt] = _option_value(value)
        else:
            raise ValueError(f"unknown engine setting {key!r} "
                             f"(use cmd=, name=, proto=, dir=, ponder=, nodes=, option.X=)")
    if not cmd:
        raise ValueError(f"engine {' '.join(tokens)!r} has no cmd=")
    if proto != "uci":
        raise ValueError(f"protocol {proto!r} is not supported (only proto=uci)")
    if "/" in cmd[0] and not os.path.isabs(cmd[0]):
        cmd[0] = os.path.abspath(cmd[0])  # relative to where the runner was started, even with dir=
    return EngineSpec(cmd=cmd, name=name or os.path.basename(cmd[0]), options=options, proto=proto, cwd=cwd,
                      ponder=ponder, nodes=nodes)


class EngineProcess:
    """One running UCI engine that can be (re)started, pinged, and killed without raising."""

    def __init__(self, spec: EngineSpec, startup_timeout: float = 30.0, stderr: IO[str] | None = None) -> None:
        """Remember how to start the engine; nothing is spawned yet."""
        self.spec = spec
        self.startup_timeout = startup_timeout
        self.stderr = stderr
        self.transport: asyncio.SubprocessTransport | None = None
        self.protocol: chess.engine.UciProtocol | None = None
        self.starts = 0

    @property
    def pid(self) -> int | None:
        """The process id while running."""
        return self.transport.get_pid() if self.transport is not None else None

    @property
    def alive(self) -> bool:
        """True if the process is running and initialized."""
        return self.protocol is not None and not self.protocol.returncode.done()

    async def start(self) -> None:
        """Spawn, run the uci handshake, set options and wait for readyok (raises on failure)."""
        await self.kill()
        self.starts += 1
        stderr = self.stderr if self.stderr is not None else subprocess.DEVNULL
        transport, protocol = await chess.engine.UciProtocol.popen(
            self.spec.cmd, setpgrp=True, cwd=self.spec.cwd, stderr=stderr
        )
        self.transport, self.protocol = transport, protocol
        try:
            await asyncio.wait_for(protocol.initialize(), self.startup_timeout)
            if self.spec.options:
                await asyncio.wait_for(protocol.configure(self.spec.options), self.startup_timeout)
            await asyncio.wait_for(protocol.ping(), self.startup_timeout)
        except BaseException:
            await self.kill()
            raise

    async def ensure_started(self) -> None:
        """Start the engine unless it is already running."""
        if not self.alive:
            await self.start()

    async def kill(self) -> None:
        """Kill the engine's process group and forget it; never raises."""
        transport, self.transport, self.protocol = self.transport, None, None
        if transport is None:
            return
        if transport.get_returncode() is None:
            try:
                os.killpg(transport.get_pid(), signal.SIGKILL)  # own process group (setpgrp): pgid == pid
            except OSError:
                pass
        try:
            transport.close()
        except Exception:  # noqa: BLE001, S110 - best effort cleanup
            pass
        await asyncio.sleep(0)

    async def quit(self, timeout: float = 2.0) -> None:
        """Send quit and wait briefly for a clean exit, then kill; never raises."""
        if self.alive:
            assert self.protocol is not None
            try:
                await asyncio.wait_for(self.protocol.quit(), timeout)
            except BaseException:  # noqa: BLE001, S110 - a hung or dead engine is killed below
                pass
        await self.kill()
