// The admin page: plain JS over the JSON API under /api/ (no build step).
'use strict';

const REFRESH_MILLIS = 2000;
// How long a failed action's message stays before the routine status may replace it.
const ERROR_HOLD_MILLIS = 10000;
let errorHeldUntil = 0;
let selectedTube = null;
let token = sessionStorage.getItem('beanstalkd-token') || '';

const $ = (selector) => document.querySelector(selector);

// The status is a live region: it is written only when it changes, or a screen reader would
// read it out again at every refresh.
function setStatus(text, kind) {
  const status = $('#status');
  setText(status, text);
  status.className = kind || '';
}

function reportError(message) {
  setStatus(message, 'error');
  errorHeldUntil = Date.now() + ERROR_HOLD_MILLIS;
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
    if ($('#token-label').hidden) {
      $('#token-label').hidden = false;
      $('#token').focus();
    }
    throw new Error(token ? 'The API token was refused: check it in the API token field.'
        : 'This server needs its API token: enter it in the API token field.');
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

// The tubes table's columns after the name; a count's cell carries data-count.
const COLUMNS = [
  { count: 'ready', text: (t) => t.ready },
  { count: 'urgent', text: (t) => t.urgent },
  { count: 'reserved', text: (t) => t.reserved },
  { count: 'delayed', text: (t) => t.delayed },
  { count: 'buried', text: (t) => t.buried },
  { count: 'waiting', text: (t) => t.waiting },
  { text: (t) => (t.ready > 0 ? age(t.oldestReadyAgeSeconds) : '–') },
  { text: (t) => (t.paused ? t.pauseTimeLeft + ' s left' : 'no') },
];

// Writes only a change, so a refresh leaves unchanged nodes (and the focus) alone.
function setText(element, text) {
  const value = String(text);
  if (element.textContent !== value) element.textContent = value;
}

function tubeRow(name) {
  const row = document.createElement('tr');
  row.dataset.tube = name;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'link';
  button.textContent = name;
  button.setAttribute('aria-label', 'Open tube ' + name);
  button.addEventListener('click', () => selectTube(name));
  const first = document.createElement('th');
  first.scope = 'row';
  first.appendChild(button);
  row.appendChild(first);
  for (const column of COLUMNS) {
    const td = cell(row, '');
    if (column.count) td.dataset.count = column.count;
  }
  return row;
}

// Updates the rows in place rather than rebuilding them: a rebuilt row would take the keyboard
// focus away from its button at every refresh.
function renderTubes(data) {
  const body = $('#tubes tbody');
  const old = new Map([...body.rows].map((row) => [row.dataset.tube, row]));
  data.tubes.forEach((t, i) => {
    const row = old.get(t.name) || tubeRow(t.name);
    old.delete(t.name);
    if (body.rows[i] !== row) body.insertBefore(row, body.rows[i] || null);
    const isSelected = t.name === selectedTube;
    row.classList.toggle('selected', isSelected);
    row.cells[0].firstChild.setAttribute('aria-current', String(isSelected));
    COLUMNS.forEach((column, j) => setText(row.cells[j + 1], column.text(t)));
  });
  for (const gone of old.values()) gone.remove();
  // A failed action's message stays readable for a while before the routine status replaces it.
  if (Date.now() >= errorHeldUntil) {
    if (data.draining) {
      setStatus('Draining: puts are refused. Undrain to accept them again.', 'draining');
    } else {
      // No uptime here (the stats table has it): a status that ticks would be announced every refresh.
      setStatus(data.tubes.length + ' tube(s), ' + data.currentConnections + ' connection(s)');
    }
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

// A peek at the same job as before keeps its buttons (and the focus on them); only the facts change.
async function renderPeek(article) {
  const state = article.dataset.state;
  const target = article.querySelector('.job');
  const tube = selectedTube;
  const data = await api('GET', tubePath(tube) + '/peek/' + state);
  if (tube !== selectedTube) return;
  const job = data.job;
  const shown = job ? String(job.id) : '';
  if (!job) {
    if (target.dataset.job !== shown) target.textContent = 'No ' + state + ' job.';
    target.dataset.job = shown;
    return;
  }
  const facts = document.createElement('dl');
  fact(facts, 'id', job.id);
  fact(facts, 'priority', job.pri);
  fact(facts, 'age', job.age + ' s');
  if (state === 'delayed') fact(facts, 'ready in', job['time-left'] + ' s');
  fact(facts, 'reserves / timeouts', job.reserves + ' / ' + job.timeouts);
  if (job.deadLetter) fact(facts, 'dead letter', 'buried by maxReserves of tube ' + job.deadLetter.from);
  fact(facts, 'body', job.bodyBytes + ' bytes' + (job.bodyEncoding === 'hex' ? ', binary (hex)' : '')
      + (job.bodyTruncated ? ', start shown' : ''));
  if (target.dataset.job === shown) {
    target.querySelector('dl').replaceWith(facts);
    return;
  }
  target.dataset.job = shown;
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
  target.replaceChildren(facts, pre, buttons);
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
    reportError(e.message);
    return;
  }
  errorHeldUntil = 0;
  await refresh();
  // A kicked or deleted job's buttons are gone: give the keyboard focus to the panel, not the page's top.
  if (document.activeElement === document.body && !$('#tube-panel').hidden) $('#tube-heading').focus();
}

// Deletes the selected tube's jobs in one state (or all but reserved ones) once the user confirms.
async function flushTube() {
  const select = $('#flush-state');
  const what = select.options[select.selectedIndex].text;
  if (!confirm('Delete the ' + what + ' of tube ' + selectedTube + '? This cannot be undone.')) return;
  try {
    const answer = await api('POST', tubePath(selectedTube) + '/flush?state=' + select.value, {});
    await refresh();
    // Held as an error is, so the next refresh does not cover it at once.
    setStatus('Flushed ' + answer.flushed + ' job(s) from tube ' + selectedTube + '.');
    errorHeldUntil = Date.now() + ERROR_HOLD_MILLIS;
  } catch (e) {
    reportError(e.message);
  }
}

function selectTube(name) {
  selectedTube = name;
  $('#tube-heading').textContent = 'Tube ' + name;
  $('#tube-panel').hidden = false;
  document.dispatchEvent(new CustomEvent('tube-selected', { detail: name }));
  refresh().then(() => $('#tube-heading').scrollIntoView({ block: 'nearest' }));
}

// The field's whole number of at least min; or null, after saying so (an empty field is not 0).
function wholeNumber(selector, min, what) {
  const field = $(selector);
  const text = field.value.trim();
  const n = Number(text);
  if (text !== '' && Number.isInteger(n) && n >= min) return n;
  reportError(what + ' must be a whole number, ' + min + ' or more.');
  field.focus();
  return null;
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
    const bound = wholeNumber('#kick-bound', 1, 'The number of jobs to kick');
    if (bound !== null) act('POST', tubePath(selectedTube) + '/kick', { bound });
  });
  $('#pause').addEventListener('click', () => {
    const seconds = wholeNumber('#pause-seconds', 0, 'The pause');
    if (seconds !== null) act('POST', tubePath(selectedTube) + '/pause', { seconds });
  });
  $('#unpause').addEventListener('click', () => act('POST', tubePath(selectedTube) + '/pause', { seconds: 0 }));
  $('#flush').addEventListener('click', flushTube);
  refresh();
  setInterval(refresh, REFRESH_MILLIS);
});
