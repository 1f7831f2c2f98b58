/*
 * Level 3 of the web dossier, live: runs the resolution again over the event stream
 * (data-stream-url of #level-3) and draws its stages as they complete, on one time axis.
 * Frames: `stage`*, then `result` or `error` (a problem), then `done`.
 *
 * Runs under `script-src 'self'` and `style-src 'self'`: no inline markup, no style attributes
 * (bars are placed with CSS custom properties set through the CSSOM). Text from the stream is
 * only ever assigned to textContent. Without JavaScript the button stays hidden and the
 * server-rendered trace is all there is.
 */
(function () {
  'use strict';

  var section = document.getElementById('level-3');
  if (!section) return;
  var button = document.getElementById('run-live');
  var status = document.getElementById('live-status');
  var list = document.getElementById('live-stages');
  var errorBox = document.getElementById('live-error');
  var url = section.getAttribute('data-stream-url');
  if (!button || !status || !list || !errorBox || !url) return;

  var source = null;
  var settled = false; // a result or a problem arrived

  function num(value) {
    return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
  }

  function str(value) {
    return typeof value === 'string' ? value : value == null ? '' : String(value);
  }

  /** Microseconds as milliseconds: one decimal below 10 ms, whole above. */
  function ms(us) {
    var value = num(us) / 1000;
    return (value < 10 ? value.toFixed(1) : String(Math.round(value))) + ' ms';
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = text;
    return node;
  }

  function row(stage) {
    var start = num(stage.startedUs);
    var duration = num(stage.durationUs);
    var times = '+' + ms(start) + ', ' + ms(duration);
    var li = el('li', 'stage');
    li.setAttribute('data-stage', str(stage.stage));
    li.setAttribute('data-status', str(stage.status));
    li.setAttribute('data-started-us', String(start));
    li.setAttribute('data-duration-us', String(duration));
    var bar = el('span', 'bar');
    bar.setAttribute('role', 'img');
    bar.setAttribute('aria-label', 'Starts at +' + ms(start) + ', lasts ' + ms(duration));
    li.append(
      el('span', 'stage-status', str(stage.status)),
      ' ',
      el('code', 'stage-name', str(stage.stage)),
      ' ',
      el('span', 'stage-label', str(stage.label)),
      ' ',
      el('span', 'stage-time', times),
      ' ',
      el('span', 'stage-detail', str(stage.detail)),
      bar,
    );
    return li;
  }

  function rows() {
    return list.querySelectorAll('li.stage');
  }

  /** Places every bar on one axis: the latest end seen so far. */
  function layout() {
    var all = rows();
    var axis = 0;
    all.forEach(function (li) {
      axis = Math.max(axis, num(+li.getAttribute('data-started-us')) + num(+li.getAttribute('data-duration-us')));
    });
    all.forEach(function (li) {
      var bar = li.querySelector('.bar');
      if (!bar || !li.hasAttribute('data-started-us')) return;
      var start = num(+li.getAttribute('data-started-us'));
      var duration = num(+li.getAttribute('data-duration-us'));
      bar.style.setProperty('--start', (axis ? (start / axis) * 100 : 0).toFixed(3) + '%');
      bar.style.setProperty('--width', (axis ? (duration / axis) * 100 : 0).toFixed(3) + '%');
    });
    list.setAttribute('data-count', String(all.length));
  }

  /** Makes the rows equal `trace` in count and order, keeping the rows already right. */
  function reconcile(trace) {
    var all = rows();
    var keep = 0;
    while (keep < all.length && keep < trace.length && all[keep].getAttribute('data-stage') === str(trace[keep].stage)) {
      var fresh = row(trace[keep]);
      if (all[keep].getAttribute('data-status') !== fresh.getAttribute('data-status')) all[keep].replaceWith(fresh);
      keep++;
    }
    for (var i = keep; i < all.length; i++) all[i].remove();
    for (var j = keep; j < trace.length; j++) list.append(row(trace[j]));
    layout();
  }

  function parse(event) {
    try {
      return JSON.parse(event.data);
    } catch (_) {
      return null;
    }
  }

  function finish() {
    if (source) source.close();
    source = null;
    button.disabled = false;
    list.removeAttribute('aria-busy');
    list.setAttribute('data-state', 'done');
  }

  function fail(message) {
    errorBox.replaceChildren(el('p', null, message));
    errorBox.hidden = false;
    status.textContent = 'Failed: the live stream was interrupted.';
  }

  function onStage(event) {
    var stage = parse(event);
    if (!stage || typeof stage !== 'object') return;
    list.append(row(stage));
    layout();
  }

  function onResult(event) {
    var result = parse(event);
    if (!result || typeof result !== 'object') return;
    settled = true;
    var trace = Array.isArray(result.trace) ? result.trace : [];
    reconcile(trace);
    var total = 0;
    trace.forEach(function (s) {
      total = Math.max(total, num(s.startedUs) + num(s.durationUs));
    });
    var verdict = result.verdict || {};
    status.textContent =
      'Done: ' +
      str(verdict.outcome) +
      ' \u2014 ' +
      str(verdict.headline) +
      ' (' +
      trace.length +
      (trace.length === 1 ? ' stage' : ' stages') +
      ' in ' +
      ms(total) +
      ')';
    if (typeof result.observedAt === 'string') section.setAttribute('data-observed-at', result.observedAt);
  }

  function onError(event) {
    if (event.data === undefined) {
      // Not a frame: the connection failed, or closed without a `done`.
      if (!settled) fail('The live stream could not be opened or was interrupted.');
      finish();
      return;
    }
    var problem = parse(event);
    if (!problem || typeof problem !== 'object') return;
    settled = true;
    if (Array.isArray(problem.trace)) {
      var upTo = problem.trace.findIndex(function (s) {
        return s && s.status === 'FAIL';
      });
      reconcile(upTo < 0 ? problem.trace : problem.trace.slice(0, upTo + 1));
    }
    var heading = el('p');
    heading.append(el('strong', 'problem-code', str(problem.code)), ' ', el('span', 'problem-title', str(problem.title)));
    errorBox.replaceChildren(heading, el('p', 'problem-detail', str(problem.detail)));
    errorBox.hidden = false;
    status.textContent = 'Failed: ' + str(problem.code);
  }

  function run() {
    if (source) source.close();
    settled = false;
    button.disabled = true;
    list.replaceChildren();
    list.setAttribute('data-state', 'running');
    list.setAttribute('aria-busy', 'true');
    layout();
    errorBox.replaceChildren();
    errorBox.hidden = true;
    section.removeAttribute('data-observed-at');
    status.textContent = 'Running\u2026';
    source = new EventSource(url);
    source.addEventListener('stage', onStage);
    source.addEventListener('result', onResult);
    source.addEventListener('error', onError);
    source.addEventListener('done', finish);
  }

  layout();
  button.addEventListener('click', run);
  button.hidden = false;
})();
