#!/usr/bin/env python3
"""Renders a stampede --html report in headless Chromium and checks, from the DOM it dumps, that
every chart drew with the run's numbers, the tables hold the run's rows, and the page loads nothing
from the network.

Usage: python3 check_page.py PAGE.html [DATA.json] [--screenshot OUT.png [--window-size 1400,3000]]
DATA.json is the data document the page embeds; without it, the one in PAGE.html's stampede-run
script is read (for a page stampede wrote). Exit 0 when every check holds, 1 listing every failure,
2 when Chromium cannot be run.
"""
import argparse
import json
import os
import re
import shutil
import shlex
import signal
import subprocess
import sys
import tempfile
from html.parser import HTMLParser

TIMEOUT_S = 90
RUN_CHARTS = ('rps', 'latency', 'status', 'connections', 'distribution', 'percentiles')
SWEEP_CHARTS = ('sweep-qps', 'sweep-p99')
SUMMARY_FIELDS = ('requests.total', 'requests.succeeded', 'requests.failed', 'requests.abandoned',
                  'rps', 'duration_s', 'latency_ms.mean', 'latency_ms.p50', 'latency_ms.p90',
                  'latency_ms.p99', 'latency_ms.max')
# A stream run's (--sse, --stream) own figures, checked when its report has them; an event
# stream's add the events lost to reconnects, a client-streaming call's the messages sent on
# calls that ended without their answer.
EVENT_FIELDS = ('events.received', 'events.first_event_ms.p50', 'events.gap_ms.p50',
                'events.gap_ms.p99', 'events.streams.opened', 'events.streams.ended_by_server')
URL_ATTRIBUTES = {'src', 'href', 'srcset', 'action', 'formaction', 'poster', 'data', 'xlink:href',
                  'background'}
NETWORK_URL = re.compile(r'https?://|^//', re.IGNORECASE)
CSS_FETCH = re.compile(r'url\(\s*[\'"]?\s*(https?:)?//|@import', re.IGNORECASE)
# Headless, no sandbox (root in a container), no GPU, nothing of its own over the network, and every
# request the page might make sent to a closed port (loopback included) rather than out.
CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
                  '--no-default-browser-check', '--disable-extensions', '--disable-sync',
                  '--disable-background-networking', '--disable-component-update',
                  '--disable-default-apps', '--mute-audio', '--hide-scrollbars',
                  '--proxy-server=127.0.0.1:9', '--proxy-bypass-list=<-loopback>',
                  '--force-device-scale-factor=1', '--virtual-time-budget=10000']
VOID = {'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source',
        'track', 'wbr'}


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []

    def walk(self):
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.walk()

    def text(self):
        return ''.join(c if isinstance(c, str) else c.text() for c in self.children)

    def find_all(self, tag=None, **attrs):
        return [n for n in self.walk() if (tag is None or n.tag == tag)
                and all(n.attrs.get(k.replace('_', '-')) == v for k, v in attrs.items())]


class TreeBuilder(HTMLParser):
    """Chromium's --dump-dom is serialised markup, so a plain stack of open elements rebuilds it."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.open = Node('#document', {}, None)

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.open)
        self.open.children.append(node)
        if tag not in VOID:
            self.open = node

    def handle_startendtag(self, tag, attrs):
        self.open.children.append(Node(tag, attrs, self.open))

    def handle_endtag(self, tag):
        node = self.open
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.open = node.parent

    def handle_data(self, data):
        self.open.children.append(data)


def chromium_binary():
    for name in ('chromium', 'chromium-browser', 'google-chrome', 'chrome'):
        if shutil.which(name):
            return shutil.which(name)
    print('check_page.py: no Chromium (on Debian: apt-get install -y chromium)', file=sys.stderr)
    sys.exit(2)


def chromium(page, action, window='1400,3000'):
    """Runs headless Chromium on PAGE in a fresh profile, killed with its children if it hangs."""
    with tempfile.TemporaryDirectory(prefix='stampede-chromium-') as profile:
        command = [chromium_binary(), *CHROMIUM_FLAGS, f'--user-data-dir={profile}',
                   f'--window-size={window}', action, 'file://' + os.path.abspath(page)]
        env = dict(os.environ, HOME=profile)
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                                   start_new_session=True)
        try:
            out, err = process.communicate(timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            print(f'check_page.py: Chromium did not finish within {TIMEOUT_S} s', file=sys.stderr)
            sys.exit(2)
        if process.returncode != 0:
            stderr = err.decode(errors='replace')[-2000:]
            print(f'check_page.py: Chromium exited {process.returncode}:\n{stderr}',
                  file=sys.stderr)
            sys.exit(2)
        return out.decode('utf-8', errors='replace')


def get(obj, path):
    for key in path.split('.'):
        obj = obj.get(key) if isinstance(obj, dict) else None
    return obj


def number(text):
    try:
        return float(text.strip().replace(',', ''))
    except ValueError:
        return None


def same(shown, value):
    return shown is not None and abs(shown - value) <= 1e-9 * max(1.0, abs(value))


def expected_charts(data):
    """What each chart must show for this data: (points, series), 'empty', or None (no chart)."""
    expect = dict.fromkeys(RUN_CHARTS + SWEEP_CHARTS)
    report, sweep = data.get('report'), data.get('sweep')
    if report:
        seconds = report.get('per_second') or []
        latencies = [s.get('latency_ms') or {} for s in seconds]
        codes = {code for s in seconds for code in (s.get('status_codes') or {})}
        answered = any(lat.get('max', 0) > 0 for lat in latencies)
        percentiles = sum(any(k in lat for lat in latencies) for k in ('p50', 'p90'))
        asked = any('due_per_s' in s for s in seconds)  # --rate: the rate asked, a line more
        expect['rps'] = (len(seconds), 3 + asked) if seconds else 'empty'
        expect['latency'] = (len(seconds), 2 + percentiles) if answered else 'empty'
        expect['status'] = (len(seconds), len(codes) + 1) if seconds else 'empty'
        held = (report.get('connections') or {}).get('per_second') or []
        expect['connections'] = (len(held), 3) if held else None
        distribution = data.get('distribution') or {}
        for name, key in (('distribution', 'buckets'), ('percentiles', 'percentiles')):
            expect[name] = (len(distribution[key]), 1) if distribution.get(key) else 'empty'
    if sweep:
        steps = sweep.get('steps') or []
        targets = sweep.get('targets') or sorted({s['url'] for s in steps})
        shape = (len({s['level'] for s in steps}), len(targets)) if steps else 'empty'
        expect['sweep-qps'] = expect['sweep-p99'] = shape
    return expect


def check_charts(root, data, failures):
    for name, want in expected_charts(data).items():
        sections = root.find_all('section', data_chart=name)
        if want is None:
            if sections and sections[0].attrs.get('data-drawn'):
                failures.append(f'chart {name}: drawn, but this data has nothing for it')
            continue
        if len(sections) != 1:
            failures.append(f'chart {name}: {len(sections)} <section data-chart="{name}">, want 1')
            continue
        got = sections[0].attrs
        if want == 'empty':
            if got.get('data-drawn') != 'empty' or not sections[0].text().strip():
                failures.append(f'chart {name}: data-drawn={got.get("data-drawn")!r}, '
                                'want "empty" with a note')
            continue
        shown = (got.get('data-drawn'), got.get('data-points'), got.get('data-series'))
        if shown != ('true', str(want[0]), str(want[1])):
            failures.append(f'chart {name}: drawn/points/series = {shown}, '
                            f'want (true, {want[0]}, {want[1]})')
        elif not sections[0].find_all('canvas'):
            failures.append(f'chart {name}: says it drew, but holds no <canvas>')


def stream_fields(report, root, failures):
    """The stream figures to check, and whether the page names them for their unit: "events
    received", "messages received", "messages sent" (a client-streaming call's), "chunks received"."""
    if 'events' not in report:
        return ()
    unit = report['events'].get('unit', 'event')
    sent = unit.startswith('sent ')
    label = f"{unit[5:] if sent else unit}s {'sent' if sent else 'received'}"
    if label not in root.text():
        failures.append(f'summary: the stream figures are not named for their unit ({label!r})')
    return EVENT_FIELDS + (('events.lost',) if unit == 'event' else ()) + (
        ('events.unanswered',) if sent else ())


def check_summary(root, report, failures):
    for path in SUMMARY_FIELDS + stream_fields(report, root, failures):
        value = get(report, path)
        shown = root.find_all(data_field=path)
        if value is None:
            failures.append(f'summary: the data has no {path}')
        elif not shown:
            failures.append(f'summary: no element with data-field="{path}"')
        for node in shown:
            if not same(number(node.text()), value):
                failures.append(f'summary: {path} shows {node.text()!r}, the report says {value}')
    for code, count in (report.get('status_codes') or {}).items():
        shown = root.find_all(data_status=code)
        if not shown:
            failures.append(f'status codes: {code} is not shown (data-status="{code}")')
        for node in shown:
            if not same(number(node.text()), count):
                failures.append(f'status codes: {code} shows {node.text()!r}, '
                                f'the report says {count}')


def rows(table):
    return [n for body in table.children if isinstance(body, Node) and body.tag == 'tbody'
            for n in body.children if isinstance(n, Node) and n.tag == 'tr']


def check_tables(root, data, failures):
    report, sweep = data.get('report') or {}, data.get('sweep') or {}
    steps = report.get('steps') or []
    want = {'thresholds': report.get('thresholds'), 'checks': report.get('checks'),
            'steps': steps if len(steps) > 1 else None,
            'sweep': sweep.get('steps') if sweep else None}
    for name, items in want.items():
        tables = root.find_all('table', data_table=name)
        if items is None:
            if tables:
                failures.append(f'table {name}: on the page, but this data has none')
        elif len(tables) != 1:
            failures.append(f'table {name}: {len(tables)} tables, want 1 of {len(items)} rows')
        elif len(rows(tables[0])) != len(items):
            failures.append(f'table {name}: {len(rows(tables[0]))} rows, want {len(items)}')
        elif name == 'thresholds':
            for row, item in zip(rows(tables[0]), items):
                if ('FAIL' in row.text()) == item['passed']:
                    failures.append(f'table thresholds: {item["threshold"]} shows {row.text()!r}, '
                                    f'passed is {item["passed"]}')


def check_offline(root, failures):
    for node in root.walk():
        for name, value in node.attrs.items():
            if name in URL_ATTRIBUTES and value and NETWORK_URL.search(value.strip()):
                failures.append(f'offline: <{node.tag} {name}="{value}"> refers to the network')
        styles = (node.attrs.get('style') or '') + (node.text() if node.tag == 'style' else '')
        if CSS_FETCH.search(styles):
            failures.append(f'offline: a <{node.tag}> style fetches from the network')


def check(dom, data):
    builder = TreeBuilder()
    builder.feed(dom)
    root, failures = builder.root, []
    body = root.find_all('body')
    if not body:
        return ['the dumped DOM has no <body>']
    if 'data-error' in body[0].attrs:
        failures.append(f'page.js failed: {body[0].attrs["data-error"]}')
    title = ''.join(n.text() for n in root.find_all('title'))
    heading = ''.join(n.text() for n in root.find_all('h1'))
    if data['title'] not in title or data['title'] not in heading:
        failures.append(f'heading: the title {data["title"]!r} is not in <title> and <h1>')
    command = ' '.join(['stampede', shlex.join(data.get('command') or [])]).strip()
    shown = [n.text() for n in root.find_all(id='command')]
    if shown != [command]:
        failures.append(f'heading: the command shows {shown}, want {command!r}')
    check_charts(root, data, failures)
    if data.get('report'):
        check_summary(root, data['report'], failures)
    check_tables(root, data, failures)
    check_offline(root, failures)
    return failures


def read_json(path):
    with open(path, encoding='utf-8') as f:
        return json.load(f)


def embedded_data(page):
    """The data document as the page holds it (its '<\\/' and '\\u003c' are JSON escapes)."""
    builder = TreeBuilder()
    with open(page, encoding='utf-8') as f:
        builder.feed(f.read())
    scripts = builder.root.find_all('script', id='stampede-run')
    if len(scripts) != 1:
        print(f'check_page.py: {page} has {len(scripts)} stampede-run scripts, want 1',
              file=sys.stderr)
        sys.exit(1)
    return json.loads(scripts[0].text())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('page')
    parser.add_argument('data', nargs='?')
    parser.add_argument('--screenshot', metavar='OUT.png')
    parser.add_argument('--window-size', default='1400,3000', metavar='W,H',
                        help='of the screenshot')
    args = parser.parse_args()
    data = embedded_data(args.page) if args.data is None else read_json(args.data)
    failures = check(chromium(args.page, '--dump-dom'), data)
    if args.screenshot:
        chromium(args.page, '--screenshot=' + os.path.abspath(args.screenshot), args.window_size)
        if not os.path.exists(args.screenshot) or not os.path.getsize(args.screenshot):
            failures.append(f'screenshot: {args.screenshot} is empty')
    if failures:
        print(f'{args.page}: {len(failures)} check(s) failed:', *failures, sep='\n  ',
              file=sys.stderr)
        sys.exit(1)
    print(f'{args.page}: every check held')


if __name__ == '__main__':
    main()
