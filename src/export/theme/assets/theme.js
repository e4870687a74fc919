// Site chrome: theme toggle, mobile navigation, lazily filled sidebar groups. Progressive
// enhancement only: every page is usable without it. Works from file:// (no fetch).
// Settings come from attributes of <html>, which only the layout writes (authors write inside
// <body>), and are checked for the shape the layout gives them: content cannot steer this script.
(() => {
  const doc = document.documentElement;
  const rootAttribute = doc.getAttribute('data-root');
  const root = /^(?:\.\/|(?:\.\.\/)+)$/.test(rootAttribute) ? rootAttribute : './';
  const navScriptAttribute = doc.getAttribute('data-nav-script');
  const navScript = /^_docsnap\/nav\/section-\d+\.js$/.test(navScriptAttribute) ? navScriptAttribute : null;

  function setTheme(theme) {
    doc.dataset.theme = theme;
    try {
      localStorage.setItem('ds-theme', theme);
    } catch (_) {
      // Storage can be unavailable (file:// in some browsers, privacy modes): the toggle still works.
    }
  }

  // Sidebar groups of large sections arrive from a per-section script (see FULL_NAV_LIMIT).
  const pendingNav = [];
  window.DocsnapNav = {
    register(section, groups) {
      window.DocsnapNav.data = window.DocsnapNav.data || {};
      window.DocsnapNav.data[section] = groups;
      while (pendingNav.length) pendingNav.shift()();
    },
  };

  // The export's URL policy (url-policy.ts) again, for hrefs that arrive as data: a link may be
  // http(s), mailto, tel or relative. Browsers drop tabs and newlines and trim controls first.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: C0 controls are exactly what browsers trim.
  const LEADING_CONTROLS = /^[\u0000-\u0020]+/;
  function navHref(href) {
    const url = String(href)
      .replace(/[\t\n\r]/g, '')
      .replace(LEADING_CONTROLS, '');
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url);
    if (!scheme) return root + url;
    return /^(?:https?|mailto|tel)$/i.test(scheme[1]) ? url : null;
  }

  function entryList(entries) {
    const ul = document.createElement('ul');
    for (const entry of entries) {
      const li = document.createElement('li');
      if (Array.isArray(entry)) {
        const a = document.createElement('a');
        const href = navHref(entry[1]);
        if (href !== null) a.href = href;
        if (entry[2]) {
          const method = document.createElement('span');
          method.className = `ds-nav-method ds-nav-method-${entry[2].toLowerCase()}`;
          method.textContent = entry[2];
          a.appendChild(method);
        }
        a.appendChild(document.createTextNode(entry[0]));
        li.appendChild(a);
      } else {
        const details = document.createElement('details');
        const summary = document.createElement('summary');
        summary.textContent = entry.g;
        details.appendChild(summary);
        details.appendChild(entryList(entry.c));
        li.appendChild(details);
      }
      ul.appendChild(li);
    }
    return ul;
  }

  function fillLazyGroup(details) {
    if (details.dataset.filled) return;
    const section = doc.getAttribute('data-section');
    const fill = () => {
      const groups = window.DocsnapNav.data?.[section];
      const entries = groups?.[Number(details.dataset.g)];
      if (!entries) return;
      details.dataset.filled = 'true';
      details.appendChild(entryList(entries));
    };
    if (window.DocsnapNav.data?.[section]) return fill();
    pendingNav.push(fill);
    if (!doc.hasAttribute('data-nav-loading')) {
      doc.setAttribute('data-nav-loading', 'true');
      const script = document.createElement('script');
      script.src = root + navScript;
      document.head.appendChild(script);
    }
  }

  function init() {
    // The site banner's dismiss button (the layout's, found by its place: the banner is the body's second child).
    const dismiss = document.querySelector('body > .ds-banner > .ds-banner-dismiss');
    if (dismiss && doc.dataset.banner) {
      dismiss.addEventListener('click', () => {
        doc.dataset.bannerDismissed = '';
        try {
          localStorage.setItem('ds-banner', doc.dataset.banner);
        } catch {}
      });
    }
    for (const button of document.querySelectorAll('.ds-theme-toggle')) {
      button.addEventListener('click', () => setTheme(doc.dataset.theme === 'dark' ? 'light' : 'dark'));
    }
    // The layout's sidebar, found by its place in the page rather than by an id content could copy.
    const sidebar = document.querySelector('body > .ds-shell > nav.ds-sidebar');
    const menu = document.querySelector('.ds-menu-toggle');
    if (menu && sidebar) {
      menu.addEventListener('click', () => {
        const open = menu.getAttribute('aria-expanded') !== 'true';
        menu.setAttribute('aria-expanded', String(open));
        sidebar.classList.toggle('open', open);
      });
    }
    if (sidebar && navScript) {
      for (const details of sidebar.querySelectorAll('details[data-g]')) {
        details.addEventListener('toggle', () => details.open && fillLazyGroup(details));
      }
    }
    const active = sidebar?.querySelector('a[aria-current="page"]');
    if (active && typeof active.scrollIntoView === 'function') active.scrollIntoView({ block: 'nearest' });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
