// Site chrome: theme toggle, mobile navigation, lazily filled sidebar groups. Progressive
// enhancement only: every page is usable without it. Works from file:// (no fetch).
(() => {
  const doc = document.documentElement;
  const root = doc.getAttribute('data-root') || './';

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

  function entryList(entries) {
    const ul = document.createElement('ul');
    for (const entry of entries) {
      const li = document.createElement('li');
      if (Array.isArray(entry)) {
        const a = document.createElement('a');
        a.href = /^[a-z][a-z0-9+.-]*:/i.test(entry[1]) ? entry[1] : root + entry[1];
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

  function fillLazyGroup(details, sidebar) {
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
    if (!sidebar.dataset.navLoading) {
      sidebar.dataset.navLoading = 'true';
      const script = document.createElement('script');
      script.src = root + sidebar.getAttribute('data-nav-script');
      document.head.appendChild(script);
    }
  }

  function init() {
    for (const button of document.querySelectorAll('.ds-theme-toggle')) {
      button.addEventListener('click', () => setTheme(doc.dataset.theme === 'dark' ? 'light' : 'dark'));
    }
    const sidebar = document.getElementById('ds-sidebar');
    const menu = document.querySelector('.ds-menu-toggle');
    if (menu && sidebar) {
      menu.addEventListener('click', () => {
        const open = menu.getAttribute('aria-expanded') !== 'true';
        menu.setAttribute('aria-expanded', String(open));
        sidebar.classList.toggle('open', open);
      });
    }
    if (sidebar?.getAttribute('data-nav-script')) {
      for (const details of sidebar.querySelectorAll('details[data-g]')) {
        details.addEventListener('toggle', () => details.open && fillLazyGroup(details, sidebar));
      }
    }
    const active = sidebar?.querySelector('a[aria-current="page"]');
    if (active && typeof active.scrollIntoView === 'function') active.scrollIntoView({ block: 'nearest' });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
