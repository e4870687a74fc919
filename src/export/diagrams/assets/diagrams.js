// Draws the page's Mermaid diagrams (see src/export/diagrams/mermaid.ts) with the bundle the site
// ships, in the reader's theme, and again when the theme changes. Loaded only by pages with a
// diagram, after mermaid.min.js. The source stays in the page: it is what shows without script or
// when a diagram cannot be drawn. Works from file:// (a classic script, no fetch).
(() => {
  const mermaid = window.mermaid;
  if (!mermaid) return;
  const doc = document.documentElement;
  const blocks = [...document.querySelectorAll('.ds-mermaid')];
  const ZOOM_STEP = 1.25;
  const MIN_ZOOM = 0.25;
  const MAX_ZOOM = 8;
  const PAN_STEP = 80;
  // Unless the fence says, controls show on diagrams taller than this, as on the platform.
  const CONTROLS_FROM_HEIGHT = 120;
  let drawing = 0;

  function button(label, text, onClick) {
    const element = document.createElement('button');
    element.type = 'button';
    element.className = 'ds-mermaid-action';
    element.setAttribute('aria-label', label);
    element.title = label;
    element.textContent = text;
    element.addEventListener('click', onClick);
    return element;
  }

  // Zoom in, out and back, and pan: a zoomed diagram scrolls inside its frame.
  function addActions(block, figure) {
    let zoom = 1;
    const apply = () => {
      const svg = figure.querySelector('svg');
      if (!svg) return;
      svg.style.transform = zoom === 1 ? '' : `scale(${zoom})`;
      svg.style.transformOrigin = '0 0';
      figure.classList.toggle('ds-mermaid-zoomed', zoom !== 1);
    };
    const bar = document.createElement('div');
    bar.className = 'ds-mermaid-actions';
    bar.append(
      button('Zoom in', '+', () => {
        zoom = Math.min(MAX_ZOOM, zoom * ZOOM_STEP);
        apply();
      }),
      button('Zoom out', '\u2212', () => {
        zoom = Math.max(MIN_ZOOM, zoom / ZOOM_STEP);
        apply();
      }),
      button('Reset zoom', '\u21ba', () => {
        zoom = 1;
        figure.scrollTo(0, 0);
        apply();
      }),
      ...[
        ['Pan left', '\u2190', -1, 0],
        ['Pan up', '\u2191', 0, -1],
        ['Pan down', '\u2193', 0, 1],
        ['Pan right', '\u2192', 1, 0],
      ].map(([label, arrow, x, y]) =>
        button(label, arrow, () => figure.scrollBy({ left: x * PAN_STEP, top: y * PAN_STEP })),
      ),
    );
    block.append(bar);
    return apply;
  }

  function figureOf(block) {
    let figure = block.querySelector('.ds-mermaid-figure');
    if (!figure) {
      figure = document.createElement('div');
      figure.className = 'ds-mermaid-figure';
      figure.setAttribute('role', 'img');
      block.prepend(figure);
      block.rezoom = () => {};
    }
    return figure;
  }

  function wantsActions(block, figure) {
    const setting = block.dataset.actions;
    if (setting === 'true' || setting === 'false') return setting === 'true';
    return figure.getBoundingClientRect().height > CONTROLS_FROM_HEIGHT;
  }

  async function drawAll() {
    const run = ++drawing;
    mermaid.initialize({
      startOnLoad: false,
      securityLevel: 'strict',
      // A diagram that cannot be drawn keeps its source; Mermaid draws no error picture.
      suppressErrorRendering: true,
      theme: doc.dataset.theme === 'dark' ? 'dark' : 'default',
    });
    for (const [index, block] of blocks.entries()) {
      const source = block.querySelector('.ds-mermaid-source')?.textContent ?? '';
      try {
        const { svg } = await mermaid.render(`ds-mermaid-${index}-${run}`, source);
        // A newer theme's drawing has started: leave the diagrams to it.
        if (run !== drawing) return;
        const figure = figureOf(block);
        // Mermaid's strict level sanitized its SVG (DOMPurify) before handing it over.
        figure.innerHTML = svg;
        figure.setAttribute(
          'aria-label',
          figure.querySelector('svg')?.getAttribute('aria-roledescription') ?? 'diagram',
        );
        block.classList.add('ds-mermaid-drawn');
        if (!block.querySelector('.ds-mermaid-actions') && wantsActions(block, figure))
          block.rezoom = addActions(block, figure);
        block.rezoom();
        block.classList.remove('ds-mermaid-failed');
      } catch (error) {
        if (run !== drawing) return;
        block.classList.add('ds-mermaid-failed');
        console.warn('docsnap: a diagram could not be drawn; its source is shown', error);
      }
    }
  }

  new MutationObserver(drawAll).observe(doc, { attributes: true, attributeFilter: ['data-theme'] });
  drawAll();
})();
