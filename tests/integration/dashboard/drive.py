#!/usr/bin/python3
"""Drives stampede's live dashboard (--dashboard) in headless Chromium over the DevTools protocol
(CDP): opens the page, polls its DOM with Runtime.evaluate, and clicks what a person would.

Usage:
  drive.py watch URL [--seconds 3] --out A.json --end-out B.json [--timeout 30]
      waits until <body data-second> >= SECONDS and dumps the page (every [data-field], data-second,
      data-live, each section.chart's data-drawn/points/series) to A.json; then waits until
      data-live is "ended" and dumps it again, with whether #save is visible and links a blob:,
      to B.json.
  drive.py stop URL [--after-second 1] [--pid PID] [--timeout 30]
      waits until data-second >= AFTER_SECOND, clicks #stop, then waits until data-live is "ended"
      (or "lost": the run's process, PID if given, went away before the page had its end).
Each prints one JSON object on stdout and exits 0; or exits 1 with a one-line reason on stderr
(2 when Chromium cannot be run). Every wait is bounded by --timeout seconds; Chromium (its whole
process group) is killed on every exit. Traffic goes to the URL (loopback) only: every other
request goes to a closed proxy port. Needs python3-websockets (Debian's, for /usr/bin/python3).
"""
import argparse
import asyncio
import json
import os
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))  # for cdp.py
import cdp  # noqa: E402
from cdp import Failure  # noqa: E402

POLL_S = 0.1
EXIT_GRACE_S = 5          # stop: how long the page may take to notice that the run's process ended

# cdp.py's, headless. Timers and rendering are not throttled, so a page that redraws each second
# keeps doing so; a tall window, so that every chart is laid out.
CHROMIUM_FLAGS = ['--headless=new', *cdp.CHROMIUM_FLAGS,
                  '--disable-background-timer-throttling', '--disable-renderer-backgrounding',
                  '--disable-backgrounding-occluded-windows', '--window-size=1400,3000',
                  '--disable-breakpad', '--disable-crash-reporter']

# One look at the page, taken in one evaluation so that its parts agree with each other.
SNAPSHOT_JS = r'''(() => {
  const body = document.body;
  const data = body ? body.dataset : {};
  const fields = {}, conflicts = [];
  for (const node of document.querySelectorAll('[data-field]')) {
    const name = node.getAttribute('data-field'), text = node.textContent.trim();
    if (!(name in fields)) fields[name] = text;
    else if (fields[name] !== text) conflicts.push(name + ': ' + fields[name] + ' / ' + text);
  }
  const charts = {};
  for (const section of document.querySelectorAll('section.chart[data-chart]')) {
    charts[section.dataset.chart] = {drawn: section.dataset.drawn || null,
      points: section.dataset.points || null, series: section.dataset.series || null,
      canvases: section.querySelectorAll('canvas').length};
  }
  const visible = (node) => !!node && !node.hidden && node.getClientRects().length > 0 &&
    getComputedStyle(node).visibility !== 'hidden';
  const save = document.getElementById('save'), stop = document.getElementById('stop');
  return {
    live: data.live || null, second: data.second == null ? null : data.second,
    error: data.error || null, title: document.title, fields, conflicts, charts,
    save: save ? {visible: visible(save), href: save.getAttribute('href') || '',
                  download: save.hasAttribute('download') ? save.getAttribute('download') : null}
               : null,
    stop: stop ? {visible: visible(stop), disabled: !!stop.disabled} : null,
  };
})()'''

CLICK_STOP_JS = r'''(() => {
  const stop = document.getElementById('stop');
  if (!stop) return 'missing';
  if (stop.disabled) return 'disabled';
  stop.click();
  return 'clicked';
})()'''

def number(text):
    """A figure as the page shows it ("1,234.5") as a float; other text as it is."""
    try:
        return float(text.replace(',', '').strip())
    except ValueError:
        return text


def second_of(snapshot):
    try:
        return int(snapshot['second'])
    except (TypeError, ValueError):
        return -1


def process_gone(pid):
    """Whether PID has exited (a zombie not yet reaped by its parent counts as exited)."""
    try:
        with open(f'/proc/{pid}/stat') as f:
            return f.read().rsplit(')', 1)[1].split()[0] in ('Z', 'X')
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return True


class Page:
    """The page target attached to a cdp.Connection (flat session), and what it said."""

    def __init__(self, connection):
        self.connection, self.session = connection, None
        self.problems = []   # the page's uncaught exceptions and console errors, for a failure line
        self.dialogs = []
        connection.listeners.append(self.on_event)

    def on_event(self, method, params):
        if method == 'Runtime.exceptionThrown':
            details = params.get('exceptionDetails', {})
            text = (details.get('exception') or {}).get('description') or details.get('text', '')
            self.problems.append('exception: ' + text.split('\n')[0])
        elif method == 'Log.entryAdded' and params.get('entry', {}).get('level') == 'error':
            entry = params['entry']
            self.problems.append(f"console: {entry.get('text', '')} {entry.get('url', '')}".strip())
        elif method == 'Runtime.consoleAPICalled' and params.get('type') == 'error':
            args = [a.get('value', a.get('description', '')) for a in params.get('args', [])]
            self.problems.append('console.error: ' + ' '.join(map(str, args)))
        elif method == 'Page.javascriptDialogOpening':
            # A confirm() before stopping, say: accept it as a person would.
            self.dialogs.append(params.get('message', ''))
            asyncio.get_running_loop().create_task(
                self.call('Page.handleJavaScriptDialog', {'accept': True}, check=False))
        # A page with no icon asks for /favicon.ico: not worth a failure line.
        self.problems = [p for p in self.problems if 'favicon.ico' not in p][-5:]

    async def call(self, method, params=None, check=True):
        return await self.connection.call(method, params, self.session, check)

    async def evaluate(self, expression):
        got = await self.call('Runtime.evaluate', {'expression': expression, 'returnByValue': True})
        if 'exceptionDetails' in got:
            details = got['exceptionDetails']
            text = (details.get('exception') or {}).get('description') or details.get('text')
            raise Failure(f'evaluating in the page failed: {str(text).splitlines()[0]}')
        return got.get('result', {}).get('value')

    async def snapshot(self):
        shot = await self.evaluate(SNAPSHOT_JS)
        if shot is None:
            raise Failure('the page has no document to look at')
        shot['fields'] = {name: number(text) for name, text in shot['fields'].items()}
        shot['second'] = second_of(shot)
        shot['at'] = time.time()
        if shot['save'] is not None:
            shot['save']['blob'] = shot['save']['href'].startswith('blob:')
        return shot

    def why(self):
        return f" (the page said: {' | '.join(self.problems[-3:])})" if self.problems else ''


class Watcher:
    """Polls the page, remembering each data-live it showed, until a condition holds."""

    def __init__(self, page, timeout):
        self.page, self.timeout, self.live_seen, self.last = page, timeout, [], None

    async def look(self):
        shot = await self.page.snapshot()
        self.last = shot
        if not self.live_seen or self.live_seen[-1] != shot['live']:
            self.live_seen.append(shot['live'])
        if shot['error']:
            raise Failure(f"page.js failed: {shot['error']}{self.page.why()}")
        return shot

    async def until(self, done, what, give_up=None, timeout=None):
        """Polls until done(shot); fails once give_up(shot) says why, or after timeout seconds."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            shot = await self.look()
            if done(shot):
                return shot
            reason = give_up(shot) if give_up else None
            if reason:
                raise Failure(f'{reason} before {what}: data-live={shot["live"]!r} '
                              f'data-second={shot["second"]}, seen {self.live_seen}{self.page.why()}')
            if time.monotonic() >= deadline:
                hint = '' if shot['live'] else (
                    f' (title {shot["title"]!r}, #stop {"there" if shot["stop"] else "absent"}:'
                    ' not a live page, or its script did not run)')
                raise Failure(f'no {what} within {timeout or self.timeout:g} s: data-live='
                              f'{shot["live"]!r} data-second={shot["second"]}, seen {self.live_seen}'
                              f'{hint}{self.page.why()}')
            await asyncio.sleep(POLL_S)


def ended_early(shot):
    return f"the page went {shot['live']!r}" if shot['live'] in ('ended', 'lost') else None


async def target_url(args):
    """The page to open: the URL given, or for '@FILE', the one a test writes to FILE once it is
    told (--ready FILE) that the browser is up. So a short run is started only then: Chromium's
    own start took 8 s once, as CI's first test beside a build, and the 8 s run it was to watch
    had ended."""
    if args.ready:
        open(args.ready, 'w', encoding='utf-8').close()
    if not args.url.startswith('@'):
        return args.url
    path, deadline = args.url[1:], time.monotonic() + args.timeout
    while time.monotonic() < deadline:
        if os.path.exists(path):
            with open(path, encoding='utf-8') as given:
                if url := given.read().strip():
                    return url
        await asyncio.sleep(POLL_S)
    raise Failure(f'no URL in {path} within {args.timeout:g} s')


async def drive(args, profile, chromium):
    async with cdp.browser(chromium, CHROMIUM_FLAGS, profile, pdeathsig=True,
                           close_timeout=1) as connection:
        page = Page(connection)
        page.session = await connection.open_page()
        for domain in ('Page', 'Runtime', 'Log'):
            await page.call(f'{domain}.enable')
        navigated = await page.call('Page.navigate', {'url': await target_url(args)})
        if navigated.get('errorText'):
            raise Failure(f"cannot load {args.url}: {navigated['errorText']}")
        return await (watch if args.command == 'watch' else stop)(args, page)


def write_json(path, document):
    with open(path, 'w', encoding='utf-8') as out:
        json.dump(document, out, indent=2, sort_keys=True)
        out.write('\n')


async def watch(args, page):
    watcher = Watcher(page, args.timeout)
    first = await watcher.until(lambda s: s['second'] >= args.seconds and s['live'] == 'running',
                                f'data-second >= {args.seconds}', ended_early)
    write_json(args.out, first)
    if args.stop:  # a long run, ended by its page's button once the first dump is taken
        clicked = await page.evaluate(CLICK_STOP_JS)
        if clicked != 'clicked':
            raise Failure(f'cannot click #stop: {clicked}')
    end = await watcher.until(lambda s: s['live'] == 'ended', "data-live 'ended'",
                              lambda s: "the page went 'lost'" if s['live'] == 'lost' else None)
    if end['save'] is not None and not end['save']['visible']:
        # The link may be shown just after the state turns: give it a moment, then tell as it is.
        try:
            end = await watcher.until(lambda s: bool(s['save'] and s['save']['visible']),
                                      '#save shown', timeout=3)
        except Failure:
            end = watcher.last
    write_json(args.end_out, end)
    return {'first_second': first['second'], 'end_second': end['second'],
            'live_seen': watcher.live_seen, 'save': end['save'], 'dialogs': page.dialogs,
            'out': args.out, 'end_out': args.end_out}


async def stop(args, page):
    watcher = Watcher(page, args.timeout)
    before = await watcher.until(lambda s: s['second'] >= args.after_second and s['live'] == 'running',
                                 f'data-second >= {args.after_second}', ended_early)
    clicked_at = time.time()
    clicked = await page.evaluate(CLICK_STOP_JS)
    if clicked != 'clicked':
        raise Failure(f'cannot click #stop: {clicked}')
    exited_at = None

    def settled(shot):
        nonlocal exited_at
        if shot['live'] in ('ended', 'lost'):
            return True
        if args.pid and exited_at is None and process_gone(args.pid):
            exited_at = time.monotonic()
        return False

    def hung(shot):
        if exited_at is not None and time.monotonic() - exited_at > EXIT_GRACE_S:
            return f'the run (pid {args.pid}) exited {EXIT_GRACE_S} s ago, yet the page still says so'
        return None

    end = await watcher.until(settled, "data-live 'ended' or 'lost' after the click", hung)
    if args.pid and end['live'] == 'lost' and not process_gone(args.pid):
        raise Failure(f"the page went 'lost' while the run (pid {args.pid}) still runs"
                      f'{page.why()}')
    return {'outcome': end['live'], 'clicked_at': clicked_at, 'second_at_click': before['second'],
            'seen_at': end['at'], 'click_to_outcome_s': round(end['at'] - clicked_at, 3),
            'process_exited': process_gone(args.pid) if args.pid else None,
            'live_seen': watcher.live_seen, 'dialogs': page.dialogs, 'final': end}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--chromium', help='the browser (default: chromium on PATH)')
    commands = parser.add_subparsers(dest='command', required=True)
    watching = commands.add_parser('watch', help='dump the page at a second and at the end')
    watching.add_argument('url')
    watching.add_argument('--seconds', type=int, default=3)
    watching.add_argument('--out', required=True, metavar='A.json')
    watching.add_argument('--end-out', required=True, metavar='B.json')
    watching.add_argument('--stop', action='store_true', help='click #stop after the first dump')
    stopping = commands.add_parser('stop', help='click #stop once the page drew a second')
    stopping.add_argument('url')
    stopping.add_argument('--after-second', type=int, default=1)
    stopping.add_argument('--pid', type=int, help="the run's process, to tell a lost page from a bug")
    for sub in (watching, stopping):
        sub.add_argument('--timeout', type=float, default=30, help='seconds, for each wait')
        sub.add_argument('--ready', metavar='FILE',
                         help="made once the browser is up; with '@FILE' as the URL, the URL is "
                              'read from FILE when it appears')
    args = parser.parse_args()
    name = 'drive.py'
    chromium = args.chromium or cdp.find_chromium()
    if chromium is None:
        print(f'{name}: no Chromium (on Debian: apt-get install -y chromium)', file=sys.stderr)
        return 2
    if cdp.websockets_missing(name):
        return 1

    def on_signal(number, _frame):
        cdp.kill_all()
        os._exit(128 + number)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, on_signal)
    # A bound on the whole drive, whatever happens: the waits, Chromium's start, a hung call.
    total = args.timeout * 2 + cdp.START_TIMEOUT_S + 30
    with tempfile.TemporaryDirectory(prefix='stampede-dashboard-') as profile:
        result, status = cdp.run(drive(args, profile, chromium), total, f'{name} {args.command}',
                                 f'took over {total:g} s in all',
                                 (OSError, ValueError, KeyError, TypeError))
    if status:
        return status
    print(json.dumps(result, sort_keys=True))
    return 0


if __name__ == '__main__':
    sys.exit(main())
