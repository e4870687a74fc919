// API reference pages (src/export/openapi): a chooser for request samples (the language is
// remembered across pages) and response examples, and the "Try it" playground. Loaded only by API
// pages; works over http and from file:// (a classic script). Nothing is sent until the reader
// presses Send; credentials stay in the page unless the reader asks to remember them for the tab.
(() => {
  const LANG_KEY = 'ds-api-lang';
  const store = (storage, key, value) => {
    try {
      if (value === undefined) return storage.getItem(key);
      if (value === null) storage.removeItem(key);
      else storage.setItem(key, value);
    } catch {}
    return null;
  };

  // ---- samples ----------------------------------------------------------------------------
  const groups = Array.from(document.querySelectorAll('.ds-api-samples'));
  function choose(group, key) {
    const samples = Array.from(group.querySelectorAll(':scope > .ds-api-sample'));
    const chosen = samples.find((s) => s.dataset.sample === key) || samples[0];
    for (const sample of samples) sample.hidden = sample !== chosen;
    const select = group.querySelector(':scope > .ds-api-sample-select');
    if (select && chosen) select.value = chosen.dataset.sample;
  }
  for (const group of groups) {
    const samples = Array.from(group.querySelectorAll(':scope > .ds-api-sample'));
    if (samples.length < 2) continue;
    const select = document.createElement('select');
    select.className = 'ds-api-sample-select';
    const request = group.dataset.samples === 'request';
    select.setAttribute('aria-label', request ? 'Language' : 'Response example');
    for (const sample of samples) select.appendChild(new Option(sample.dataset.title, sample.dataset.sample));
    group.querySelector(':scope > h3').after(select);
    select.addEventListener('change', () => {
      if (!request) return choose(group, select.value);
      store(localStorage, LANG_KEY, select.value);
      for (const other of groups) if (other.dataset.samples === 'request') choose(other, select.value);
    });
    choose(group, request ? store(localStorage, LANG_KEY) : null);
  }

  // ---- playground -------------------------------------------------------------------------
  const panel = document.querySelector('.ds-try');
  if (!panel) return;
  const form = panel.querySelector('.ds-try-form');
  const result = panel.querySelector('.ds-try-result');
  const fields = (kind) => Array.from(form.querySelectorAll(`[data-try="${kind}"]`));
  const origins = (panel.dataset.origins || '').split(' ').filter(Boolean);
  const authKey = (input) => `ds-try-auth:${input.dataset.scheme}:${input.dataset.part || ''}`;
  const remember = form.querySelector('[data-try="remember"]');

  // Credentials are remembered only when the reader ticks the box, in this tab's session storage.
  const auth = fields('auth');
  if (remember) {
    let any = false;
    for (const input of auth) {
      const saved = store(sessionStorage, authKey(input));
      if (saved) {
        input.value = saved;
        any = true;
      }
    }
    remember.checked = any;
    remember.addEventListener('change', () => {
      for (const input of auth) store(sessionStorage, authKey(input), remember.checked ? input.value : null);
    });
    for (const input of auth)
      input.addEventListener('input', () => {
        if (remember.checked) store(sessionStorage, authKey(input), input.value);
      });
  }

  const server = form.querySelector('[data-try="server"]');
  const base = form.querySelector('[data-try="base"]');
  if (server) server.addEventListener('change', () => (base.value = server.value));

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function show(parts) {
    result.replaceChildren(...parts);
    result.hidden = false;
  }

  function problem(title, text) {
    show([el('p', 'ds-try-status ds-try-failed', title), el('p', 'ds-try-explain', text)]);
  }

  // The request as the form describes it, or a message saying what is missing.
  function buildRequest() {
    let url;
    try {
      url = new URL(`${base.value.trim().replace(/\/+$/, '')}/`);
    } catch {
      return 'The base URL is not a URL.';
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The base URL must be http or https.';
    if (origins[0] !== '*' && !origins.includes(url.origin))
      return `This site may send requests only to ${origins.join(', ')}.`;
    let path = panel.dataset.path;
    const headers = new Headers();
    const query = new URLSearchParams();
    for (const input of fields('param')) {
      const value = input.value.trim();
      const { in: where, name } = input.dataset;
      if (!value) {
        if (input.required) return `${name} (${where}) is required.`;
        continue;
      }
      if (where === 'path') path = path.split(`{${name}}`).join(encodeURIComponent(value));
      else if (where === 'query') query.append(name, value);
      else if (where === 'header') headers.set(name, value);
    }
    const basic = {};
    for (const input of auth) {
      const value = input.value;
      if (!value) continue;
      if (input.dataset.part) basic[input.dataset.part] = value;
      else if (input.dataset.in === 'query') query.append(input.dataset.name, value);
      else if (input.dataset.in === 'header')
        headers.set(input.dataset.name, (input.dataset.prefix || '') + value);
    }
    if (basic.username !== undefined || basic.password !== undefined)
      headers.set('Authorization', `Basic ${btoa(`${basic.username || ''}:${basic.password || ''}`)}`);
    let body;
    const text = form.querySelector('[data-try="body"]');
    const formFields = fields('form');
    if (text?.value.trim()) {
      const type = text.dataset.contentType;
      if (/json/i.test(type)) {
        try {
          JSON.parse(text.value);
        } catch (error) {
          return `The body is not valid JSON: ${error.message}`;
        }
      }
      headers.set('Content-Type', type);
      body = text.value;
    } else if (formFields.length > 0) {
      const multipart = /multipart/i.test(formFields[0].dataset.contentType);
      body = multipart ? new FormData() : new URLSearchParams();
      for (const input of formFields) {
        if (input.type === 'file') {
          if (input.files[0]) body.append(input.dataset.name, input.files[0]);
        } else if (input.value) body.append(input.dataset.name, input.value);
      }
    }
    const target = new URL(path.replace(/^\//, ''), url);
    for (const [name, value] of query) target.searchParams.append(name, value);
    return { url: target.href, init: { method: panel.dataset.method, headers, body } };
  }

  function pretty(text, type) {
    if (!/json/i.test(type || '')) return text;
    try {
      return JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      return text;
    }
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const request = buildRequest();
    if (typeof request === 'string') return problem('Not sent', request);
    const send = form.querySelector('.ds-try-send');
    send.disabled = true;
    show([el('p', 'ds-try-status', 'Sending…')]);
    const started = performance.now();
    try {
      const response = await fetch(request.url, { ...request.init, mode: 'cors', credentials: 'omit' });
      const text = await response.text();
      const time = Math.round(performance.now() - started);
      const headerList = el('dl', 'ds-try-headers');
      for (const [name, value] of response.headers)
        headerList.append(el('dt', '', name), el('dd', '', value));
      const ok = response.status < 400;
      // A long body scrolls: focusable, so a keyboard can scroll it too.
      const body = el('pre', 'ds-try-body', pretty(text, response.headers.get('content-type')));
      body.tabIndex = 0;
      body.setAttribute('aria-label', 'Response body');
      show([
        el(
          'p',
          `ds-try-status ${ok ? 'ds-try-ok' : 'ds-try-failed'}`,
          `${response.status} ${response.statusText}`.trim(),
        ),
        el('p', 'ds-try-time', `${time} ms`),
        el('p', 'ds-try-label', 'Headers'),
        headerList,
        el('p', 'ds-try-label', 'Body'),
        body,
      ]);
    } catch {
      const origin =
        location.origin === 'null' ? 'this page (opened from a file, origin "null")' : location.origin;
      problem(
        'No response',
        `The browser could not read a response from ${new URL(request.url).origin}. Either the server is not reachable from here (down, a wrong address, a network or firewall in between), or it refused to share its answer with ${origin}: browsers let a page read a response from another site only when that site allows it with CORS headers (Access-Control-Allow-Origin naming this site, and Access-Control-Allow-Headers for the headers sent, such as Authorization). The server's operators can allow this site, or the request can be sent with one of the samples instead.`,
      );
    } finally {
      send.disabled = false;
    }
  });
})();
