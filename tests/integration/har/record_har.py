#!/usr/bin/python3
"""Records a real HAR: loads a page in headless Chromium, drives it over the DevTools protocol (CDP)
and writes what the Network domain saw as HAR 1.2, in the shape Chrome DevTools' "Save all as HAR
with content" gives (creator WebInspector, _initiator, _priority, _resourceType, ...).

Usage: record_har.py --url http://127.0.0.1:PORT/index.html --out FILE.har
                     [--chromium /usr/bin/chromium] [--cookie name=value]... [--marker done]
--cookie: a cookie the browser holds before the recording (set with Network.setCookie for --url).
The recording ends once document.title is --marker (20 s at most; a title "error: ..." fails it).
Exit 0 on success, 1 with a one-line message on a failure, 2 when Chromium cannot be run.
Needs python3-websockets (Debian's, for /usr/bin/python3).
"""
import argparse
import asyncio
import datetime
import json
import os
import re
import sys
import tempfile
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))  # for cdp.py
import cdp  # noqa: E402
from cdp import Failure  # noqa: E402

FLOW_TIMEOUT_S = 20     # from the navigation to the page's marker
SETTLE_S = 2.0          # after the marker, for requests still loading (a late favicon)
TOTAL_TIMEOUT_S = 90    # the whole recording, whatever happens

# cdp.py's, headless in a desktop-sized window.
CHROMIUM_FLAGS = ['--headless', *cdp.CHROMIUM_FLAGS, '--window-size=1280,800']

# CDP's Network.ResourceType -> DevTools' resource type name (HAR's _resourceType).
RESOURCE_TYPES = {'XHR': 'xhr', 'TextTrack': 'texttrack', 'EventSource': 'eventsource',
                  'WebSocket': 'websocket', 'SignedExchange': 'signed-exchange',
                  'CSPViolationReport': 'csp-violation-report'}


class Request:
    """What the Network domain told about one request (one hop of a redirect chain)."""

    def __init__(self, params):
        self.id = params['requestId']
        self.request = params['request']
        self.issue_time = params['timestamp']
        self.wall_time = params['wallTime']
        self.start_time = params['timestamp']
        self.initiator = params.get('initiator')
        self.type = params.get('type', 'Other')
        self.priority = self.request.get('initialPriority')
        self.extra_request = None    # requestWillBeSentExtraInfo
        self.extra_response = None   # responseReceivedExtraInfo
        self.response = None
        self.response_received_time = -1
        self.end_time = -1
        self.resource_size = 0
        self.transfer_size = 0
        self.error = None
        self.finished = False
        self.post_data = self.request.get('postData')
        self.body = None             # Network.getResponseBody's answer

    def set_response(self, response, timestamp):
        self.response = response
        self.response_received_time = timestamp
        timing = response.get('timing')
        if timing:  # as DevTools: the request starts when the network stack took it
            self.start_time = timing['requestTime']
            headers_received = timing['requestTime'] + timing['receiveHeadersEnd'] / 1000
            if self.response_received_time < 0 or self.response_received_time > headers_received:
                self.response_received_time = headers_received
            self.response_received_time = max(self.response_received_time, self.start_time)

    def pseudo_wall_time(self, monotonic):
        return self.wall_time - self.issue_time + monotonic


def har_date(seconds):
    """Date.prototype.toJSON of new Date(seconds * 1000): milliseconds, UTC, Z."""
    ms = int(seconds * 1000)
    moment = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc) + \
        datetime.timedelta(milliseconds=ms)
    return moment.strftime('%Y-%m-%dT%H:%M:%S.') + f'{ms % 1000:03d}Z'


def header_list(headers):
    """A CDP headers object -> HAR name/value pairs; a value with newlines is several headers."""
    pairs = []
    for name, value in (headers or {}).items():
        for one in str(value).split('\n'):
            pairs.append({'name': name, 'value': one})
    return pairs


def header_value(pairs, name):
    values = [p['value'] for p in pairs if p['name'].lower() == name.lower()]
    return '\n'.join(values) if values else None


def split_parameters(text):
    """DevTools' parameter split: on & and the first =, values left encoded."""
    result = []
    for pair in text.split('&'):
        name, equals, value = pair.partition('=')
        result.append({'name': name, 'value': value if equals else ''})
    return result


def protocol_cookie(cookie, started):
    """A CDP Network.Cookie (as the request carried it) -> a HAR cookie, as DevTools exports it."""
    expires = None
    if not cookie.get('session', True) and cookie.get('expires', -1) >= 0:
        expires = har_date(cookie['expires'])
    result = {'name': cookie['name'], 'value': cookie['value'], 'path': cookie.get('path', '/'),
              'domain': cookie.get('domain', ''), 'expires': expires,
              'httpOnly': cookie.get('httpOnly', False), 'secure': cookie.get('secure', False)}
    if cookie.get('sameSite'):
        result['sameSite'] = cookie['sameSite']
    if cookie.get('partitionKey'):
        result['partitionKey'] = cookie['partitionKey']
    return result


def set_cookie_cookies(header, host, started):
    """The cookies a response's Set-Cookie lines set, as DevTools parses them for HAR."""
    cookies = []
    for line in (header or '').split('\n'):
        if not line.strip():
            continue
        parts = [p.strip() for p in line.split(';')]
        name, _, value = parts[0].partition('=')
        attributes = {}
        for attribute in parts[1:]:
            key, _, val = attribute.partition('=')
            attributes[key.strip().lower()] = val.strip()
        expires = None
        if 'max-age' in attributes and re.fullmatch(r'-?\d+', attributes['max-age']):
            expires = har_date(started + int(attributes['max-age']))
        elif 'expires' in attributes:
            try:
                when = datetime.datetime.strptime(attributes['expires'], '%a, %d %b %Y %H:%M:%S GMT')
                expires = har_date(when.replace(tzinfo=datetime.timezone.utc).timestamp())
            except ValueError:
                pass
        cookie = {'name': name.strip(), 'value': value.strip(), 'path': attributes.get('path'),
                  'domain': attributes.get('domain', host), 'expires': expires,
                  'httpOnly': 'httponly' in attributes, 'secure': 'secure' in attributes}
        if cookie['path'] is None:
            del cookie['path']
        if attributes.get('samesite'):
            cookie['sameSite'] = attributes['samesite'].capitalize()
        cookies.append(cookie)
    return cookies


def build_timings(r):
    """HAR timings (ms) from the monotonic times and the response's timing, the way DevTools does."""
    result = {'blocked': -1, 'dns': -1, 'ssl': -1, 'connect': -1, 'send': 0, 'wait': 0,
              'receive': 0, '_blocked_queueing': -1}
    timing = (r.response or {}).get('timing')
    queued = (r.start_time - r.issue_time) * 1000 if r.issue_time < r.start_time else -1
    result['blocked'] = result['_blocked_queueing'] = queued
    highest = 0
    if timing:
        starts = [t for t in (timing['dnsStart'], timing['connectStart'], timing['sendStart']) if t >= 0]
        blocked_start = min(starts) if starts else None
        if blocked_start is not None:
            result['blocked'] += blocked_start
        if timing.get('proxyEnd', -1) != -1:
            result['_blocked_proxy'] = timing['proxyEnd'] - timing['proxyStart']
            result['blocked'] = max(result['blocked'], result['_blocked_proxy'])
        base = blocked_start if blocked_start is not None else 0
        dns_end = timing['dnsEnd'] if timing['dnsEnd'] >= 0 else -1
        result['dns'] = dns_end - (base if timing['dnsEnd'] >= 0 else 0)
        ssl_end = timing['sslEnd'] if timing['sslEnd'] > 0 else -1
        result['ssl'] = ssl_end - (timing['sslStart'] if timing['sslEnd'] > 0 else 0)
        connect_end = timing['connectEnd'] if timing['connectEnd'] >= 0 else -1
        if timing['connectEnd'] >= 0:
            candidates = [t for t in (dns_end, blocked_start) if t is not None and t >= 0]
            connect_start = min(candidates) if candidates else float('inf')
        else:
            connect_start = 0
        result['connect'] = connect_end - connect_start
        send_end = timing['sendEnd'] if timing['sendEnd'] >= 0 else 0
        send_start = max(connect_end, dns_end, base) if timing['sendEnd'] >= 0 else 0
        result['send'] = max(send_end - send_start, 0)
        highest = max(send_end, connect_end, ssl_end, dns_end, base, 0)
        for key in ('workerStart', 'workerReady', 'workerFetchStart', 'workerRespondWithSettled'):
            if key in timing:
                result['_' + key] = timing[key]
    elif r.response_received_time == -1:
        result['blocked'] = (r.end_time - r.issue_time) * 1000
        return result
    request_time = timing['requestTime'] if timing else r.start_time
    wait_end = (r.response_received_time - request_time) * 1000
    result['wait'] = wait_end - highest
    receive_end = (r.end_time - request_time) * 1000
    result['receive'] = max(receive_end - wait_end, 0)
    return result


def http_version(headers_text, fallback):
    if headers_text:
        first = headers_text.split('\r\n', 1)[0]
        match = re.match(r'(HTTP/\S+)', first)
        if match:
            return match.group(1)
    return fallback


def build_entry(r, page_id):
    url = r.request['url'].split('#', 1)[0]
    host = urllib.parse.urlsplit(url).hostname or ''
    response = r.response or {}
    extra_res = r.extra_response or {}
    request_headers = header_list((r.extra_request or {}).get('headers') or r.request.get('headers'))
    response_headers = header_list(extra_res.get('headers') or response.get('headers'))
    response_headers_text = extra_res.get('headersText') or response.get('headersText')
    request_headers_text = response.get('requestHeadersText')
    response_version = http_version(response_headers_text, None)
    if response_version is None:
        response_version = header_value(response_headers, 'version') or \
            header_value(response_headers, ':version') or response.get('protocol', '')
    request_version = http_version(request_headers_text, None) or \
        header_value(request_headers, 'version') or header_value(request_headers, ':version') or \
        response_version
    started = r.pseudo_wall_time(r.start_time)

    included = [c['cookie'] for c in (r.extra_request or {}).get('associatedCookies', [])
                if not c.get('blockedReasons')]
    content_type = header_value(request_headers, 'Content-Type')
    query = urllib.parse.urlsplit(url).query

    request = {'method': r.request['method'], 'url': url, 'httpVersion': request_version,
               'headers': request_headers,
               'queryString': split_parameters(query) if query else [],
               'cookies': [protocol_cookie(c, started) for c in included],
               'headersSize': len(request_headers_text) if request_headers_text else -1,
               'bodySize': len(r.post_data.encode()) if r.post_data else 0}
    if r.post_data:
        post = {'mimeType': content_type or '', 'text': r.post_data}
        if content_type and re.match(r'^application/x-www-form-urlencoded\s*(;.*)?$', content_type, re.I):
            post['params'] = split_parameters(r.post_data)
        request['postData'] = post

    cached = bool(response.get('fromDiskCache') or response.get('fromMemoryCache'))
    status = response.get('status', 0)
    if cached or status == 304:
        body_size = 0
    elif not response_headers_text:
        body_size = -1
    else:
        body_size = r.transfer_size - len(response_headers_text)
    content = {'size': r.resource_size, 'mimeType': response.get('mimeType') or 'x-unknown'}
    if not cached and status not in (304, 206) and response_headers_text:
        content['compression'] = r.resource_size - body_size
    if r.body is not None:
        content['text'] = r.body['body']
        if r.body.get('base64Encoded'):
            content['encoding'] = 'base64'
    har_response = {
        'status': status, 'statusText': response.get('statusText', ''),
        'httpVersion': response_version, 'headers': response_headers,
        'cookies': set_cookie_cookies(header_value(response_headers, 'Set-Cookie'), host, started),
        'content': content, 'redirectURL': header_value(response_headers, 'Location') or '',
        'headersSize': len(response_headers_text) if response_headers_text else -1,
        'bodySize': body_size, '_transferSize': r.transfer_size, '_error': r.error,
        '_fetchedViaServiceWorker': bool(response.get('fromServiceWorker'))}

    timings = build_timings(r)
    total = sum(max(timings[k], 0) for k in ('blocked', 'dns', 'connect', 'send', 'wait', 'receive'))
    address = response.get('remoteIPAddress', '')
    port = response.get('remotePort')
    initiator = None
    if r.initiator:
        initiator = {'type': r.initiator['type']}
        for key in ('url', 'requestId', 'lineNumber', 'stack'):
            if key in r.initiator:
                initiator[key] = r.initiator[key]
    entry = {}
    connection_id = response.get('connectionId')
    if connection_id:
        entry['_connectionId'] = str(int(connection_id))
    if cached:
        entry['_fromCache'] = 'memory' if response.get('fromMemoryCache') else 'disk'
    entry.update({'_initiator': initiator, '_priority': r.priority,
                  '_resourceType': RESOURCE_TYPES.get(r.type, r.type.lower()), 'cache': {}})
    if port is not None:
        entry['connection'] = str(port)
    entry.update({'pageref': page_id, 'request': request, 'response': har_response,
                  'serverIPAddress': address.strip('[]'),
                  'startedDateTime': har_date(r.wall_time), 'time': total, 'timings': timings})
    return entry


class Recorder:
    def __init__(self, connection, session):
        self.cdp, self.session = connection, session
        self.requests = {}      # requestId -> the current hop
        self.done = []          # every hop, in the order they began
        self.early_extra = {}   # ExtraInfo that came before its requestWillBeSent
        self.dom_content = self.load = -1
        connection.listeners.append(self.on_event)

    def on_event(self, method, p):
        if not method or not method.startswith(('Network.', 'Page.')):
            return
        rid = p.get('requestId')
        r = self.requests.get(rid)
        if method == 'Network.requestWillBeSent':
            if r and p.get('redirectResponse'):  # the previous hop ends with its redirect
                r.set_response(p['redirectResponse'], p['timestamp'])
                r.end_time, r.finished = p['timestamp'], True
            r = Request(p)
            self.requests[rid] = r
            self.done.append(r)
            for kind, params in self.early_extra.pop(rid, []):
                self.apply_extra(r, kind, params)
        elif method in ('Network.requestWillBeSentExtraInfo', 'Network.responseReceivedExtraInfo'):
            if r and not (method.endswith('requestWillBeSentExtraInfo') and r.extra_request):
                self.apply_extra(r, method, p)
            else:
                self.early_extra.setdefault(rid, []).append((method, p))
        elif r is None:
            return
        elif method == 'Network.responseReceived':
            r.type = p.get('type', r.type)
            r.set_response(p['response'], p['timestamp'])
        elif method == 'Network.dataReceived':
            r.resource_size += p.get('dataLength', 0)
        elif method == 'Network.resourceChangedPriority':
            r.priority = p['newPriority']
        elif method == 'Network.loadingFinished':
            r.end_time, r.transfer_size, r.finished = p['timestamp'], p['encodedDataLength'], True
        elif method == 'Network.loadingFailed':
            r.end_time, r.finished = p['timestamp'], True
            r.error = p.get('errorText') or 'failed'
            r.type = p.get('type', r.type)

    def on_page_event(self, method, p):
        if method == 'Page.domContentEventFired':
            self.dom_content = p['timestamp']
        elif method == 'Page.loadEventFired':
            self.load = p['timestamp']

    @staticmethod
    def apply_extra(r, kind, params):
        if kind.endswith('requestWillBeSentExtraInfo'):
            r.extra_request = params
        else:
            r.extra_response = params

    async def fetch_bodies(self):
        for r in self.done:
            if r.post_data is None and r.request.get('hasPostData'):
                got = await self.cdp.call('Network.getRequestPostData', {'requestId': r.id},
                                          self.session, check=False)
                if got:
                    r.post_data = got.get('postData')
            if r.finished and r.error is None and self.requests.get(r.id) is r:
                r.body = await self.cdp.call('Network.getResponseBody', {'requestId': r.id},
                                             self.session, check=False)

    def har(self, url):
        entries_in_order = sorted(self.done, key=lambda r: r.issue_time)
        page = None
        main = next((r for r in entries_in_order if r.type == 'Document'), None)
        pages = []
        if main:
            page = 'page_1'

            def since_start(t):
                return -1 if t == -1 else (t - main.start_time) * 1000
            pages.append({'startedDateTime': har_date(main.pseudo_wall_time(main.start_time)),
                          'id': page, 'title': main.request['url'],
                          'pageTimings': {'onContentLoad': since_start(self.dom_content),
                                          'onLoad': since_start(self.load)}})
        entries = [build_entry(r, page) for r in entries_in_order]
        entries.sort(key=lambda e: e['startedDateTime'])
        return {'log': {'version': '1.2', 'creator': {'name': 'WebInspector', 'version': '537.36'},
                        'pages': pages, 'entries': entries}}


async def record(args, profile):
    async with cdp.browser(args.chromium, CHROMIUM_FLAGS, profile) as connection:
        session = await connection.open_page()
        recorder = Recorder(connection, session)
        connection.listeners.append(recorder.on_page_event)
        await connection.call('Network.enable', {'maxPostDataSize': 65536}, session)
        await connection.call('Page.enable', {}, session)
        for cookie in args.cookie:
            name, _, value = cookie.partition('=')
            ok = await connection.call('Network.setCookie',
                                       {'name': name, 'value': value, 'url': args.url}, session)
            if ok.get('success') is False:
                raise Failure(f'Chromium refused the cookie {cookie!r}')
        navigated = await connection.call('Page.navigate', {'url': args.url}, session)
        if navigated.get('errorText'):
            raise Failure(f"cannot load {args.url}: {navigated['errorText']}")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + FLOW_TIMEOUT_S
        title = ''
        while loop.time() < deadline:
            got = await connection.call('Runtime.evaluate', {'expression': 'document.title',
                                                             'returnByValue': True}, session)
            title = got.get('result', {}).get('value', '')
            if title == args.marker or title.startswith('error:'):
                break
            await asyncio.sleep(0.1)
        if title.startswith('error:'):
            raise Failure(f'the page failed: {title}')
        if title != args.marker:
            raise Failure(f'no title {args.marker!r} within {FLOW_TIMEOUT_S} s (title {title!r})')
        settle_end = loop.time() + SETTLE_S
        while loop.time() < settle_end:  # requests still loading, then a quiet moment
            if all(r.finished for r in recorder.done) and loop.time() > settle_end - SETTLE_S / 2:
                break
            await asyncio.sleep(0.1)
        await recorder.fetch_bodies()
        return recorder.har(args.url)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--url', required=True)
    parser.add_argument('--out', required=True)
    parser.add_argument('--chromium')
    parser.add_argument('--cookie', action='append', default=[], metavar='NAME=VALUE')
    parser.add_argument('--marker', default='done', help='the page title that ends the recording')
    args = parser.parse_args()
    name = 'record_har.py'
    if args.chromium is None:
        args.chromium = cdp.find_chromium()
        if args.chromium is None:
            print(f'{name}: no Chromium (on Debian: apt-get install -y chromium)', file=sys.stderr)
            return 2
    elif not (os.path.isfile(args.chromium) and os.access(args.chromium, os.X_OK)):
        print(f'{name}: {args.chromium} is not an executable', file=sys.stderr)
        return 2
    for cookie in args.cookie:
        if '=' not in cookie or cookie.startswith('='):
            print(f'{name}: --cookie wants NAME=VALUE, got {cookie!r}', file=sys.stderr)
            return 1
    if cdp.websockets_missing(name):
        return 1
    with tempfile.TemporaryDirectory(prefix='stampede-har-') as profile:
        har, status = cdp.run(record(args, profile), TOTAL_TIMEOUT_S, name,
                              f'the recording took over {TOTAL_TIMEOUT_S} s', (OSError, ValueError, KeyError))
    if status:
        return status
    if not har['log']['entries']:
        print(f'{name}: Chromium made no request', file=sys.stderr)
        return 1
    with open(args.out, 'w', encoding='utf-8') as out:
        json.dump(har, out, indent=2, ensure_ascii=False)
        out.write('\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
