/*
 * docsnap search dialog. Needs search-core.js first. Opens from any .ds-search-trigger button,
 * Ctrl/Cmd+K, or "/" outside a text field; loads the index only on first use, one <script> per
 * file (the only way to read local data from file://), from paths relative to <html data-root>.
 */
(() => {
  const doc = document;
  // The page's interface text when it is not in English (<script type="application/json" id="ds-text">).
  const TEXT = (() => {
    try {
      return JSON.parse(document.getElementById('ds-text')?.textContent || '{}');
    } catch {
      return {};
    }
  })();
  const text = (key, english) => (typeof TEXT[key] === 'string' ? TEXT[key] : english);

  const PREFIX = 'ds-search';
  const LIMIT = 20;
  const DEBOUNCE_MS = 60;

  let dialog;
  let input;
  let list;
  let status;
  let searcher;
  let returnFocus = null;
  let active = -1;
  let options = [];
  let sequence = 0;
  let timer = 0;

  // Set by the layout on <html>, where content cannot write; only its shape ("./", "../../") is taken.
  function siteRoot() {
    const root = doc.documentElement.getAttribute('data-root');
    return /^(?:\.\/|(?:\.\.\/)+)$/.test(root) ? root : '';
  }

  function loadScript(path) {
    return new Promise((resolve, reject) => {
      const script = doc.createElement('script');
      script.src = siteRoot() + path;
      script.async = true;
      script.onload = () => {
        script.remove();
        resolve();
      };
      script.onerror = () => {
        script.remove();
        reject(new Error(`could not load ${path}`));
      };
      doc.head.appendChild(script);
    });
  }

  function getSearcher() {
    if (!searcher) {
      const core = globalThis.DocsnapSearch;
      if (!core?.createSearcher) throw new Error('search-core.js is not loaded');
      searcher = core.createSearcher({
        load: loadScript,
        scope: doc.documentElement.dataset.searchScope || '',
      });
    }
    return searcher;
  }

  function el(tag, className, attrs) {
    const node = doc.createElement(tag);
    if (className) node.className = className;
    if (attrs) for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    return node;
  }

  function appendParts(parent, parts) {
    for (const part of parts) {
      if (part.hit) {
        const mark = el('mark', `${PREFIX}-hit`);
        mark.textContent = part.text;
        parent.appendChild(mark);
      } else {
        parent.appendChild(doc.createTextNode(part.text));
      }
    }
  }

  function build() {
    dialog = el('dialog', `${PREFIX}-dialog`, {
      'aria-label': text('searchDocumentation', 'Search documentation'),
    });
    const panel = el('div', `${PREFIX}-panel`);
    const box = el('div', `${PREFIX}-box`);
    const label = el('label', `${PREFIX}-label`, { for: `${PREFIX}-input` });
    label.innerHTML =
      '<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false"><circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" stroke-width="2"/><path d="m20 20-3.5-3.5" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>';
    const labelText = el('span', `${PREFIX}-visually-hidden`);
    labelText.textContent = text('searchDocumentation', 'Search documentation');
    label.appendChild(labelText);
    input = el('input', `${PREFIX}-input`, {
      id: `${PREFIX}-input`,
      type: 'text',
      inputmode: 'search',
      enterkeyhint: 'go',
      role: 'combobox',
      'aria-autocomplete': 'list',
      'aria-expanded': 'false',
      'aria-controls': `${PREFIX}-results`,
      autocomplete: 'off',
      autocapitalize: 'off',
      spellcheck: 'false',
      placeholder: text('searchDocumentation', 'Search documentation'),
    });
    const close = el('button', `${PREFIX}-close`, {
      type: 'button',
      'aria-label': text('closeSearch', 'Close search'),
    });
    close.textContent = 'Esc';
    box.append(label, input, close);
    status = el('p', `${PREFIX}-status`, { role: 'status', 'aria-live': 'polite' });
    list = el('ul', `${PREFIX}-results`, {
      id: `${PREFIX}-results`,
      role: 'listbox',
      'aria-label': text('searchResults', 'Search results'),
    });
    const footer = el('p', `${PREFIX}-footer`, { 'aria-hidden': 'true' });
    footer.innerHTML = '<kbd>↑</kbd><kbd>↓</kbd> to select <kbd>Enter</kbd> to open <kbd>Esc</kbd> to close';
    panel.append(box, status, list, footer);
    dialog.appendChild(panel);
    doc.body.appendChild(dialog);

    close.addEventListener('click', closeDialog);
    input.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(run, DEBOUNCE_MS);
    });
    input.addEventListener('keydown', onInputKey);
    dialog.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        closeDialog();
      }
    });
    // The dialog has no padding, so a click on the dialog element itself is a click on the backdrop.
    dialog.addEventListener('click', (event) => {
      if (event.target === dialog) closeDialog();
    });
    dialog.addEventListener('close', onClosed);
    list.addEventListener('click', (event) => {
      const link = event.target.closest('a');
      if (link && !event.ctrlKey && !event.metaKey && !event.shiftKey && event.button === 0) closeDialog();
    });
    list.addEventListener('mousemove', (event) => {
      const option = event.target.closest('[role="option"]');
      const index = options.indexOf(option);
      if (index >= 0 && index !== active) select(index, false);
    });
  }

  function setTriggersExpanded(value) {
    for (const trigger of doc.querySelectorAll(`.${PREFIX}-trigger`))
      trigger.setAttribute('aria-expanded', value);
  }

  function openDialog() {
    if (!dialog) build();
    if (dialog.open) {
      input.focus();
      input.select();
      return;
    }
    returnFocus = doc.activeElement;
    dialog.showModal();
    setTriggersExpanded('true');
    input.focus();
    input.select();
    // Start loading the index now so the first keystroke finds it ready.
    try {
      getSearcher()
        .meta()
        .catch((error) => showError(error));
    } catch (error) {
      showError(error);
    }
    if (input.value) run();
  }

  function closeDialog() {
    if (dialog?.open) dialog.close();
  }

  function onClosed() {
    setTriggersExpanded('false');
    const target = returnFocus;
    returnFocus = null;
    if (target && typeof target.focus === 'function' && target.isConnected) target.focus();
  }

  function showError(error) {
    status.textContent = `Search is unavailable: ${error?.message || error}`;
    status.classList.add(`${PREFIX}-error`);
  }

  function select(index, scroll) {
    if (active >= 0 && options[active]) options[active].setAttribute('aria-selected', 'false');
    active = index;
    const option = options[active];
    if (option) {
      option.setAttribute('aria-selected', 'true');
      input.setAttribute('aria-activedescendant', option.id);
      if (scroll) option.scrollIntoView({ block: 'nearest' });
    } else {
      input.removeAttribute('aria-activedescendant');
    }
  }

  function onInputKey(event) {
    if (event.isComposing) return;
    const count = options.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!count) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      select(active < 0 ? (step > 0 ? 0 : count - 1) : (active + step + count) % count, true);
    } else if (event.key === 'Enter') {
      const option = options[active >= 0 ? active : 0];
      if (!option) return;
      event.preventDefault();
      const href = option.querySelector('a').href;
      closeDialog();
      window.location.href = href;
    }
  }

  function render(response) {
    list.textContent = '';
    options = [];
    active = -1;
    input.removeAttribute('aria-activedescendant');
    const root = siteRoot();
    response.results.forEach((result, i) => {
      const option = el('li', `${PREFIX}-result`, {
        id: `${PREFIX}-option-${i}`,
        role: 'option',
        'aria-selected': 'false',
      });
      const link = el('a', `${PREFIX}-link`, { href: root + result.url, tabindex: '-1' });
      const title = el('span', `${PREFIX}-title`);
      appendParts(title, result.titleParts);
      link.appendChild(title);
      if (result.heading) {
        const heading = el('span', `${PREFIX}-heading`);
        appendParts(heading, result.headingParts);
        link.appendChild(heading);
      }
      if (result.section) {
        const section = el('span', `${PREFIX}-section`);
        section.textContent = result.section;
        link.appendChild(section);
      }
      if (result.snippet.length) {
        const snippet = el('span', `${PREFIX}-snippet`);
        appendParts(snippet, result.snippet);
        link.appendChild(snippet);
      }
      option.appendChild(link);
      list.appendChild(option);
      options.push(option);
    });
    input.setAttribute('aria-expanded', options.length ? 'true' : 'false');
    const shown = response.results.length;
    status.textContent = !response.total
      ? response.narrowed
        ? text('keepTyping', 'Keep typing…')
        : `${text('noResultsFor', 'No results for')} “${response.query.trim()}”`
      : TEXT.results
        ? `${response.total} ${TEXT.results}`
        : response.total > shown
          ? `${response.total} results, showing the best ${shown}`
          : `${shown} result${shown === 1 ? '' : 's'}`;
    if (shown) select(0, false);
  }

  async function run() {
    const query = input.value;
    const id = ++sequence;
    status.classList.remove(`${PREFIX}-error`);
    if (!query.trim()) {
      list.textContent = '';
      options = [];
      active = -1;
      input.setAttribute('aria-expanded', 'false');
      input.removeAttribute('aria-activedescendant');
      status.textContent = '';
      return;
    }
    const slow = setTimeout(() => {
      if (id === sequence) status.textContent = text('loading', 'Loading…');
    }, 150);
    try {
      const response = await getSearcher().search(query, { limit: LIMIT });
      if (id === sequence) render(response);
    } catch (error) {
      if (id === sequence) showError(error);
    } finally {
      clearTimeout(slow);
    }
  }

  function isTyping(target) {
    if (!(target instanceof Element)) return false;
    return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
  }

  doc.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.isComposing) return;
    const key = event.key.toLowerCase();
    if (key === 'k' && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey) {
      event.preventDefault();
      openDialog();
    } else if (
      event.key === '/' &&
      !event.ctrlKey &&
      !event.metaKey &&
      !event.altKey &&
      !dialog?.open &&
      !isTyping(event.target)
    ) {
      event.preventDefault();
      openDialog();
    }
  });

  doc.addEventListener('click', (event) => {
    const trigger = event.target instanceof Element && event.target.closest(`.${PREFIX}-trigger`);
    if (trigger) {
      event.preventDefault();
      openDialog();
    }
  });
})();
