"""The `jitfish web` server (aiohttp): the page and its files over HTTP, the game over a WebSocket.

Security: the address carries a random key made per run (`?token=`), which the page and the
WebSocket must present; the WebSocket also wants an Origin equal to the address it was reached
at, on a host name of this machine, so another web site open in the same browser (or a DNS name
rebound to 127.0.0.1) cannot drive a game. Messages are size-limited JSON; a bad one is answered
with an error and changes nothing, and no traceback ever reaches the page (they go to the log).
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import logging
import mimetypes
import os
import secrets
import signal
import sys
import time
import webbrowser
from pathlib import Path
from typing import Any, TextIO

from aiohttp import WSMsgType, web

from search.levels import FULL_STRENGTH_ELO, MIN_ELO

from jitfish.clock import PRESET_LABELS
from jitfish.game import GameError
from jitfish.i18n import LANGUAGES, Msg, Speaker, accept_language, catalog_json, match
from jitfish.levels_words import plays_like_words
from jitfish.web.checkers import level_choices as checkers_levels
from jitfish.web.game import CHECKERS_DEFAULT_LEVEL, Settings
from jitfish.web.robot import LEVEL_CHOICES, Adviser
from jitfish.web.session import Session

log = logging.getLogger(__name__)
mimetypes.add_type("font/woff2", ".woff2")      # the web fonts (static/fonts/), not application/octet-stream

STATIC = Path(__file__).resolve().parent / "static"
# The page's language picker: every language Jitfish speaks, named in itself, with its default notation.
LANGUAGE_SLOT = "<!-- the server lists jitfish/i18n.py's LANGUAGES here -->"
LANGUAGE_OPTIONS = "".join(f'<option value="{lang.code}" lang="{lang.code}" data-figurines="{str(lang.figurines).lower()}">'
                           f"{lang.name}</option>" for lang in LANGUAGES.values())
DEFAULT_PORT = 8960
MAX_MESSAGE = 64 * 1024          # a request larger than this is refused (a PGN set-up fits easily)
MAX_FRAME = 1024 * 1024          # aiohttp closes the socket above this (code 1009)
MAX_SESSIONS = 12                # games kept at once (each against the robot has an engine process)
IDLE_SECONDS = 2 * 3600          # a game nobody has looked at for this long is closed
ROBOT_IDLE_SECONDS = 600         # ...and its robot's process ended after this (started again if needed)
LOCAL_NAMES = {"127.0.0.1", "localhost", "::1"}
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; connect-src 'self'; "
                               "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}


class WebServer:
    """The sessions of one run and the handlers that serve them."""

    def __init__(self, token: str, host: str = "127.0.0.1", adviser: Adviser | None = None) -> None:
        self.token = token
        self.host = host
        self.adviser = adviser or Adviser()
        self.sessions: dict[str, Session] = {}
        self.sockets: set[web.WebSocketResponse] = set()
        self.janitor: asyncio.Task | None = None

    # ---- checks ----

    def _token_ok(self, request: web.Request) -> bool:
        given = request.query.get("token", "")
        return hmac.compare_digest(given.encode(), self.token.encode())

    def _host_ok(self, request: web.Request) -> bool:
        """The Host header names this machine (or the --host address) at the port we listen on."""
        try:
            url = request.url
            name, port = (url.host or "").strip("[]").lower(), url.port
        except ValueError:
            return False
        sock = request.transport.get_extra_info("sockname") if request.transport else None
        if sock is None or port != sock[1]:
            return False
        if name in LOCAL_NAMES or name == self.host.strip("[]").lower():
            return True
        return _is_wildcard(self.host) and _is_ip(name)

    def _origin_ok(self, request: web.Request) -> bool:
        origin = request.headers.get("Origin")
        return origin is not None and origin == f"http://{request.host}"

    # ---- handlers ----

    async def index(self, request: web.Request) -> web.StreamResponse:
        if not self._host_ok(request):
            return web.Response(status=403, text="Forbidden: unknown host name.\n")
        if not self._token_ok(request):
            return web.Response(status=403, content_type="text/html", headers=SECURITY_HEADERS,
                                text="<!doctype html><title>Jitfish</title><p>Open the address that "
                                     "<code>jitfish web</code> printed: it carries this run's key.</p>")
        # The page's first language, until it chooses (the stored choice, navigator.languages):
        # the browser's Accept-Language.
        page = (STATIC / "index.html").read_text(encoding="utf-8").replace(LANGUAGE_SLOT, LANGUAGE_OPTIONS, 1).replace('<html lang="en">', f'<html lang="{accept_language(request.headers.get("Accept-Language"))}">', 1)
        return web.Response(text=page, content_type="text/html", headers=SECURITY_HEADERS)

    async def catalogue(self, request: web.Request) -> web.StreamResponse:
        """A language's messages for the page, as JSON made from its gettext catalogue."""
        if not self._host_ok(request):
            return web.Response(status=403, text="Forbidden: unknown host name.\n")
        code = request.match_info["code"]
        if code not in LANGUAGES:
            return web.Response(status=404, text="No such language.\n")
        return web.json_response(catalog_json(code), headers={"Cache-Control": "no-cache",
                                                              "X-Content-Type-Options": "nosniff"})

    async def rules(self, request: web.Request) -> web.StreamResponse:
        """How to play, in the language asked for (`?lang=`), else the browser's: chess, or
        checkers for `?game=checkers`."""
        from jitfish.web.checkers_rules import checkers_rules_page
        from jitfish.web.rules import rules_page

        if not self._host_ok(request):
            return web.Response(status=403, text="Forbidden: unknown host name.\n")
        code = match(request.query.get("lang", "")) or accept_language(request.headers.get("Accept-Language"))
        page = checkers_rules_page if request.query.get("game") == "checkers" else rules_page
        return web.Response(text=page(code), content_type="text/html", headers=SECURITY_HEADERS)

    async def socket(self, request: web.Request) -> web.StreamResponse:
        if not (self._host_ok(request) and self._origin_ok(request) and self._token_ok(request)):
            return web.Response(status=403, text="Forbidden: wrong key, host or origin.\n")
        ws = web.WebSocketResponse(max_msg_size=MAX_FRAME, heartbeat=25)
        await ws.prepare(request)
        self.sockets.add(ws)
        session: Session | None = None
        # The tab's language and notation: every message is said in them as it is sent.
        speaker = [Speaker(accept_language(request.headers.get("Accept-Language")))]

        async def send(message: dict[str, Any]) -> None:
            if not ws.closed:
                await ws.send_str(json.dumps(speaker[0].render(message)))

        try:
            async for frame in ws:
                if frame.type == WSMsgType.TEXT:
                    data = self._decode(frame.data)
                    if isinstance(data, str):
                        await send({"type": "error", "message": data})
                    elif data["type"] in ("hello", "language") and not self._speak(speaker, data):
                        await send({"type": "error", "message": Msg("unknown language or notation")})
                    elif session is None:
                        session = await self._hello(data, send)
                    elif data["type"] == "language":
                        await send(self.config())
                        await session.speak_again()
                    else:
                        await self._dispatch(session, data, send)
                elif frame.type == WSMsgType.BINARY:
                    await send({"type": "error", "message": "send text (JSON) messages only"})
                elif frame.type == WSMsgType.ERROR:
                    break
        finally:
            self.sockets.discard(ws)
            if session is not None:
                session.detach(send)
        return ws

    @staticmethod
    def _speak(speaker: list[Speaker], data: dict[str, Any]) -> bool:
        """Take the tab's language (`lang`) and notation (`figurines`) from a hello or a language
        message; False when they are not readable. A language we do not speak is English."""
        lang, figurines = data.get("lang", speaker[0].code), data.get("figurines")
        if not isinstance(lang, str) or not (figurines is None or isinstance(figurines, bool)):
            return False
        speaker[0] = Speaker(match(lang) or "en", figurines)
        return True

    @staticmethod
    def _decode(text: str) -> dict[str, Any] | str:
        """The request as a dict, or the error message for the page."""
        if len(text) > MAX_MESSAGE:
            return f"message too large (over {MAX_MESSAGE // 1024} KB)"
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            return "not a JSON message"
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            return "a message must be a JSON object with a type"
        return data

    async def _dispatch(self, session: Session, data: dict[str, Any], send) -> None:
        if data["type"] == "hello":
            await send({"type": "error", "message": "already connected"})
            return
        if session.send is not send:
            await send({"type": "superseded"})
            return
        try:
            await session.handle(data)
        except GameError as exc:
            await send({"type": "error", "message": exc.args[0] if exc.args else str(exc)})
        except Exception:
            log.exception("request %r failed", data.get("type"))
            await send({"type": "error", "message": Msg("internal error (see the server's log); nothing changed")})

    async def _hello(self, data: dict[str, Any], send) -> Session | None:
        """Attach the socket to the tab's session, to a game left by a closed tab, or to a new one."""
        if data.get("type") != "hello":
            await send({"type": "error", "message": "say hello first"})
            return None
        session = self._find(data)
        if session is None:
            try:
                settings = Settings.from_json(data.get("settings"))
            except GameError:
                settings = Settings()
            if not self._make_room():
                # Not an error in the hello: the page keeps its stored settings, fills its menus
                # and says what happened; its next hello (a retry) may find room.
                await send(self.config())
                await send({"type": "full", "message": Msg(
                    "Jitfish keeps at most {count} games open, and {count} tabs are showing theirs. Close a "
                    "Jitfish tab you no longer need: this one starts as soon as there is room.", count=MAX_SESSIONS)})
                return None
            try:
                session = Session(self.adviser, settings)
            except GameError:                    # the stored set-up position no longer reads
                session = Session(self.adviser, Settings())
            self.sessions[session.id] = session
            await session.start()
        previous = session.send
        session.attach(send)
        if previous is not None and previous is not send:
            try:
                await previous({"type": "superseded"})
            except Exception:               # the old tab's socket may be half closed
                pass
        await send(self.config())
        await session.push_state()
        await session.greet()
        return session

    def _find(self, data: dict[str, Any]) -> Session | None:
        wanted = data.get("session")
        if isinstance(wanted, str) and wanted in self.sessions:
            return self.sessions[wanted]
        candidates = data.get("resume")
        if isinstance(candidates, list):
            for candidate in candidates[:20]:
                session = self.sessions.get(candidate) if isinstance(candidate, str) else None
                if session is not None and not session.attached and not session.game.over:
                    return session
        return None

    def _make_room(self) -> bool:
        if len(self.sessions) < MAX_SESSIONS:
            return True
        idle = [s for s in self.sessions.values() if not s.attached]
        if not idle:
            return False
        oldest = min(idle, key=lambda s: s.last_seen)
        self._close_session(oldest)
        return True

    def _close_session(self, session: Session) -> None:
        self.sessions.pop(session.id, None)
        asyncio.ensure_future(session.close())

    @staticmethod
    def config() -> dict[str, Any]:
        return {"type": "config",
                "levels": [{"elo": elo, "name": Msg(name), "style": plays_like_words(elo) or ""}
                           for elo, name in LEVEL_CHOICES],
                "min_elo": MIN_ELO, "max_elo": FULL_STRENGTH_ELO,
                "presets": [{"name": name, "label": Msg(label)} for name, label in PRESET_LABELS.items()],
                "checkers_levels": checkers_levels(), "checkers_default_level": CHECKERS_DEFAULT_LEVEL}

    async def _sweep(self) -> None:
        """Close games nobody has looked at for a long time (their robots are processes)."""
        while True:
            await asyncio.sleep(60)
            now = time.monotonic()
            for session in list(self.sessions.values()):
                idle = now - session.last_seen
                if session.attached:
                    continue
                if idle > IDLE_SECONDS:
                    self._close_session(session)
                elif idle > ROBOT_IDLE_SECONDS:
                    await session.rest_robot()

    # ---- the application ----

    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_MESSAGE)
        app.router.add_get("/", self.index)
        app.router.add_get("/ws", self.socket)
        app.router.add_get("/i18n/{code}.json", self.catalogue)
        app.router.add_get("/rules", self.rules)
        app.router.add_static("/static/", STATIC, follow_symlinks=False)
        app.on_response_prepare.append(self._revalidate)
        app.on_startup.append(self._startup)
        app.on_shutdown.append(self._shutdown)
        return app

    @staticmethod
    async def _revalidate(request: web.Request, response: web.StreamResponse) -> None:
        """Static files are checked with the server on every load, so that an updated Jitfish never
        runs yesterday's script against today's page."""
        if request.path.startswith("/static/"):
            response.headers["Cache-Control"] = "no-cache"
            response.headers["X-Content-Type-Options"] = "nosniff"

    async def _startup(self, app: web.Application) -> None:
        self.janitor = asyncio.create_task(self._sweep())

    async def _shutdown(self, app: web.Application) -> None:
        if self.janitor is not None:
            self.janitor.cancel()
        for ws in list(self.sockets):
            await ws.close(code=1001, message=b"server stopping")
        await asyncio.gather(*(s.close() for s in self.sessions.values()), return_exceptions=True)
        self.sessions.clear()
        await self.adviser.close()


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return False


def _is_wildcard(host: str) -> bool:
    return host in ("0.0.0.0", "::", "")


def _has_browser() -> bool:
    """Whether a graphical browser can open here (without a display, Python's webbrowser would
    start a text browser in this terminal)."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


async def serve(host: str, port: int | None, open_browser: bool) -> None:
    """Run until cancelled (Ctrl-C): print the address first, then open the browser on it. Without
    a port, DEFAULT_PORT if it is free (the browser keeps a page's settings per port), else any."""
    token = secrets.token_urlsafe(16)
    server = WebServer(token, host)
    try:                                  # SIGTERM (a service manager, `kill`) stops as cleanly as Ctrl-C
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, asyncio.current_task().cancel)
    except (NotImplementedError, RuntimeError):   # Windows
        pass
    runner = web.AppRunner(server.app(), access_log=None, handle_signals=False)
    await runner.setup()
    try:
        try:
            site = web.TCPSite(runner, host, DEFAULT_PORT if port is None else port)
            await site.start()
        except OSError:
            if port is not None:
                raise
            site = web.TCPSite(runner, host, 0)
            await site.start()
        bound = runner.addresses[0][1]
        shown = "127.0.0.1" if _is_wildcard(host) else (f"[{host}]" if ":" in host else host)
        url = f"http://{shown}:{bound}/?token={token}"
        _say(f"Jitfish web: {url}")
        if not _is_loopback(host):
            _say(f"warning: listening on {host}, not only on this computer: anyone who can reach it and "
                 "has the address with its key can play here", sys.stderr)
        if open_browser and _has_browser():
            await asyncio.get_running_loop().run_in_executor(None, webbrowser.open, url)
        else:
            _say("Open that address in your browser.")
        _say("Press Ctrl-C to stop.")
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()


def main(host: str, port: int | None, open_browser: bool) -> int:
    """The `jitfish web` subcommand (jitfish.cli has checked the port)."""
    logging.basicConfig(level=logging.WARNING, format="jitfish web: %(levelname)s %(name)s: %(message)s")
    try:
        asyncio.run(serve(host, port, open_browser))
    except (KeyboardInterrupt, asyncio.CancelledError):
        pass
    except OSError as exc:
        _say(f"error: cannot listen on {host}:{port}: {exc.strerror or exc}", sys.stderr)
        return 2
    _say("Jitfish web stopped.")
    return 0


def _say(line: str, stream: TextIO | None = None) -> None:
    """Print a line of the command's (to standard output unless `stream`). A stream that has gone
    away (a launcher that read the address and exited, a closed pipe, a closed terminal) is no
    error: the server goes on serving and says nothing more there, and Python's flush at exit
    finds nothing to complain about."""
    stream = stream or sys.stdout
    if stream is None:
        return
    try:
        print(line, file=stream, flush=True)
    except (OSError, ValueError):            # BrokenPipeError, EIO; ValueError: the stream was closed
        _silence(stream)


def _silence(stream: TextIO) -> None:
    """Send what `stream` still holds, and all it is given from now on, to the null device."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, stream.fileno())
        finally:
            os.close(null)
    except (OSError, ValueError):            # no descriptor of its own: drop the stream instead
        if stream is sys.stdout:
            sys.stdout = None
        elif stream is sys.stderr:
            sys.stderr = None
