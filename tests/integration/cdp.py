"""Headless Chromium over the DevTools protocol (CDP) for the integration tests' browser helpers
(dashboard/drive.py, har/record_har.py): finding and starting Chromium, its DevTools WebSocket with
commands and events, and killing it whatever happens.

The helpers put this folder on sys.path to import it. Needs python3-websockets (Debian's, for
/usr/bin/python3); it is imported only where it is used, so that a helper can tell it is missing.
"""
import asyncio
import contextlib
import ctypes
import json
import os
import re
import shutil
import signal
import sys

START_TIMEOUT_S = 20      # Chromium's "DevTools listening on" line
CDP_CALL_TIMEOUT_S = 10

# No sandbox (root in a container), no GPU, nothing of its own over the network; every request but
# loopback ones (bypassed by default) goes to a closed port instead of out. DevTools on a free
# loopback port, told on stderr. The headless mode and the window size are each helper's own.
CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--no-first-run',
                  '--no-default-browser-check', '--disable-extensions', '--disable-sync',
                  '--disable-background-networking', '--disable-component-update',
                  '--disable-default-apps', '--mute-audio', '--hide-scrollbars',
                  '--proxy-server=127.0.0.1:9', '--force-device-scale-factor=1',
                  '--remote-debugging-port=0', '--remote-debugging-address=127.0.0.1']

_process_groups = set()  # Chromium's, so that a signal handler can kill them (kill_all)


class Failure(Exception):
    """Ends the helper with exit status `status` and a one-line message."""

    def __init__(self, message, status=1):
        super().__init__(message)
        self.status = status


def find_chromium():
    """The browser on PATH, or None."""
    names = ('chromium', 'chromium-browser', 'google-chrome', 'chrome')
    return next((shutil.which(n) for n in names if shutil.which(n)), None)


def websockets_missing(name):
    """Whether this Python lacks websockets, said on stderr: checked before the event loop starts,
    so that the helper ends with a hint rather than a traceback."""
    try:
        import websockets.client  # noqa: F401
    except ImportError:
        print(f'{name}: {sys.executable} cannot import websockets (apt-get install -y '
              'python3-websockets; run it with /usr/bin/python3)', file=sys.stderr)
        return True
    return False


def kill(pgid):
    """SIGKILLs a Chromium as a whole process group (its renderers and helpers too); safe in a
    signal handler and when it is gone already."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    _process_groups.discard(pgid)


def kill_all():
    for pgid in list(_process_groups):
        kill(pgid)


def die_with_parent():
    """In Chromium's child before exec: its own session (killed as a group) and SIGKILL when this
    script dies, even by SIGKILL."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


async def read_devtools_url(process, tail):
    while True:
        line = await process.stderr.readline()
        if not line:
            raise Failure('Chromium exited before DevTools listened: ' + ' | '.join(tail[-3:]), 2)
        text = line.decode(errors='replace').strip()
        tail.append(text)
        match = re.search(r'DevTools listening on (ws://\S+)', text)
        if match:
            return match.group(1)


async def drain(stream, tail):
    # Chromium's stderr, read on so that a full pipe never stalls it; the last lines kept.
    while True:
        line = await stream.readline()
        if not line:
            return
        tail.append(line.decode(errors='replace').strip())
        del tail[:-20]


class Connection:
    """One browser-level WebSocket; commands to a page go through its flat session id, and every
    event goes to each of `listeners` as listener(method, params)."""

    def __init__(self, ws):
        self.ws, self.next_id, self.pending, self.listeners = ws, 0, {}, []

    async def read_loop(self):
        try:
            async for text in self.ws:
                message = json.loads(text)
                if 'id' in message:
                    future = self.pending.pop(message['id'], None)
                    if future and not future.done():
                        future.set_result(message)
                else:
                    for listener in self.listeners:
                        listener(message.get('method'), message.get('params', {}))
        finally:
            # However the socket ended, no call waits out its timeout for an answer that cannot
            # come any more.
            for future in self.pending.values():
                if not future.done():
                    future.set_exception(Failure('the DevTools connection closed'))

    async def call(self, method, params=None, session=None, check=True):
        """The command's result; None for an error when not `check` (else a Failure)."""
        self.next_id += 1
        message = {'id': self.next_id, 'method': method, 'params': params or {}}
        if session:
            message['sessionId'] = session
        future = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = future
        await self.ws.send(json.dumps(message))
        try:
            answer = await asyncio.wait_for(future, CDP_CALL_TIMEOUT_S)
        except asyncio.TimeoutError:
            raise Failure(f'{method}: no answer from Chromium within {CDP_CALL_TIMEOUT_S} s')
        if 'error' in answer:
            if check:
                raise Failure(f"{method}: {answer['error'].get('message', answer['error'])}")
            return None
        return answer.get('result', {})

    async def open_page(self):
        """A new about:blank page, attached flat: its session id."""
        target = await self.call('Target.createTarget', {'url': 'about:blank'})
        attached = await self.call('Target.attachToTarget',
                                   {'targetId': target['targetId'], 'flatten': True})
        return attached['sessionId']


def run(coroutine, timeout, prefix, too_long, errors):
    """Runs the helper's `coroutine` to its end, bounded by `timeout` seconds, and kills Chromium
    however it ends: (its result, 0), or (None, exit status) once a one-line reason is on stderr
    after `prefix` (`too_long` when the bound ran out). Exceptions of the types `errors` end it as
    failures too, rather than as tracebacks."""
    try:
        return asyncio.run(asyncio.wait_for(coroutine, timeout)), 0
    except Failure as failure:
        reason, status = str(failure), failure.status
    except asyncio.TimeoutError:
        reason, status = too_long, 1
    except errors as error:
        reason, status = f'{type(error).__name__}: {error}', 1
    finally:
        kill_all()
    print(f'{prefix}: {reason}', file=sys.stderr)
    return None, status


@contextlib.asynccontextmanager
async def browser(chromium, flags, profile, pdeathsig=False, close_timeout=10):
    """Runs Chromium with `flags` and the profile folder `profile` (its HOME too) and yields a
    Connection to it; Chromium (its whole process group) is killed on the way out. pdeathsig: it is
    killed when this script dies too (die_with_parent). close_timeout: for the WebSocket's closing
    handshake (10 s is websockets' own default)."""
    import websockets.client  # Debian's python3-websockets (10.x), asyncio API

    env = dict(os.environ, HOME=profile)
    try:
        process = await asyncio.create_subprocess_exec(
            chromium, *flags, f'--user-data-dir={profile}', 'about:blank',
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE, env=env, start_new_session=True,
            preexec_fn=die_with_parent if pdeathsig else None)
    except OSError as error:
        raise Failure(f'cannot run {chromium}: {error}', 2)
    _process_groups.add(process.pid)  # start_new_session: its pid is its group's id
    tail, tasks = [], []
    try:
        try:
            ws_url = await asyncio.wait_for(read_devtools_url(process, tail), START_TIMEOUT_S)
        except asyncio.TimeoutError:
            raise Failure(f'Chromium did not open DevTools within {START_TIMEOUT_S} s', 2)
        tasks.append(asyncio.create_task(drain(process.stderr, tail)))
        async with websockets.client.connect(ws_url, max_size=None, ping_interval=None,
                                             open_timeout=10, close_timeout=close_timeout) as ws:
            connection = Connection(ws)
            tasks.append(asyncio.create_task(connection.read_loop()))
            yield connection
    finally:
        for task in tasks:
            task.cancel()
        kill(process.pid)
        if process.returncode is None:
            await process.wait()
