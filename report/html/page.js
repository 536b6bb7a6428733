// Draws stampede's --html report from the run's data (the stampede-run JSON) with uPlot; on the
// dashboard's page (--dashboard), the run as it goes, from its feed.
'use strict';
(() => {
  const errors = [];
  // Any failure is put on <body data-error> (what the page test reads) and shown at the top.
  function fail(error) {
    errors.push(String((error && error.message) || error));
    document.body.dataset.error = errors.join('; ');
    const banner = document.getElementById('error');
    banner.textContent = 'This report could not be drawn in full: ' + errors.join('; ');
    banner.hidden = false;
  }
  window.addEventListener('error', (event) => fail(event.error || event.message));
  const guarded = (part, ...args) => { try { part(...args); } catch (error) { fail(error); } };

  const $ = (selector) => document.querySelector(selector);
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) if (value != null) node.setAttribute(name, value);
    node.append(...children.filter((child) => child != null));
    return node;
  }
  const get = (object, path) => path.split('.').reduce((at, key) => (at == null ? undefined : at[key]), object);
  const num = (v) => (typeof v === 'number' ? v.toLocaleString('en-US', { maximumFractionDigits: 6 }) : String(v));
  const fixed = (v, digits) => (v == null ? '' : v.toLocaleString('en-US', { maximumFractionDigits: digits }));
  const percent = (share) => fixed(share * 100, 2) + '%';
  // Quoted as Python's shlex.quote does, so the page test can rebuild the line.
  const quote = (arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : "'" + arg.replace(/'/g, `'"'"'`) + "'");
  const commandLine = (args) => ['stampede', ...args.map(quote)].join(' ');
  function remove(selector) { const node = $(selector); if (node) node.remove(); }

  // A table: one <tbody> row per item, so the page test can count them.
  function table(name, headers, rows, rowClass) {
    const head = el('thead', null, el('tr', null, ...headers.map((h) => el('th', null, h))));
    const body = el('tbody', null, ...rows.map((cells, i) =>
      el('tr', { class: rowClass ? rowClass(i) : null }, ...cells.map((c) => el('td', null, c)))));
    return el('table', { 'data-table': name }, head, body);
  }
  // A report figure as the JSON gives it, tagged with its dotted name for the page test.
  const figure = (report, path) => el('span', { 'data-field': path }, num(get(report, path)));
  // Groups of [label, dotted path, unit] rows; a row (or a whole group) the report lacks is left out.
  function figures(report, groups) {
    const present = groups.map(([title, rows]) => [title, rows.filter(([, path]) => get(report, path) !== undefined)]);
    return el('table', { class: 'figures' }, ...present.filter(([, rows]) => rows.length).map(([title, rows]) =>
      el('tbody', null, el('tr', null, el('th', { colspan: 2, class: 'group' }, title)),
        ...rows.map(([label, path, unit]) => el('tr', null, el('th', null, label),
          el('td', null, figure(report, path), unit ? ' ' + unit : ''))))));
  }

  function heading(data) {
    document.title = 'stampede: ' + data.title;
    $('#title').textContent = data.title;
    $('#generated').textContent = (data.generated_at || '').replace('T', ' ').replace('Z', ' UTC');
    $('#generated').setAttribute('datetime', data.generated_at || '');
    $('#command').textContent = $('#config-command').textContent = commandLine(data.command || []);
  }

  const REASONS = { 200: 'OK', 201: 'Created', 204: 'No Content', 301: 'Moved Permanently', 302: 'Found',
    304: 'Not Modified', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found',
    408: 'Request Timeout', 429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway',
    503: 'Service Unavailable', 504: 'Gateway Timeout' };

  function summary(r) {
    const seconds = r.duration_s || 0;
    $('#figures').append(figures(r, [
      ['Requests', [['completed', 'requests.total'], ['succeeded', 'requests.succeeded'],
        ['failed', 'requests.failed'], ['abandoned', 'requests.abandoned'], ['duration', 'duration_s', 's'],
        ['requests/s', 'rps', 'requests/s'], ['keep-alive responses', 'keep_alive_requests']]],
      ['Latency (ms)', [['min', 'latency_ms.min'], ['mean', 'latency_ms.mean'], ['stdev', 'latency_ms.stdev'],
        ['p50', 'latency_ms.p50'], ['p90', 'latency_ms.p90'], ['p95', 'latency_ms.p95'],
        ['p99', 'latency_ms.p99'], ['p99.9', 'latency_ms.p999'], ['max', 'latency_ms.max']]],
      ['Transfer', [['received', 'bytes.received', 'bytes'], ['body received', 'bytes.body_received', 'bytes'],
        ['sent', 'bytes.sent', 'bytes'], ['connections opened', 'connections.opened'], ['stop reason', 'stop_reason']]],
      streamFigures((r.events && r.events.unit) || 'event'),
    ]));
    const across = r.requests.total ? (seconds * 1000) / r.requests.total : 0;
    $('#figures').append(el('p', { class: 'note' }, `Time per request across all users: ${fixed(across, 3)} ms; ` +
      `received ${fixed(seconds ? r.bytes.received / 1024 / seconds : 0, 1)} KiB/s.`));
    statuses(r);
    verdicts(r);
    phases(r.phases_ms);
  }

  // The stream figures, named for their unit: an event stream's events, a gRPC call's messages
  // (received, or sent by a client-streaming call: "sent message"), a body's chunks.
  function streamFigures(unit) {
    const sent = unit.startsWith('sent ');
    const noun = sent ? unit.slice(5) : unit;
    const rows = [[`${noun}s ${sent ? 'sent' : 'received'}`, 'events.received'],
      [`${noun}s/s`, 'events.per_s', `${noun}s/s`]];
    if (noun === 'event') rows.push(['lost to reconnects', 'events.lost']);
    if (sent) rows.push(['on calls without their answer', 'events.unanswered']);
    for (const p of ['p50', 'p90', 'p99', 'max']) rows.push([`first ${noun} ${p}`, `events.first_event_ms.${p}`, 'ms']);
    for (const p of ['p50', 'p90', 'p99', 'max']) rows.push([`gap ${p}`, `events.gap_ms.${p}`, 'ms']);
    rows.push(['streams opened', 'events.streams.opened'], ['ended by the server', 'events.streams.ended_by_server'],
      ['streams failed', 'events.streams.failed'], ['open at the end', 'events.streams.open_at_end'],
      ['bytes per stream', 'events.streams.bytes_received_mean', 'bytes']);
    return [noun === 'event' ? 'Event streams' : 'Streams', rows];
  }

  function statuses(r) {
    const total = r.requests.total || 1;
    const codes = Object.entries(r.status_codes || {});
    $('#statuses').append(codes.length ? table('status', ['status', 'responses', 'share'], codes.map(([code, n]) =>
      [`${code} ${REASONS[code] || ''}`, el('span', { 'data-status': code }, num(n)), percent(n / total)]))
      : el('p', { class: 'note' }, 'No HTTP response arrived.'));
    if (r.grpc_status_codes) $('#statuses').append(table('grpc', ['gRPC status', 'calls'],
      Object.entries(r.grpc_status_codes).map(([name, n]) => [name, num(n)])));
    const kinds = Object.entries(r.errors || {}).filter(([, n]) => n > 0);
    $('#failures').append(kinds.length ? table('errors', ['failure', 'requests', 'share'],
      kinds.map(([kind, n]) => [kind, el('span', { 'data-error-kind': kind }, num(n)), percent(n / total)]))
      : el('p', { class: 'note' }, 'No request failed.'));
  }

  function verdicts(r) {
    const measured = (t) => (t.unit === 'share' ? percent(t.measured) : `${num(t.measured)} ${t.unit}`);
    if (r.thresholds) $('#thresholds').append(table('thresholds', ['threshold', 'result', 'measured'],
      r.thresholds.map((t) => [t.threshold, el('b', { class: t.passed ? 'pass' : 'fail' }, t.passed ? 'pass' : 'FAIL'),
        measured(t)])));
    else remove('#thresholds');
    if (r.checks) $('#checks').append(table('checks', ['check', 'responses it rejected'],
      r.checks.map((c) => [c.check, num(c.failed)])));
    else remove('#checks');
    capacity(r.capacity, '#capacity');
  }

  function capacity(c, where) {
    if (!c) return remove(where);
    $(where).append(el('p', null, `${num(c.page_views)} page views a day, ${percent(c.peak_share)} of them in ` +
      `${percent(c.peak_time_share)} of the day: a peak of ${num(c.peak_qps)} requests/s. One server took ` +
      `${num(c.measured_qps)} requests/s, so `, el('b', null, c.servers_needed ? `${num(c.servers_needed)} servers` +
      ' are needed.' : 'the servers needed are unknown (no request succeeded).')));
  }

  function phases(p) {
    const names = ['connect', 'processing', 'waiting', 'queueing', 'total'].filter((name) => p && p[name]);
    if (!names.length) return remove('#phases');
    $('#phases').append(table('phases', ['phase (ms)', 'min', 'mean', 'p50', 'p99', 'max'], names.map((name) =>
      [name, ...['min', 'mean', 'p50', 'p99', 'max'].map((k) => num(p[name][k]))])));
  }

  // Charts: each <section class="chart" data-chart=NAME> says what it drew, for the page test.
  const plots = {};
  const COLORS = ['#1565c0', '#ef6c00', '#2e7d32', '#6a1b9a', '#c62828', '#00838f', '#6d4c41', '#ad1457'];
  let logY = false;

  function axisSize(u, values, index, cycle) {
    const axis = u.axes[index];
    if (cycle > 1) return axis._size;
    const longest = (values || []).reduce((a, v) => (String(v).length > a.length ? String(v) : a), '');
    u.ctx.font = axis.font[0];
    return Math.ceil(axis.ticks.size + axis.gap + u.ctx.measureText(longest).width / devicePixelRatio) + 4;
  }
  // uPlot's own tick labels keep 3 decimals, too few for sub-millisecond runs and latencies.
  const ticks = (u, vs) => vs.map((v) => (v == null ? '' : num(v)));
  const yAxis = (label, more) => ({ label, size: axisSize, values: ticks, ...more });
  // Log axes: ticks at 1, 2, 5 times a power of ten (decades alone when those would crowd).
  function logSplits(u, axis, min, max) {
    const all = [];
    const decades = [];
    for (let decade = 10 ** Math.floor(Math.log10(min)); decade <= max * 1.001; decade *= 10) {
      for (const m of [1, 2, 5]) {
        const v = +(m * decade).toPrecision(1);
        if (v >= min * 0.999 && v <= max * 1.001) (m === 1 ? [all, decades] : [all]).forEach((list) => list.push(v));
      }
    }
    const room = (u.axes[axis].side % 2 ? u.bbox.height : u.bbox.width) / devicePixelRatio / 50;
    return all.length > room ? decades : all;
  }
  const logAxis = (label, more) => ({ label, splits: logSplits, filter: (u, splits) => splits,
    values: ticks, ...more });
  const fromZero = (u, min, max) => (max > 0 ? uPlot.rangeNum(0, max, 0.1, true) : [0, 1]);
  const line = (label, stroke, more) => ({ label, stroke, width: 2, spanGaps: false, ...more });

  function chart(name, build) {
    const section = $(`section.chart[data-chart="${name}"]`);
    if (!section) return;
    const box = section.querySelector('.plot');
    if (plots[name]) plots[name].destroy();
    delete plots[name];
    box.textContent = '';
    const spec = build();
    if (!spec.data) {
      section.dataset.drawn = 'empty';
      box.append(el('p', { class: 'note' }, spec.empty));
      return;
    }
    const opts = { width: box.clientWidth || 900, height: 300, ...spec.opts };
    opts.scales = { x: { time: false }, ...opts.scales };
    plots[name] = new uPlot(opts, spec.data, box);
    Object.assign(section.dataset, { drawn: 'true', points: spec.data[0].length, series: spec.data.length - 1 });
  }

  function overTime(seconds) {
    const x = seconds.map((s) => s.elapsed_s);
    // A second's length from its rps (elapsed_s is rounded to the ms, too coarse for the last, short one).
    const length = seconds.map((s, i) => (s.rps > 0 && s.succeeded + s.failed > 0 ? (s.succeeded + s.failed) / s.rps
      : Math.max(s.elapsed_s - (i ? seconds[i - 1].elapsed_s : 0), 0.001)));
    const perSecond = (count) => seconds.map((s, i) => count(s) / length[i]);
    const none = { empty: 'No second of this run was recorded.' };
    const timeAxis = { label: 'elapsed (s)', values: ticks };
    // The three charts share the cursor, and their time axes line up: same x range, same axis widths.
    const cursor = { sync: { key: 'stampede-time' } };
    const timeX = { time: false, range: () => [0, x[x.length - 1]] };
    const left = (label, more) => ({ label, size: 70, values: ticks, ...more });
    const aligned = { cursor, padding: [null, 80, null, null] };
    // --rate: the rate asked each second beside the rates done.
    const asked = seconds.some((s) => s.due_per_s != null);
    chart('rps', () => (!x.length ? none : {
      data: [x, perSecond((s) => s.succeeded), perSecond((s) => s.failed), seconds.map((s) => s.users_running),
        ...(asked ? [seconds.map((s) => s.due_per_s)] : [])],
      opts: { cursor, scales: { x: timeX, y: { range: fromZero }, users: { range: fromZero } },
        series: [{ label: 'elapsed (s)' }, line('succeeded/s', '#2e7d32'), line('failed/s', '#c62828'),
          line('users running', '#1565c0', { scale: 'users', dash: [6, 4], width: 1.5 }),
          ...(asked ? [line('asked/s', '#6d4c41', { dash: [2, 3], width: 1.5 })] : [])],
        axes: [timeAxis, left('requests/s'),
          { label: 'users', scale: 'users', side: 1, size: 50, values: ticks, grid: { show: false } }] },
    }));
    const answered = seconds.some((s) => s.latency_ms && s.latency_ms.max > 0);
    const keys = ['p50', 'p90', 'p99', 'max'].filter((k) => seconds.some((s) => s.latency_ms && k in s.latency_ms));
    const latencyColors = { p50: COLORS[0], p90: COLORS[3], p99: COLORS[1], max: COLORS[4] };
    const value = (s, k) => (s.latency_ms && s.latency_ms.max > 0 && s.latency_ms[k] > 0 ? s.latency_ms[k] : null);
    chart('latency', () => (!answered ? { empty: 'No response arrived, so there is no latency to draw.' } : {
      data: [x, ...keys.map((k) => seconds.map((s) => value(s, k)))],
      opts: { ...aligned, scales: { x: timeX, y: logY ? { distr: 3, log: 10 } : { range: fromZero } },
        series: [{ label: 'elapsed (s)' }, ...keys.map((k) => line(k, latencyColors[k]))],
        axes: [timeAxis, logY ? logAxis('latency (ms)', { size: 70 }) : left('latency (ms)')] },
    }));
    const codes = [...new Set(seconds.flatMap((s) => Object.keys(s.status_codes || {})))].sort();
    chart('status', () => (!x.length ? none : {
      data: [x, ...codes.map((code) => perSecond((s) => (s.status_codes || {})[code] || 0)),
        perSecond((s) => s.failed)],
      opts: { ...aligned, scales: { x: timeX, y: { range: fromZero } },
        series: [{ label: 'elapsed (s)' }, ...codes.map((code, i) => line(code, statusColor(code, i))),
          line('failed', '#212121', { dash: [4, 4], width: 1.5 })],
        axes: [timeAxis, left('responses/s')] },
    }));
  }

  // Long-lived connections (WebSocket, held, event streams): open at each second's end, and
  // opened and failed in it. Other runs have no such seconds: no chart.
  function connectionsOverTime(seconds) {
    if (!seconds.length) return remove('section[data-chart="connections"]');
    const x = seconds.map((s) => s.elapsed_s);
    chart('connections', () => ({
      data: [x, seconds.map((s) => s.open), seconds.map((s) => s.opened), seconds.map((s) => s.failed)],
      opts: { cursor: { sync: { key: 'stampede-time' } }, padding: [null, 80, null, null],
        scales: { x: { time: false, range: () => [0, x[x.length - 1]] }, y: { range: fromZero } },
        series: [{ label: 'elapsed (s)' }, line('open', '#1565c0'), line('opened', '#2e7d32'),
          line('failed', '#c62828')],
        axes: [{ label: 'elapsed (s)', values: ticks }, { label: 'connections', size: 70, values: ticks }] },
    }));
  }

  // 2xx green, 3xx blue, 4xx orange, 5xx red; shades apart for several codes of one class.
  function statusColor(code, i) {
    const hue = { 1: 200, 2: 130, 3: 215, 4: 30, 5: 0 }[code[0]] ?? 280;
    return `hsl(${hue}, 70%, ${32 + (i % 3) * 12}%)`;
  }

  // The latency histogram: one bar per bucket, from its low to its high edge on a log axis.
  function distribution(d) {
    const buckets = (d && d.buckets) || [];
    const low = buckets.map(([lo, hi]) => (lo > 0 ? lo : hi / 2));
    const high = buckets.map((b) => b[1]);
    const bars = (u, si, i0, i1) => {
      const path = new Path2D();
      const base = u.bbox.top + u.bbox.height;
      for (let i = i0; i <= i1; i++) {
        const left = u.valToPos(low[i], 'x', true);
        const top = u.valToPos(u.data[si][i], 'y', true);
        path.rect(left, top, Math.max(u.valToPos(high[i], 'x', true) - left, 1), base - top);
      }
      return { stroke: path, fill: path };
    };
    chart('distribution', () => (!buckets.length ? { empty: 'No latency was recorded.' } : {
      data: [buckets.map((b, i) => Math.sqrt(low[i] * high[i])), buckets.map((b) => b[2])],
      opts: { scales: { x: { time: false, distr: 3, log: 10, range: () => [Math.min(...low), Math.max(...high)] },
        y: logY ? { distr: 3, log: 10 } : { range: fromZero } },
        series: [{ label: 'latency', value: (u, v, si, i) => (i == null ? '--' : `${buckets[i][0]} to ${high[i]} ms`) },
          { label: 'responses', stroke: COLORS[0], fill: 'rgba(21, 101, 192, 0.35)', width: 1, paths: bars,
            points: { show: false } }],
        axes: [logAxis('latency (ms), log scale'), logY ? logAxis('responses in the bucket', { size: axisSize })
          : yAxis('responses in the bucket')] },
    }));
    percentiles((d && d.percentiles) || [], buckets.reduce((sum, b) => sum + b[2], 0));
  }

  // HdrHistogram's percentile plot: x is 1/(1-p) on a log axis, labelled 0%, 90%, 99%, 99.9%...
  function percentiles(points, count) {
    const finite = points.filter(([p]) => p < 100).map(([p]) => 100 / (100 - p));
    const last = finite.length ? finite[finite.length - 1] : 1;
    const x = points.map(([p]) => (p < 100 ? 100 / (100 - p) : Math.max(last * 2, count, 10)));
    const label = (v) => `${+(100 - 100 / v).toFixed(6)}%`;
    const decades = (u, axis, min, max) => {
      const out = [];
      for (let v = 1; v <= max * 1.0001; v *= 10) out.push(v);
      return out;
    };
    chart('percentiles', () => (!points.length ? { empty: 'No latency was recorded.' } : {
      data: [x, points.map(([, ms]) => (logY ? Math.max(ms, 0.001) : ms))],
      opts: { scales: { x: { time: false, distr: 3, log: 10, range: () => [1, Math.max(...x)] },
        y: logY ? { distr: 3, log: 10 } : { range: fromZero } },
        series: [{ label: 'percentile', value: (u, v, si, i) => (i == null ? '--' : `${num(points[i][0])}%`) },
          line('latency (ms)', COLORS[0], { points: { show: false } })],
        axes: [{ label: 'percentile (log scale of 1/(1-p))', splits: decades, values: (u, vs) => vs.map(label) },
          logY ? logAxis('latency (ms)', { size: axisSize }) : yAxis('latency (ms)')] },
    }));
  }

  function steps(list) {
    if (!list || list.length < 2) return remove('#steps');
    const ms = ['mean', 'p50', 'p90', 'p99', 'max'];
    $('#steps').append(table('steps', ['step', 'request', 'total', 'succeeded', 'failed', ...ms.map((k) => k + ' ms'),
      'status codes'], list.map((s) => [num(s.step), s.request, num(s.requests.total), num(s.requests.succeeded),
      num(s.requests.failed), ...ms.map((k) => num(s.latency_ms[k])),
      Object.entries(s.status_codes || {}).map(([code, n]) => `${code}: ${num(n)}`).join(', ')])));
  }

  function configuration(r) {
    $('#config').append(figures(r, [
      ['Users', [['users', 'users'], ['started', 'users_started'], ['requests per user (0: until stopped)',
        'requests_per_user'], ['threads', 'threads'], ['keep-alive', 'keep_alive']]],
      ['Rate', [['asked', 'rate.asked', 'requests/s'], ['started', 'rate.started', 'requests/s'],
        ['on schedule', 'rate.scheduled'], ['user cap', 'rate.cap.users'], ['waited for a user', 'rate.cap.capped'],
        ['missed', 'rate.cap.missed'], ['service time p50', 'service_time_ms.p50', 'ms'],
        ['service time p99', 'service_time_ms.p99', 'ms'], ['generator lag p50', 'lag_ms.p50', 'ms'],
        ['generator lag p99', 'lag_ms.p99', 'ms'], ['generator lag max', 'lag_ms.max', 'ms']]],
      ['Server', [['software', 'server.software'], ['scheme', 'server.scheme'], ['host', 'server.host'],
        ['port', 'server.port'], ['path', 'server.path'], ['document length', 'server.document_length', 'bytes']]],
    ]));
    const protocols = Object.entries(get(r, 'connections.protocols') || {});
    if (protocols.length) $('#config').append(el('p', null, 'Connections by protocol: ' +
      protocols.map(([name, n]) => `${name} ${num(n)}`).join(', ')));
  }

  function sweep(s, plan) {
    const targets = (s.targets || []).length ? s.targets : [...new Set(s.steps.map((step) => step.url))];
    const levels = [...new Set(s.steps.map((step) => step.level))].sort((a, b) => a - b);
    const knees = new Map((s.knee || []).map((k) => [k.url, k]));
    const unit = s.by === 'rate' ? 'requests/s' : 'users';
    $('#sweep-about').textContent = `One step of ${num(s.step_s)} s per level (${unit}), each after a ` +
      `${num(s.warmup_s)} s warm-up${s.slo ? `; SLO ${s.slo}` : ''}${s.automatic ? '; levels searched for' : ''}` +
      `${s.interrupted ? '; interrupted by Ctrl-C: only the steps that finished are shown' : ''}.`;
    $('#knees').append(...(s.knee || []).map((k) => el('li', null, el('b', null, k.url), k.level == null
      ? ': broke at the first level.' : `: knee at ${num(k.level)} ${unit} (${num(k.qps)} requests/s)`,
      k.broke_at == null ? '; no level broke: the knee is above them.' : `; broke at ${num(k.broke_at)}: ${k.why}.`)));
    const mark = (step) => { const k = knees.get(step.url); return !k ? '' : step.level === k.level ? 'knee'
      : step.level === k.broke_at ? 'broke' : ''; };
    $('#sweep-steps').append(table('sweep', ['url', 'level', 'QPS', 'mean ms', 'p50 ms', 'p90 ms', 'p99 ms',
      'errors', 'time per request ms', 'requests', ''], s.steps.map((step) => [step.url, num(step.level),
      num(step.qps), num(step.mean_ms), num(step.p50_ms), num(step.p90_ms), num(step.p99_ms),
      percent(step.error_share), num(step.time_per_request_ms), num(step.requests), mark(step)]),
    (i) => mark(s.steps[i]) || null));
    capacity(plan, '#sweep-capacity');
    const logX = levels[0] > 0 && levels[levels.length - 1] / levels[0] >= 4;
    const column = (key) => targets.map((url) => levels.map((level) => {
      const step = s.steps.find((t) => t.url === url && t.level === level);
      return step ? step[key] : null;
    }));
    const kneeLines = (u) => targets.forEach((url, i) => {
      const k = knees.get(url);
      if (!k || k.level == null) return;
      const px = u.valToPos(k.level, 'x', true);
      u.ctx.save();
      u.ctx.strokeStyle = COLORS[i % COLORS.length];
      u.ctx.setLineDash([5, 5]);
      u.ctx.beginPath();
      u.ctx.moveTo(px, u.bbox.top);
      u.ctx.lineTo(px, u.bbox.top + u.bbox.height);
      u.ctx.stroke();
      u.ctx.restore();
    });
    const byLevel = (key, label) => () => (!levels.length ? { empty: 'No step finished.' } : {
      data: [levels, ...column(key)],
      opts: { scales: { x: logX ? { time: false, distr: 3, log: 2 } : { time: false }, y: { range: fromZero } },
        hooks: { draw: [kneeLines] },
        series: [{ label: unit }, ...targets.map((url, i) => line(url, COLORS[i % COLORS.length],
          { spanGaps: true, points: { show: true, size: 7 } }))],
        axes: [{ label: `level (${unit})${logX ? ', log scale' : ''}; dashed line: knee`, values: ticks }, yAxis(label)] },
    });
    chart('sweep-qps', byLevel('qps', 'successful requests/s'));
    chart('sweep-p99', byLevel('p99_ms', 'p99 latency (ms)'));
  }

  // Charts follow the page's width, on screen and on paper.
  function fit() {
    for (const [name, plot] of Object.entries(plots)) {
      const width = $(`section.chart[data-chart="${name}"] .plot`).clientWidth;
      if (width && width !== plot.width) plot.setSize({ width, height: plot.height });
    }
  }

  // Draws the run (or the sweep) into <main>; again each second on the dashboard's page, into a
  // fresh copy of <main> as the page first had it.
  let pristine = null;
  function draw(data) {
    if (pristine) {
      for (const name of Object.keys(plots)) { plots[name].destroy(); delete plots[name]; }
      $('main').replaceWith(pristine.cloneNode(true));
    } else {
      pristine = $('main').cloneNode(true);
    }
    guarded(heading, data);
    const r = data.report;
    if (r) {
      guarded(summary, r);
      guarded(overTime, r.per_second || []);
      guarded(connectionsOverTime, get(r, 'connections.per_second') || []);
      guarded(distribution, data.distribution);
      guarded(steps, r.steps);
      guarded(configuration, r);
      $('#log-y').checked = logY;
      $('#log-y').addEventListener('change', (event) => {
        logY = event.target.checked;
        guarded(overTime, r.per_second || []);
        guarded(distribution, data.distribution);
      });
    } else {
      remove('#run');
    }
    if (data.sweep) guarded(sweep, data.sweep, data.capacity);
    else remove('#sweep');
  }

  // The dashboard (--dashboard): the run comes from its feed, a second at a time, each message
  // with the seconds this page has not had; at the end the page --html would write, to save.
  // <body data-live> says where it stands (connecting, running, ended, lost) and data-second how
  // many seconds are drawn, for the dashboard's test.
  function live(boot) {
    const token = boot.live.token;
    const state = (text, stage) => {
      $('#live-state').textContent = text;
      document.body.dataset.live = stage;
    };
    $('#live').hidden = false;
    state('Connecting to the run...', 'connecting');
    guarded(heading, boot);
    pristine = $('main').cloneNode(true);
    $('main').hidden = true;  // until the first second comes
    let seconds = [];
    const take = (message) => {
      seconds = seconds.slice(0, message.from).concat(message.seconds);
      const data = message.data;
      if (data.report) {
        data.report.per_second = seconds;
        // A run of long-lived connections' seconds carry theirs, the report's connections.per_second.
        if (seconds.some((s) => s.connections)) data.report.connections.per_second = seconds.map((s) => s.connections);
      }
      draw(data);
      document.body.dataset.second = String(seconds.length);
      return data;
    };
    const feed = new EventSource('/feed?token=' + encodeURIComponent(token));
    feed.addEventListener('tick', (event) => guarded(() => {
      const data = take(JSON.parse(event.data));
      const verdicts = get(data, 'report.thresholds') || [];
      const passing = verdicts.filter((v) => v.passed).length;
      state(`Running: ${num(get(data, 'report.duration_s') || 0)} s` +
        (data.sweep ? ` into a sweep's step; ${data.sweep.steps.length} steps done` : '') +
        (verdicts.length ? `; thresholds so far: ${passing} of ${verdicts.length} pass` : '') +
        '. Updated each second.', 'running');
    }));
    feed.addEventListener('end', (event) => guarded(() => {
      feed.close();
      const message = JSON.parse(event.data);
      const data = take(message);
      state(`The run ended (${get(data, 'report.stop_reason')}): these are its final figures.`, 'ended');
      $('#stop').hidden = true;
      const save = $('#save');
      save.href = URL.createObjectURL(new Blob([message.page], { type: 'text/html' }));
      save.hidden = false;
    }));
    feed.addEventListener('error', () => {
      if (document.body.dataset.live === 'ended') return;
      feed.close();
      state('The run is out of reach: it ended, or stampede stopped, before this page had its end.', 'lost');
      $('#stop').hidden = true;
    });
    $('#stop').addEventListener('click', () => {
      $('#stop').disabled = true;
      fetch('/stop', { method: 'POST', headers: { 'X-Stampede-Token': token } }).then(async (answer) => {
        $('#live-state').textContent = answer.ok ? 'Stopping the run...' : 'Not stopped: ' + (await answer.text());
        if (!answer.ok) $('#stop').disabled = false;
      }).catch(fail);
    });
  }

  function main() {
    const data = JSON.parse(document.getElementById('stampede-run').textContent);
    if (data.live) live(data);
    else draw(data);
    window.addEventListener('resize', fit);
    window.matchMedia('print').addEventListener('change', fit);
  }

  guarded(main);
})();
