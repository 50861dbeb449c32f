// The admin page: plain JS over the JSON API under /api/ (no build step).
'use strict';

const REFRESH_MILLIS = 2000;
let selectedTube = null;
let token = sessionStorage.getItem('beanstalkd-token') || '';

const $ = (selector) => document.querySelector(selector);

function setStatus(text, kind) {
  const status = $('#status');
  status.textContent = text;
  status.className = kind || '';
}

async function api(method, path, body) {
  const headers = {};
  if (token) headers.Authorization = 'Bearer ' + token;
  const init = { method, headers };
  if (method === 'POST') {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body || {});
  }
  const response = await fetch('/api/' + path, init);
  const json = await response.json().catch(() => ({}));
  if (response.status === 401) {
    $('#token-label').hidden = false;
    throw new Error('This server needs its API token: enter it above.');
  }
  if (!response.ok) throw new Error((json.error || response.status) + ': ' + (json.message || ''));
  return json;
}

function tubePath(name) {
  return 'tubes/' + encodeURIComponent(name);
}

function cell(row, text) {
  const td = document.createElement('td');
  td.textContent = text;
  row.appendChild(td);
  return td;
}

function age(seconds) {
  if (seconds < 60) return seconds.toFixed(seconds < 10 ? 1 : 0) + ' s';
  if (seconds < 3600) return (seconds / 60).toFixed(1) + ' min';
  return (seconds / 3600).toFixed(1) + ' h';
}

function renderTubes(data) {
  const body = $('#tubes tbody');
  body.replaceChildren();
  for (const t of data.tubes) {
    const row = document.createElement('tr');
    row.dataset.tube = t.name;
    if (t.name === selectedTube) row.className = 'selected';
    const name = document.createElement('button');
    name.type = 'button';
    name.className = 'link';
    name.textContent = t.name;
    name.setAttribute('aria-label', 'Open tube ' + t.name);
    name.addEventListener('click', () => selectTube(t.name));
    const first = document.createElement('th');
    first.scope = 'row';
    first.appendChild(name);
    row.appendChild(first);
    cell(row, t.ready).dataset.count = 'ready';
    cell(row, t.urgent).dataset.count = 'urgent';
    cell(row, t.reserved).dataset.count = 'reserved';
    cell(row, t.delayed).dataset.count = 'delayed';
    cell(row, t.buried).dataset.count = 'buried';
    cell(row, t.waiting).dataset.count = 'waiting';
    cell(row, t.ready > 0 ? age(t.oldestReadyAgeSeconds) : '–');
    cell(row, t.paused ? t.pauseTimeLeft + ' s left' : 'no');
    body.appendChild(row);
  }
  if (data.draining) {
    setStatus('Draining: puts are refused. Undrain to accept them again.', 'draining');
  } else {
    setStatus(data.tubes.length + ' tube(s), ' + data.currentConnections + ' connection(s), up ' + data.uptime + ' s');
  }
  if (selectedTube !== null && !data.tubes.some((t) => t.name === selectedTube)) {
    selectedTube = null;
    $('#tube-panel').hidden = true;
  }
}

function renderStats(data) {
  const body = $('#stats tbody');
  body.replaceChildren();
  for (const [key, value] of Object.entries(data.stats)) {
    const row = document.createElement('tr');
    cell(row, key);
    cell(row, String(value));
    body.appendChild(row);
  }
}

function fact(list, term, value) {
  const dt = document.createElement('dt');
  dt.textContent = term;
  const dd = document.createElement('dd');
  dd.textContent = value;
  list.append(dt, dd);
}

function jobButton(label, action) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.addEventListener('click', action);
  return b;
}

async function renderPeek(article) {
  const state = article.dataset.state;
  const target = article.querySelector('.job');
  const data = await api('GET', tubePath(selectedTube) + '/peek/' + state);
  target.replaceChildren();
  const job = data.job;
  if (!job) {
    target.textContent = 'No ' + state + ' job.';
    return;
  }
  const facts = document.createElement('dl');
  fact(facts, 'id', job.id);
  fact(facts, 'priority', job.pri);
  fact(facts, 'age', job.age + ' s');
  if (state === 'delayed') fact(facts, 'ready in', job['time-left'] + ' s');
  fact(facts, 'reserves / timeouts', job.reserves + ' / ' + job.timeouts);
  fact(facts, 'body', job.bodyBytes + ' bytes' + (job.bodyEncoding === 'hex' ? ', binary (hex)' : '')
      + (job.bodyTruncated ? ', start shown' : ''));
  const pre = document.createElement('pre');
  pre.textContent = job.body;
  const buttons = document.createElement('div');
  buttons.className = 'actions';
  if (state !== 'ready') {
    buttons.appendChild(jobButton('Kick job ' + job.id, () => act('POST', 'jobs/' + job.id + '/kick')));
  }
  buttons.appendChild(jobButton('Delete job ' + job.id, () => {
    if (confirm('Delete job ' + job.id + '?')) act('POST', 'jobs/' + job.id + '/delete');
  }));
  target.append(facts, pre, buttons);
}

async function refresh() {
  try {
    const [tubes, stats] = await Promise.all([api('GET', 'tubes'), api('GET', 'stats')]);
    renderTubes(tubes);
    renderStats(stats);
    if (selectedTube !== null) {
      await Promise.all([...document.querySelectorAll('.peek')].map(renderPeek));
    }
  } catch (e) {
    setStatus(e.message, 'error');
  }
}

async function act(method, path, body) {
  try {
    await api(method, path, body);
  } catch (e) {
    setStatus(e.message, 'error');
    return;
  }
  await refresh();
}

function selectTube(name) {
  selectedTube = name;
  $('#tube-heading').textContent = 'Tube ' + name;
  $('#tube-panel').hidden = false;
  refresh().then(() => $('#tube-heading').scrollIntoView({ block: 'nearest' }));
}

function positive(selector) {
  const n = Number($(selector).value);
  return Number.isInteger(n) && n >= 0 ? n : null;
}

document.addEventListener('DOMContentLoaded', () => {
  $('#token').value = token;
  $('#token').addEventListener('change', (e) => {
    token = e.target.value;
    sessionStorage.setItem('beanstalkd-token', token);
    refresh();
  });
  $('#drain').addEventListener('click', () => act('POST', 'drain'));
  $('#undrain').addEventListener('click', () => act('POST', 'undrain'));
  $('#kick').addEventListener('click', () => {
    const bound = positive('#kick-bound');
    if (bound) act('POST', tubePath(selectedTube) + '/kick', { bound });
  });
  $('#pause').addEventListener('click', () => {
    const seconds = positive('#pause-seconds');
    if (seconds !== null) act('POST', tubePath(selectedTube) + '/pause', { seconds });
  });
  $('#unpause').addEventListener('click', () => act('POST', tubePath(selectedTube) + '/pause', { seconds: 0 }));
  refresh();
  setInterval(refresh, REFRESH_MILLIS);
});
