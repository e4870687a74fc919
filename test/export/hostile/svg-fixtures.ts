/** SVG files for the hostile-asset tests: attacks, and a benign icon that must survive whole. */

export const SVG = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"';

/** One file per attack; each also draws something that must survive. */
export const MALICIOUS: Record<string, string> = {
  'script.svg': `<svg ${SVG}><script>alert(1)</script><script xlink:href="https://evil.example/x.js"/><circle r="5"/></svg>`,
  'handlers.svg': `<svg ${SVG} onload="alert(1)"><rect width="5" height="5" onclick="alert(2)" onmouseover="alert(3)"/><set attributeName="onclick" to="alert(4)"/><animate attributeName="href" values="javascript:alert(5)"/><circle r="5"/></svg>`,
  'foreign-object.svg': `<svg ${SVG}><foreignObject width="100" height="100"><body xmlns="http://www.w3.org/1999/xhtml"><iframe src="javascript:alert(1)"></iframe><img src="x" onerror="alert(2)"/></body></foreignObject><circle r="5"/></svg>`,
  'javascript-links.svg': `<svg ${SVG}><a xlink:href="javascript:alert(1)"><rect width="5" height="5"/></a><a href=" javascript:alert(2)"><circle r="5"/></a><a href="jav&#x09;ascript:alert(3)"><circle r="6"/></a><a href="data:text/html,&lt;script&gt;alert(4)&lt;/script&gt;"><circle r="7"/></a></svg>`,
  'external-use.svg': `<svg ${SVG}><use href="https://evil.example/sprite.svg#icon"/><use xlink:href="other.svg#icon"/><use href="data:image/svg+xml;base64,PHN2Zy8+#x"/><image href="https://evil.example/track.png" width="1" height="1"/><feImage href="https://evil.example/f.png"/><circle r="5"/></svg>`,
  'style-urls.svg': `<svg ${SVG}><style>@import url(https://evil.example/a.css); rect { fill: url(https://evil.example/p.svg#p) }</style><style>circle { fill: u\\72l(https://evil.example/escaped) }</style><style>path { background: image-set("https://evil.example/set.png" 1x) }</style><rect width="5" height="5" style="background:url(http://evil.example/track.png)"/><rect width="5" height="5" fill="url(https://evil.example/x.svg#p)"/><rect width="5" height="5" cursor="url(https://evil.example/c.cur), auto"/><circle r="5"/></svg>`,
  'cdata.svg': `<svg ${SVG}><style><![CDATA[</style><script>alert(1)</script>]]></style><desc><![CDATA[</desc><script>alert(2)</script>]]></desc><text><![CDATA[<script>alert(3)</script>]]></text><circle r="5"/></svg>`,
  'entities.svg': `<?xml version="1.0"?>\n<!DOCTYPE svg [\n<!ENTITY boom "EXPANDED">\n<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">\n<!ENTITY xss "<script>alert(1)</script>">\n<!ENTITY ext SYSTEM "file:///etc/passwd">\n]>\n<svg ${SVG}><text>&boom; &lol3; &xss; &ext;</text><circle r="5"/></svg>`,
};

/** A real icon: gradients, a clip path, a symbol used twice, a style and text. */
export const BENIGN_ICON = `<?xml version="1.0" encoding="UTF-8"?>
<!-- Drawn by hand -->
<svg ${SVG} width="64" height="64" viewBox="0 0 64 64" fill="none">
  <title>Docs icon</title>
  <defs>
    <linearGradient id="fade" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#0a7" />
      <stop offset="1" stop-color="#054" />
    </linearGradient>
    <radialGradient id="glow" cx="0.5" cy="0.5" r="0.5">
      <stop offset="0" stop-color="#ff0" stop-opacity="0.9" />
      <stop offset="1" stop-color="#f80" stop-opacity="0" />
    </radialGradient>
    <clipPath id="round"><circle cx="32" cy="32" r="30" /></clipPath>
    <symbol id="dot" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#fff" /></symbol>
    <style>.accent { fill: url(#glow); stroke: #333; }</style>
  </defs>
  <g clip-path="url(#round)">
    <rect width="64" height="64" fill="url(#fade)" />
    <path class="accent" d="M12 40 C 20 20, 44 20, 52 40 Z" stroke-width="2" />
  </g>
  <use href="#dot" x="4" y="4" width="8" height="8" />
  <use xlink:href="#dot" x="52" y="4" width="8" height="8" />
  <text x="32" y="60" font-family="sans-serif" font-size="8">Docs &amp; more</text>
</svg>
`;
