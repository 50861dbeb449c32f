// The tube panel's job list: pages of the selected tube's jobs in one state, in the order the
// tube serves them, from /api/tubes/{tube}/jobs/{state}; with admin.js's api(), act() and refresh().
'use strict';

const JOB_PAGE_SIZE = 20;
// The page on show: the cursor it was asked with ({} for the first), and its neighbours' cursors.
const jobPage = { tube: null, where: {}, next: null, previous: null };

function jobQuery(where) {
  const params = new URLSearchParams({ limit: String(JOB_PAGE_SIZE) });
  const filter = $('#job-filter').value;
  if (filter !== '') params.set('filter', filter);
  if (where.after) params.set('after', where.after);
  if (where.before) params.set('before', where.before);
  return tubePath(jobPage.tube) + '/jobs/' + $('#job-state').value + '?' + params;
}

async function loadJobs(where) {
  const tube = jobPage.tube;
  if (tube === null) return;
  let data;
  try {
    data = await api('GET', jobQuery(where));
  } catch (e) {
    reportError(e.message);
    return;
  }
  if (tube !== jobPage.tube) return;
  jobPage.where = where;
  jobPage.next = data.next;
  jobPage.previous = data.previous;
  renderJobs(data);
}

function timeLeft(job) {
  return job.state === 'delayed' || job.state === 'reserved' ? job['time-left'] + ' s' : '–';
}

function renderJobs(data) {
  const body = $('#jobs tbody');
  body.replaceChildren();
  for (const job of data.jobs) {
    const row = document.createElement('tr');
    row.dataset.job = job.id;
    cell(row, job.id);
    cell(row, job.pri);
    cell(row, age(job.age));
    cell(row, timeLeft(job));
    cell(row, job.ttr + ' s');
    cell(row, job.bodyBytes + ' B');
    cell(row, [job.reserves, job.timeouts, job.releases, job.buries, job.kicks].join(' / '));
    const preview = cell(row, job.bodyEncoding === 'hex' ? 'hex: ' + job.body : job.body);
    preview.className = 'body';
    preview.title = job.deadLetter ? 'dead letter from ' + job.deadLetter.from : '';
    const actions = document.createElement('td');
    actions.className = 'job-actions';
    actions.appendChild(jobButton('Peek', () => peekJob(job.id)));
    actions.lastChild.setAttribute('aria-label', 'Peek job ' + job.id);
    if (job.state === 'buried' || job.state === 'delayed') {
      actions.appendChild(jobButton('Kick', () => jobAction(job.id, 'kick')));
      actions.lastChild.setAttribute('aria-label', 'Kick job ' + job.id);
    }
    actions.appendChild(jobButton('Delete', () => {
      if (confirm('Delete job ' + job.id + '?')) jobAction(job.id, 'delete');
    }));
    actions.lastChild.setAttribute('aria-label', 'Delete job ' + job.id);
    row.appendChild(actions);
    body.appendChild(row);
  }
  const filter = $('#job-filter').value;
  let status = data.jobs.length === 0 ? 'No ' + $('#job-state').value + ' job'
      + (filter === '' ? '' : ' whose body contains “' + filter + '”') + (jobPage.where.after ? ' further on.' : '.')
      : data.jobs.length + ' job(s) shown.';
  if (!data.complete) status += ' The search stopped here for now: Next goes on.';
  setText($('#job-list-status'), status);
  $('#jobs-previous').disabled = data.previous === null;
  $('#jobs-next').disabled = data.next === null;
}

async function peekJob(id) {
  let data;
  try {
    data = await api('GET', 'jobs/' + id);
  } catch (e) {
    reportError(e.message);
    return;
  }
  const job = data.job;
  const panel = $('#job-peek');
  panel.hidden = false;
  $('#job-peek-heading').textContent = job ? 'Job ' + job.id : 'Job ' + id + ' is gone';
  const facts = document.createElement('dl');
  if (job) {
    for (const key of ['tube', 'state', 'pri', 'age', 'delay', 'ttr', 'time-left', 'reserves', 'timeouts',
      'releases', 'buries', 'kicks']) {
      fact(facts, key, job[key]);
    }
    if (job.deadLetter) fact(facts, 'dead letter', 'buried by maxReserves of tube ' + job.deadLetter.from);
    fact(facts, 'body', job.bodyBytes + ' bytes' + (job.bodyEncoding === 'hex' ? ', binary (hex)' : '')
        + (job.bodyTruncated ? ', start shown' : ''));
  }
  panel.querySelector('dl').replaceWith(facts);
  panel.querySelector('pre').textContent = job ? job.body : '';
  $('#job-peek-heading').focus();
}

async function jobAction(id, verb) {
  await act('POST', 'jobs/' + id + '/' + verb);
  await loadJobs(jobPage.where);
  // The job's row may be gone with its buttons: the focus goes to the list's heading.
  if (document.activeElement === document.body) $('#job-list-heading').focus();
}

document.addEventListener('DOMContentLoaded', () => {
  $('#job-list-heading').tabIndex = -1;
  document.addEventListener('tube-selected', (e) => {
    jobPage.tube = e.detail;
    $('#job-peek').hidden = true;
    loadJobs({});
  });
  $('#job-list-form').addEventListener('submit', (e) => {
    e.preventDefault();
    loadJobs({});
  });
  $('#job-state').addEventListener('change', () => loadJobs({}));
  $('#jobs-next').addEventListener('click', () => loadJobs({ after: jobPage.next }));
  $('#jobs-previous').addEventListener('click', () => loadJobs({ before: jobPage.previous }));
});
