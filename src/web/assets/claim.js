/*
 * The claim offer of the web dossier (#claim), live: shows the DID's current claims, asks for a
 * challenge by the method chosen, says what to sign or publish, submits the proof and shows
 * what the check found. Routes come from the offer's data attributes (all on this origin).
 *
 * Runs under `script-src 'self'` and `connect-src 'self'`: no inline markup, no style
 * attributes. Text from the service is only ever assigned to textContent. Without JavaScript
 * the controls stay hidden and the offer's CLI and API instructions are all there is.
 */
(function () {
  'use strict';

  var offer = document.getElementById('claim');
  if (!offer) return;
  var did = offer.getAttribute('data-did');
  var claimsUrl = offer.getAttribute('data-claims-url');
  var challengesUrl = offer.getAttribute('data-challenges-url');
  var verifyUrl = offer.getAttribute('data-verify-url');
  var needsScript = document.getElementById('claim-needs-script');
  var current = document.getElementById('claim-current');
  var currentStatus = document.getElementById('claim-current-status');
  var currentList = document.getElementById('claim-current-list');
  var form = document.getElementById('claim-form');
  var getButton = document.getElementById('claim-get');
  var listBox = document.getElementById('claim-purpose-list');
  var panel = document.getElementById('claim-challenge');
  var panelTitle = document.getElementById('claim-challenge-title');
  var steps = document.getElementById('claim-steps');
  var jwsField = document.getElementById('claim-jws-field');
  var jwsInput = document.getElementById('claim-jws');
  var verifyButton = document.getElementById('claim-verify');
  var result = document.getElementById('claim-result');
  if (!did || !claimsUrl || !challengesUrl || !verifyUrl || !current || !currentStatus || !currentList || !form || !getButton) return;
  if (!listBox || !panel || !panelTitle || !steps || !jwsField || !jwsInput || !verifyButton || !result) return;

  /** Refusals about the challenge itself: the same token can never succeed after them. */
  var CHALLENGE_SPENT = { CHALLENGE_UNKNOWN: 1, CHALLENGE_EXPIRED: 1, CHALLENGE_USED: 1, CHALLENGE_EXHAUSTED: 1 };

  var challenge = null; // the challenge being proved
  var attemptsLeft = 0;

  function str(value) {
    return typeof value === 'string' ? value : value == null ? '' : String(value);
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = text;
    return node;
  }

  /** A `dl.fields` of [label, value, term?] rows; values shown as code when `code` is set. */
  function fields(rows, code) {
    var dl = el('dl', 'fields');
    rows.forEach(function (row) {
      var div = el('div', 'field');
      var dd = el('dd');
      if (row[2]) dd.setAttribute('data-term', row[2]);
      if (row[1] instanceof Node) dd.append(row[1]);
      else if (code) dd.append(el('code', null, str(row[1])));
      else dd.textContent = str(row[1]);
      div.append(el('dt', null, row[0]), dd);
      dl.append(div);
    });
    return dl;
  }

  function list(items, className) {
    var ul = el('ul', className);
    (Array.isArray(items) ? items : []).forEach(function (item) {
      ul.append(el('li', null, str(item)));
    });
    return ul;
  }

  /**
   * A JSON request to this service: {ok, status, data}; data null when the body is not JSON.
   * A failed connection resolves too (status 0), so every caller shows one message for it.
   */
  function request(url, body) {
    var init = { headers: { accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store' };
    if (body !== undefined) {
      init.method = 'POST';
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    return fetch(url, init).then(
      function (answer) {
        return answer.text().then(function (text) {
          var data = null;
          try {
            data = text ? JSON.parse(text) : null;
          } catch (_) {
            data = null;
          }
          return { ok: answer.ok, status: answer.status, data: data && typeof data === 'object' ? data : null, retryAfter: answer.headers.get('retry-after') };
        });
      },
      function () {
        return { ok: false, status: 0, data: null, retryAfter: null };
      },
    );
  }

  /** A problem answer (or no answer) as paragraphs: code, title, detail. */
  function problemNodes(answer) {
    if (answer.status === 0) return [el('p', 'claim-outcome', 'The service could not be reached; try again.')];
    var problem = answer.data || {};
    var head = el('p', 'claim-outcome');
    head.setAttribute('data-status', 'PROBLEM');
    head.append(
      el('strong', 'problem-code', str(problem.code) || 'HTTP ' + answer.status),
      ' ',
      el('span', 'problem-title', str(problem.title) || 'The service gave no answer.'),
    );
    var nodes = [head];
    if (problem.detail) nodes.push(el('p', 'problem-detail', str(problem.detail)));
    if (answer.retryAfter) nodes.push(el('p', 'note', 'Try again in ' + answer.retryAfter + ' s.'));
    return nodes;
  }

  function show(nodes) {
    result.replaceChildren.apply(result, nodes);
  }

  /* ---------------------------------------------------------------- current claims */

  function claimItem(claim) {
    var li = el('li', 'claim');
    li.setAttribute('data-method', str(claim.method));
    var head = el('p', 'claim-head');
    head.append(el('strong', null, str(claim.method)), ' ', el('code', 'claim-subject', str(claim.subject)));
    var rows = [
      ['Proves', el('span', 'proves', str(claim.proves))],
      ['Does not prove', list(claim.doesNotProve, 'does-not-prove')],
      ['Verified', str(claim.verifiedAt)],
      ['Holds until', str(claim.expiresAt)],
    ];
    if (claim.nextCheckAt) rows.push(['Next re-check', str(claim.nextCheckAt)]);
    li.append(head, fields(rows));
    return li;
  }

  function showClaims(answer) {
    if (!answer.ok || !answer.data || !Array.isArray(answer.data.claims)) {
      currentStatus.textContent = 'The claims could not be loaded.';
      currentList.replaceChildren.apply(currentList, answer.ok ? [] : problemNodes(answer));
      return;
    }
    var data = answer.data;
    var n = data.claims.length;
    current.setAttribute('data-count', String(n));
    current.setAttribute('data-listed', data.listed ? 'true' : 'false');
    currentStatus.textContent =
      n === 0
        ? 'No claim yet.'
        : n + (n === 1 ? ' current claim' : ' current claims') + '; ' + (data.listed ? 'listed in the directory.' : 'not listed in the directory.');
    var nodes = [];
    if (n > 0) {
      var ul = el('ul', 'claims');
      data.claims.forEach(function (claim) {
        if (claim && typeof claim === 'object') ul.append(claimItem(claim));
      });
      nodes.push(ul);
    }
    if (Array.isArray(data.lapsed) && data.lapsed.length > 0) {
      nodes.push(el('h4', null, 'Lapsed'));
      var lapsed = el('ul', 'lapsed');
      data.lapsed.forEach(function (l) {
        if (!l || typeof l !== 'object') return;
        lapsed.append(el('li', null, str(l.method) + ' ' + str(l.subject) + ', lapsed ' + str(l.lapsedAt) + ': ' + str(l.reason)));
      });
      nodes.push(lapsed);
    }
    currentList.replaceChildren.apply(currentList, nodes);
  }

  function loadClaims() {
    current.setAttribute('aria-busy', 'true');
    return request(claimsUrl).then(function (answer) {
      showClaims(answer);
      current.removeAttribute('aria-busy');
    });
  }

  /* ---------------------------------------------------------------- challenge */

  function chosenMethod() {
    var checked = form.querySelector('input[name="method"]:checked');
    return checked ? checked.value : 'signature';
  }

  function showChallenge(terms) {
    var nodes = [];
    var method = str(terms.method);
    if (method === 'dns' && terms.dns) {
      nodes.push(
        el('p', null, 'Publish this DNS record, then press Verify. Other TXT records at the name may stay; DNS changes can take a while to reach resolvers.'),
      );
      nodes.push(
        fields(
          [
            ['Name', terms.dns.name, 'name'],
            ['Type', terms.dns.type, 'type'],
            ['Value', terms.dns.value, 'value'],
          ],
          true,
        ),
      );
    } else if (method === 'well-known' && terms.wellKnown) {
      nodes.push(el('p', null, 'Add this line to the file at this URL (served over HTTPS with status 200), then press Verify. Other lines may stay.'));
      nodes.push(
        fields(
          [
            ['URL', terms.wellKnown.url, 'url'],
            ['Line', terms.wellKnown.content, 'line'],
          ],
          true,
        ),
      );
    } else if (terms.signature) {
      nodes.push(
        el(
          'p',
          null,
          'Sign this payload, exactly as given, as a compact JWS whose header "kid" names a key of this identifier listed under authentication; paste the JWS below and press Verify.',
        ),
      );
      nodes.push(fields([['Payload', terms.signature.payload, 'payload']], true));
      var hint = el('p', 'note');
      // did:key and did:jwk name their one key themselves; any other DID needs the key's id.
      var kid = /^did:(?:key|jwk):/.test(did) ? '' : ' --kid ' + did + '#<key>';
      hint.append(
        'Or let svc do all of it from a terminal: ',
        el('code', null, 'svc claim ' + did + ' --key <file>' + kid),
        ' asks for its own challenge, signs it with the private key in the file and submits it.',
      );
      nodes.push(hint);
    }
    var attempts = Number(terms.attemptsAllowed) || 0;
    nodes.push(
      el(
        'p',
        'claim-expiry',
        'The challenge holds until ' +
          str(terms.expiresAt) +
          ' and allows ' +
          attempts +
          (attempts === 1 ? ' verification attempt.' : ' verification attempts.'),
      ),
    );
    if (method !== 'signature') {
      var later = el('p', 'note');
      later.append('To verify later from a terminal: ', el('code', null, 'svc claim ' + did + ' --token ' + str(terms.token)));
      nodes.push(later);
    }
    if (terms.instructions) {
      var details = el('details', 'claim-instructions');
      details.append(el('summary', null, 'The service’s full instructions'), el('p', null, str(terms.instructions)));
      nodes.push(details);
    }
    steps.replaceChildren.apply(steps, nodes);
    panel.setAttribute('data-method', method);
    panel.setAttribute('data-token', str(terms.token));
    jwsField.hidden = method !== 'signature';
    jwsInput.value = '';
    verifyButton.hidden = false;
    verifyButton.disabled = false;
    panel.hidden = false;
    panelTitle.focus();
  }

  function getChallenge(event) {
    event.preventDefault();
    getButton.disabled = true;
    show([]);
    var body = { did: did, method: chosenMethod(), purpose: listBox.checked ? 'list' : 'claim' };
    request(challengesUrl, body).then(function (answer) {
      getButton.disabled = false;
      if (answer.status === 201 && answer.data && answer.data.token) {
        challenge = answer.data;
        attemptsLeft = Number(challenge.attemptsAllowed) || 0;
        showChallenge(challenge);
        show([el('p', null, 'Challenge ready: ' + str(challenge.method) + ', until ' + str(challenge.expiresAt) + '.')]);
      } else {
        challenge = null;
        panel.hidden = true;
        show(problemNodes(answer));
      }
    });
  }

  /* ---------------------------------------------------------------- verify */

  function verified(outcome) {
    var head = el('p', 'claim-outcome');
    head.setAttribute('data-status', 'VERIFIED');
    head.append(el('strong', 'claim-status', 'VERIFIED'), ' ', 'Control of this identifier is shown (' + str(outcome.method) + ').');
    var nodes = [head];
    var claim = outcome.claim && typeof outcome.claim === 'object' ? outcome.claim : null;
    var rows = [];
    if (claim) {
      rows.push(['Proves', el('span', 'proves', str(claim.proves))]);
      rows.push(['Does not prove', list(claim.doesNotProve, 'does-not-prove')]);
      rows.push(['Holds until', str(claim.expiresAt)]);
    }
    var listed = el('span', 'claim-listed', outcome.listed ? 'yes' : 'no');
    listed.setAttribute('data-listed', outcome.listed ? 'true' : 'false');
    rows.push(['Listed in the directory', listed]);
    nodes.push(fields(rows));
    return nodes;
  }

  function refused(outcome) {
    var refusal = outcome.refusal && typeof outcome.refusal === 'object' ? outcome.refusal : {};
    var code = str(refusal.code);
    var head = el('p', 'claim-outcome');
    head.setAttribute('data-status', 'REFUSED');
    head.append(el('strong', 'claim-status', 'REFUSED'), ' ', el('code', 'refusal-code', code), ': ', el('span', 'refusal-reason', str(refusal.reason)));
    var spent = Object.hasOwn(CHALLENGE_SPENT, code) || attemptsLeft <= 0;
    var next = spent
      ? 'This challenge cannot prove control any more; get a new challenge.'
      : 'Fix what the reason names and press Verify again: ' + attemptsLeft + (attemptsLeft === 1 ? ' attempt is left.' : ' attempts are left.');
    return { nodes: [head, el('p', 'claim-next', next)], spent: spent };
  }

  function verify() {
    if (!challenge) return;
    var body = { did: did, token: str(challenge.token) };
    if (challenge.method === 'signature') {
      // A compact JWS has no whitespace: what a paste adds (line breaks) is not part of it.
      var jws = jwsInput.value.replace(/\s+/g, '');
      if (jws === '') {
        show([el('p', 'claim-outcome', 'Paste the compact JWS over the payload first.')]);
        jwsInput.focus();
        return;
      }
      body.jws = jws;
    }
    var asked = challenge;
    verifyButton.disabled = true;
    result.setAttribute('aria-busy', 'true');
    request(verifyUrl, body).then(function (answer) {
      result.removeAttribute('aria-busy');
      // A new challenge was asked for meanwhile: this answer is about one no longer shown.
      if (challenge !== asked) return;
      verifyButton.disabled = false;
      var outcome = answer.data;
      if (!answer.ok || !outcome || (outcome.status !== 'VERIFIED' && outcome.status !== 'REFUSED')) {
        show(problemNodes(answer));
        return;
      }
      attemptsLeft--;
      if (outcome.status === 'VERIFIED') {
        // A challenge proves once: its Verify button goes, and focus moves to what was found.
        challenge = null;
        verifyButton.hidden = true;
        show(verified(outcome));
        result.focus();
        loadClaims();
        return;
      }
      var said = refused(outcome);
      show(said.nodes);
      if (said.spent) {
        challenge = null;
        verifyButton.hidden = true;
        result.focus();
      }
    });
  }

  form.addEventListener('submit', getChallenge);
  verifyButton.addEventListener('click', verify);
  if (needsScript) needsScript.hidden = true;
  current.hidden = false;
  form.hidden = false;
  loadClaims();
})();
