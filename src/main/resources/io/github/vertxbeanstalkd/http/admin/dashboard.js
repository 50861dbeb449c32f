// The admin page's dashboard: charts of the last minutes drawn with uPlot from /api/dashboard.
// The page keeps the history: the server answers each poll from the engine's snapshot and holds no series.
'use strict';

(() => {
  const SAMPLE_MILLIS = 2000;
  const WINDOW_SECONDS = 300;
  const MAX_SAMPLES = WINDOW_SECONDS * 1000 / SAMPLE_MILLIS + 1;
  const CHART_HEIGHT = 220;
  // Counters since the start, charted as rates; and counts, charted as they are.
  const RATES = [
    { key: 'puts', label: 'put/s', color: '#1a73e8' },
    { key: 'reserves', label: 'reserve/s', color: '#188038' },
    { key: 'deletes', label: 'delete/s', color: '#a142f4' },
  ];
  const STATES = [
    { key: 'ready', label: 'ready', color: '#1a73e8' },
    { key: 'reserved', label: 'reserved', color: '#188038' },
    { key: 'delayed', label: 'delayed', color: '#e37400' },
    { key: 'buried', label: 'buried', color: '#a40000' },
  ];

  // One sample per poll: the time in seconds and each tube's counts by name.
  const samples = [];
  let charts = null;

  const $ = (selector) => document.querySelector(selector);

  function setText(element, text) {
    const value = String(text);
    if (element.textContent !== value) element.textContent = value;
  }

  // The token admin.js asks for and keeps; a refused poll stays quiet here, admin.js says why.
  async function feed() {
    const headers = {};
    const token = sessionStorage.getItem('beanstalkd-token');
    if (token) headers.Authorization = 'Bearer ' + token;
    const response = await fetch('/api/dashboard', { headers });
    return response.ok ? response.json() : null;
  }

  function record(data) {
    const tubes = new Map(data.tubes.map((t) => [t.name, t]));
    samples.push({ t: data.takenAt / 1000, tubes });
    if (samples.length > MAX_SAMPLES) samples.shift();
  }

  // The shown tube's value, or the sum over every tube; null when the tube is not in the sample.
  function value(sample, key, tube) {
    if (tube) {
      const t = sample.tubes.get(tube);
      return t ? t[key] : null;
    }
    let sum = 0;
    for (const t of sample.tubes.values()) sum += t[key];
    return sum;
  }

  // Per second between two samples. A tube's counters start at 0 when it is made, so a tube new
  // since the sample before, or made again (dropped when empty and unused) with lower counters,
  // counts all of its own; a tube gone since adds nothing.
  function rate(before, after, key, tube) {
    const seconds = after.t - before.t;
    if (seconds <= 0) return null;
    let sum = 0;
    for (const [name, t] of after.tubes) {
      if (tube && name !== tube) continue;
      const old = before.tubes.get(name);
      sum += old && t[key] >= old[key] ? t[key] - old[key] : t[key];
    }
    return tube && !after.tubes.has(tube) ? null : sum / seconds;
  }

  function series(tube) {
    const times = samples.map((s) => s.t);
    const rates = RATES.map((r) => samples.map((s, i) => (i === 0 ? null : rate(samples[i - 1], s, r.key, tube))));
    const states = STATES.map((c) => samples.map((s) => value(s, c.key, tube)));
    return { rates: [times, ...rates], states: [times, ...states] };
  }

  function chart(figure, lines, data, decimals) {
    const options = {
      width: Math.max(200, figure.clientWidth - 16),
      height: CHART_HEIGHT,
      scales: { x: { time: true }, y: { range: (u, min, max) => [0, Math.max(1, max)] } },
      series: [{}, ...lines.map((l) => ({
        label: l.label,
        stroke: l.color,
        width: 2,
        value: (u, v) => (v == null ? '–' : v.toFixed(decimals)),
      }))],
    };
    return new uPlot(options, data, figure);
  }

  function peak(values) {
    let best = null;
    for (const v of values) if (v != null && (best == null || v > best)) best = v;
    return best;
  }

  function renderNow(data) {
    const body = $('#dashboard-now tbody');
    const rows = [
      ...RATES.map((r, i) => ({ line: r, values: data.rates[i + 1], decimals: 1 })),
      ...STATES.map((c, i) => ({ line: c, values: data.states[i + 1], decimals: 0 })),
    ];
    rows.forEach(({ line, values, decimals }, i) => {
      let row = body.rows[i];
      if (!row) {
        row = body.insertRow();
        row.dataset.series = line.key;
        const name = document.createElement('th');
        name.scope = 'row';
        const swatch = document.createElement('span');
        swatch.className = 'swatch';
        swatch.style.background = line.color;
        name.append(swatch, line.label);
        row.append(name, document.createElement('td'), document.createElement('td'));
        row.cells[1].dataset.now = '';
        row.cells[2].dataset.peak = '';
      }
      const now = values.length ? values[values.length - 1] : null;
      const best = peak(values);
      setText(row.cells[1], now == null ? '–' : now.toFixed(decimals));
      setText(row.cells[2], best == null ? '–' : best.toFixed(decimals));
    });
  }

  function renderTubeChoice() {
    const select = $('#dashboard-tube');
    const latest = samples[samples.length - 1];
    const names = [...latest.tubes.keys()];
    const shown = [...select.options].slice(1).map((o) => o.value);
    if (names.join('\n') === shown.join('\n')) return;
    const chosen = select.value;
    [...select.options].slice(1).forEach((o) => o.remove());
    for (const name of names) select.add(new Option(name, name));
    // A chosen tube that is gone stays chosen: its charts end where it went.
    if (chosen && !names.includes(chosen)) select.add(new Option(chosen + ' (gone)', chosen));
    select.value = chosen;
  }

  function renderNodes(nodes) {
    const panel = $('#nodes-panel');
    panel.hidden = !nodes;
    if (!nodes) return;
    const body = $('#nodes tbody');
    body.replaceChildren();
    for (const n of nodes) {
      const row = body.insertRow();
      row.dataset.node = n.node;
      row.classList.toggle('self', n.self);
      const name = document.createElement('th');
      name.scope = 'row';
      name.textContent = n.node.slice(0, 8) + (n.self ? ' (this node)' : '');
      name.title = n.node;
      row.appendChild(name);
      for (const text of [n.role + (n.role === 'primary' && n.degraded ? ' (degraded)' : ''), n.term,
        n.role === 'primary' ? '–' : n.lagBytes, n.serving]) {
        const td = row.insertCell();
        td.textContent = String(text);
      }
      row.cells[1].dataset.role = n.role;
    }
  }

  function render() {
    const data = series($('#dashboard-tube').value);
    if (typeof uPlot === 'undefined') {
      setText($('#rates-chart figcaption'), 'Jobs per second (the chart library did not load)');
    } else if (charts === null) {
      charts = {
        rates: chart($('#rates-chart'), RATES, data.rates, 1),
        states: chart($('#jobs-chart'), STATES, data.states, 0),
      };
    } else {
      charts.rates.setData(data.rates);
      charts.states.setData(data.states);
    }
    renderNow(data);
  }

  async function poll() {
    let data;
    try {
      data = await feed();
    } catch (e) {
      return;
    }
    if (!data) return;
    record(data);
    renderTubeChoice();
    renderNodes(data.nodes);
    render();
    $('#dashboard').dataset.samples = String(samples.length);
  }

  function resize() {
    if (charts === null) return;
    charts.rates.setSize({ width: Math.max(200, $('#rates-chart').clientWidth - 16), height: CHART_HEIGHT });
    charts.states.setSize({ width: Math.max(200, $('#jobs-chart').clientWidth - 16), height: CHART_HEIGHT });
  }

  document.addEventListener('DOMContentLoaded', () => {
    $('#dashboard-tube').addEventListener('change', render);
    window.addEventListener('resize', resize);
    poll();
    setInterval(poll, SAMPLE_MILLIS);
  });
})();
