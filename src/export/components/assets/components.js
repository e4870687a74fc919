/* MDX components (docsnap): progressive enhancement only; the page works without this script. */
(() => {
  // The page's interface text when it is not in English (<script type="application/json" id="ds-text">).
  const TEXT = (() => {
    try {
      return JSON.parse(document.getElementById('ds-text')?.textContent || '{}');
    } catch {
      return {};
    }
  })();
  const text = (key, english) => (typeof TEXT[key] === 'string' ? TEXT[key] : english);
  const TAB = '.ds-tablist > [role="tab"]';
  const tabsOf = (list) => Array.from(list.children).filter((node) => node.getAttribute('role') === 'tab');

  // Selects a tab of a .ds-tab-group widget; with sync, tabs of the same label elsewhere on the page follow
  // (Mintlify's synced tabs), keeping the clicked tab still on screen while content above changes height.
  function select(tab, focus, sync) {
    const list = tab.parentNode;
    for (const t of tabsOf(list)) {
      const on = t === tab;
      t.setAttribute('aria-selected', on ? 'true' : 'false');
      t.tabIndex = on ? 0 : -1;
      const panel = document.getElementById(t.getAttribute('aria-controls'));
      if (panel) panel.hidden = !on;
    }
    if (focus) tab.focus();
    const root = list.parentNode;
    if (!sync || !root.hasAttribute('data-ds-sync')) return;
    const key = tab.getAttribute('data-ds-key');
    const before = tab.getBoundingClientRect().top;
    for (const other of document.querySelectorAll('.ds-tab-group[data-ds-sync]')) {
      const otherList = other === root ? null : other.querySelector('[role="tablist"]');
      const match =
        otherList &&
        tabsOf(otherList).find(
          (t) => t.getAttribute('data-ds-key') === key && t.getAttribute('aria-selected') !== 'true',
        );
      if (match) select(match, false, false);
    }
    const shift = tab.getBoundingClientRect().top - before;
    if (shift) window.scrollBy(0, shift);
  }

  function onClick(event) {
    const tab = event.target.closest?.(TAB);
    if (tab) select(tab, false, true);
  }

  const KEYS = {
    ArrowRight: (i, n) => (i + 1) % n,
    ArrowLeft: (i, n) => (i - 1 + n) % n,
    Home: () => 0,
    End: (_i, n) => n - 1,
  };

  function onKey(event) {
    const tab = event.target.closest?.(TAB);
    const move = KEYS[event.key];
    if (!tab || !move) return;
    const tabs = tabsOf(tab.parentNode);
    event.preventDefault();
    select(tabs[move(tabs.indexOf(tab), tabs.length)], true, true);
  }

  // A link to an id inside a closed accordion or a hidden tab panel opens the way to it.
  function reveal() {
    let target;
    try {
      target =
        location.hash.length > 1 && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    } catch {
      return;
    }
    if (!target) return;
    let changed = false;
    // A link to a tab selects it.
    if (target.getAttribute('role') === 'tab' && target.getAttribute('aria-selected') !== 'true') {
      select(target, false, false);
      changed = true;
    }
    for (let node = target; node?.getAttribute; node = node.parentNode) {
      if (node.tagName === 'DETAILS' && !node.open) {
        node.open = true;
        changed = true;
      }
      if (node.getAttribute('role') === 'tabpanel' && node.hidden) {
        const tab = document.getElementById(node.getAttribute('aria-labelledby'));
        if (tab) select(tab, false, false);
        changed = true;
      }
    }
    if (changed) target.scrollIntoView();
  }

  function codeText(block) {
    const lines = block.querySelectorAll('pre .line');
    if (lines.length === 0) return (block.querySelector('pre') || block).textContent;
    return Array.from(lines, (line) => line.textContent.replace(/\n$/, '')).join('\n');
  }

  // navigator.clipboard needs a secure context; file:// pages and plain http fall back to execCommand.
  function copy(text, done) {
    const fallback = () => {
      const area = document.createElement('textarea');
      area.value = text;
      area.setAttribute('readonly', '');
      area.style.cssText = 'position:fixed;top:0;opacity:0';
      document.body.appendChild(area);
      area.select();
      let ok = false;
      try {
        ok = document.execCommand('copy');
      } catch {
        ok = false;
      }
      area.remove();
      done(ok);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(() => done(true), fallback);
    } else fallback();
  }

  function addCopyButton(block) {
    if (block.querySelector(':scope > .ds-copy')) return;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'ds-copy';
    button.textContent = text('copy', 'Copy');
    button.addEventListener('click', () =>
      copy(codeText(block), (ok) => {
        button.focus();
        button.textContent = ok ? text('copied', 'Copied') : 'Copy failed';
        button.setAttribute('data-copied', '');
        setTimeout(() => {
          button.textContent = text('copy', 'Copy');
          button.removeAttribute('data-copied');
        }, 1500);
      }),
    );
    block.appendChild(button);
  }

  // Tooltips show by CSS; Escape hides an open one until the pointer or focus leaves it (WCAG 1.4.13).
  function dismissible(tip) {
    const clear = (event) => {
      if (!tip.contains(event.relatedTarget)) tip.removeAttribute('data-dismissed');
    };
    tip.addEventListener('mouseleave', clear);
    tip.addEventListener('focusout', clear);
  }

  function onEscape(event) {
    if (event.key !== 'Escape') return;
    for (const tip of document.querySelectorAll('.ds-tooltip')) {
      if (tip.matches(':hover') || tip.contains(document.activeElement))
        tip.setAttribute('data-dismissed', '');
    }
  }

  // contextual "copy": the page's Markdown copy, fetched and copied (same origin; fails from file://).
  function copyPage(button) {
    const done = (ok) => {
      button.textContent = ok ? text('copied', 'Copied') : 'Copy failed';
      setTimeout(() => {
        button.textContent = 'Copy page';
      }, 1500);
    };
    fetch(button.dataset.src)
      .then((response) =>
        response.ok ? response.text() : Promise.reject(new Error(String(response.status))),
      )
      .then(
        (markdown) => copy(markdown, done),
        () => done(false),
      );
  }

  // <Prompt>: its copy button copies the prompt's text.
  function copyPrompt(button) {
    const body = button.closest('.ds-prompt')?.querySelector('.ds-prompt-body');
    if (!body) return;
    copy(body.innerText.trim(), (ok) => {
      button.textContent = ok ? text('copied', 'Copied') : 'Copy failed';
      setTimeout(() => {
        button.textContent = 'Copy prompt';
      }, 1500);
    });
  }

  // <View>: one switcher for the page's views; the chosen one is shown and remembered across pages.
  function initViews() {
    const views = Array.from(document.querySelectorAll('main .ds-content .ds-view'));
    if (views.length < 2) return;
    const titles = [...new Set(views.map((view) => view.dataset.view))];
    const select = document.createElement('select');
    select.className = 'ds-view-select';
    select.setAttribute('aria-label', 'View');
    for (const title of titles) select.appendChild(new Option(title, title));
    const show = (title) => {
      for (const view of views) view.hidden = view.dataset.view !== title;
      select.value = title;
    };
    let saved = null;
    try {
      saved = localStorage.getItem('ds-view');
    } catch {}
    show(titles.includes(saved) ? saved : titles[0]);
    select.addEventListener('change', () => {
      show(select.value);
      try {
        localStorage.setItem('ds-view', select.value);
      } catch {}
    });
    document.documentElement.classList.add('ds-has-views');
    views[0].before(select);
  }

  // <Variation>: a chooser for the variations docs.json lists; the choice is remembered and can
  // come from ?variation=<id>. Options are read from the blocks' data and checked for their shape.
  function initVariations() {
    const blocks = Array.from(document.querySelectorAll('main .ds-content .ds-variation'));
    if (blocks.length === 0) return;
    let options = [];
    try {
      options = JSON.parse(blocks[0].dataset.variationOptions || '[]').filter(
        (option) => option && typeof option.id === 'string' && typeof option.label === 'string',
      );
    } catch {}
    if (options.length === 0) return;
    const ids = options.map((option) => option.id);
    const select = document.createElement('select');
    select.className = 'ds-variation-select';
    select.setAttribute('aria-label', 'Variation');
    for (const option of options) select.appendChild(new Option(option.label, option.id));
    const show = (id) => {
      for (const block of blocks) block.hidden = !block.dataset.variation.split(' ').includes(id);
      select.value = id;
    };
    let chosen = new URLSearchParams(location.search).get('variation');
    if (!ids.includes(chosen)) {
      try {
        chosen = localStorage.getItem('ds-variation');
      } catch {}
    }
    show(ids.includes(chosen) ? chosen : ids[0]);
    select.addEventListener('change', () => {
      show(select.value);
      try {
        localStorage.setItem('ds-variation', select.value);
      } catch {}
    });
    const header = document.querySelector('main .ds-page-header');
    (header || blocks[0]).after(select);
  }

  // <Popup>: the browser's popover opens it; this places it under its trigger.
  function placePopup(event) {
    const content = event.target;
    if (event.newState !== 'open') return;
    const trigger = document.querySelector(`[popovertarget="${CSS.escape(content.id)}"]`);
    if (!trigger) return;
    const box = trigger.getBoundingClientRect();
    const width = Math.min(content.offsetWidth, window.innerWidth - 16);
    content.style.left = `${Math.max(8, Math.min(box.left, window.innerWidth - width - 8))}px`;
    content.style.top = `${box.bottom + 6}px`;
  }

  // Fence meta `expandable`: the block shows its start, and a button shows the rest.
  function expandable(block) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'ds-code-expand';
    button.textContent = 'Expand';
    button.addEventListener('click', () => {
      const open = !block.hasAttribute('data-expanded');
      block.toggleAttribute('data-expanded', open);
      button.textContent = open ? 'Collapse' : 'Expand';
    });
    block.appendChild(button);
  }

  // Images zoom when clicked, as on the platform (not those in links, nor <img noZoom>).
  function zoom(image) {
    const dialog = document.createElement('dialog');
    dialog.className = 'ds-zoom';
    const big = image.cloneNode();
    big.removeAttribute('width');
    big.removeAttribute('height');
    dialog.appendChild(big);
    dialog.addEventListener('click', () => dialog.close());
    dialog.addEventListener('close', () => dialog.remove());
    document.body.appendChild(dialog);
    dialog.showModal();
  }

  function init() {
    for (const image of document.querySelectorAll('main .ds-content img:not([data-no-zoom])')) {
      if (image.closest('a')) continue;
      image.classList.add('ds-zoomable');
      image.addEventListener('click', () => zoom(image));
    }
    document.querySelectorAll('main .ds-content .ds-code-expandable').forEach(expandable);
    // <Color.Item>: a click copies the color's value.
    for (const swatch of document.querySelectorAll('main .ds-content .ds-color-item'))
      swatch.addEventListener('click', () => copy(swatch.dataset.value || '', () => {}));
    for (const button of document.querySelectorAll('main .ds-content .ds-prompt-copy'))
      button.addEventListener('click', () => copyPrompt(button));
    initViews();
    initVariations();
    for (const popup of document.querySelectorAll('main .ds-content .ds-popup-content'))
      popup.addEventListener('toggle', placePopup);
    for (const button of document.querySelectorAll('main .ds-page-header .ds-copy-page'))
      button.addEventListener('click', () => copyPage(button));
    document.addEventListener('click', onClick);
    document.addEventListener('keydown', onKey);
    document.addEventListener('keydown', onEscape);
    window.addEventListener('hashchange', reveal);
    document.querySelectorAll('.ds-code:not(.ds-no-copy)').forEach(addCopyButton);
    document.querySelectorAll('.ds-tooltip').forEach(dismissible);
    reveal();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
