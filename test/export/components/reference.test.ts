import { describe, expect, it } from 'vitest';
import { knownComponents } from '../../../src/export/components/index.ts';
import { exportFixture } from '../compatibility/harness.ts';
import { page } from '../fixtures.ts';
import { REFERENCE_COMPONENTS } from './reference-components.ts';

/**
 * A fixture for every component of the format's reference (reference-components.ts), written
 * from the reference's own examples, each with the markup it must produce. Exported together as
 * one site, a page per component.
 */
const FIXTURES: Record<string, { mdx: string; html: RegExp }> = {
  Accordion: {
    mdx: '<Accordion title="Details" description="More" icon="book">Hidden text.</Accordion>',
    html: /<details class="ds-accordion"[^>]*>.*Details.*Hidden text\./s,
  },
  AccordionGroup: {
    mdx: '<AccordionGroup>\n  <Accordion title="A">a</Accordion>\n  <Accordion title="B">b</Accordion>\n</AccordionGroup>',
    html: /class="ds-accordion-group".*ds-accordion.*ds-accordion/s,
  },
  Badge: {
    mdx: 'New <Badge color="green" size="sm" shape="pill">Beta</Badge>',
    html: /class="ds-badge[^"]*"[^>]*>Beta/,
  },
  Banner: {
    mdx: '<Banner type="warning">Maintenance **tonight**.</Banner>',
    html: /class="ds-inline-banner ds-inline-banner-warning" role="note">.*<strong>tonight<\/strong>/s,
  },
  Callout: {
    mdx: '<Callout icon="key" color="#FFC107">Custom callout.</Callout>',
    html: /class="ds-callout[^"]*".*Custom callout\./s,
  },
  Note: { mdx: '<Note>A note.</Note>', html: /class="ds-callout ds-callout-note".*A note\./s },
  Warning: {
    mdx: '<Warning>A warning.</Warning>',
    html: /class="ds-callout ds-callout-warning".*A warning\./s,
  },
  Info: { mdx: '<Info>Some info.</Info>', html: /class="ds-callout ds-callout-info".*Some info\./s },
  Tip: { mdx: '<Tip>A tip.</Tip>', html: /class="ds-callout ds-callout-tip".*A tip\./s },
  Check: { mdx: '<Check>Done.</Check>', html: /class="ds-callout ds-callout-check".*Done\./s },
  Danger: { mdx: '<Danger>Careful.</Danger>', html: /class="ds-callout ds-callout-danger".*Careful\./s },
  Card: {
    mdx: '<Card title="Start" icon="rocket" href="/index" cta="Go">Begin here.</Card>',
    html: /<a href="index\.html" class="ds-card[^"]*">.*Start.*Begin here\./s,
  },
  CardGroup: {
    mdx: '<CardGroup cols={2}>\n  <Card title="A">a</Card>\n  <Card title="B">b</Card>\n</CardGroup>',
    html: /class="ds-columns[^"]*".*ds-card.*ds-card/s,
  },
  Columns: {
    mdx: '<Columns cols={3}>\n  <Card title="A">a</Card>\n</Columns>',
    html: /class="ds-columns[^"]*"/,
  },
  Column: {
    mdx: '<Columns cols={2}>\n  <Column>Left.</Column>\n  <Column>Right.</Column>\n</Columns>',
    html: /class="ds-column">.*Left\..*class="ds-column">.*Right\./s,
  },
  CodeGroup: {
    mdx: '<CodeGroup>\n\n```js a.js\nconst a = 1;\n```\n\n```py b.py\nb = 2\n```\n\n</CodeGroup>',
    html: /class="ds-tab-group[^"]*".*a\.js.*b\.py/s,
  },
  Color: {
    mdx: '<Color variant="compact">\n  <Color.Item name="brand" value="#0D9373" />\n</Color>',
    html: /class="ds-color ds-color-compact"/,
  },
  'Color.Row': {
    mdx: '<Color variant="table">\n  <Color.Row title="Primary">\n    <Color.Item name="500" value="#0D9373" />\n  </Color.Row>\n</Color>',
    html: /class="ds-color-row".*Primary/s,
  },
  'Color.Item': {
    mdx: '<Color>\n  <Color.Item name="dark" value={{ light: "#111111", dark: "#eeeeee" }} />\n</Color>',
    html: /class="ds-color-item".*dark/s,
  },
  Expandable: {
    mdx: '<ResponseField name="user" type="object">\n  <Expandable title="properties">\n    <ResponseField name="name" type="string">Name.</ResponseField>\n  </Expandable>\n</ResponseField>',
    html: /class="ds-expandable".*properties.*name/s,
  },
  ParamField: {
    mdx: '<ParamField path="id" type="string" required>The id.</ParamField>',
    html: /id="param-id".*ds-field-required.*The id\./s,
  },
  ResponseField: {
    mdx: '<ResponseField name="count" type="number" default="0">How many.</ResponseField>',
    html: /ds-field-name[^>]*>count.*How many\./s,
  },
  RequestExample: {
    mdx: '<RequestExample>\n\n```bash Request\ncurl https://example.com\n```\n\n</RequestExample>',
    html: /class="ds-example[^"]*".*curl/s,
  },
  ResponseExample: {
    mdx: '<ResponseExample>\n\n```json Response\n{ "ok": true }\n```\n\n</ResponseExample>',
    html: /class="ds-example[^"]*".*ok/s,
  },
  Frame: {
    mdx: '<Frame caption="A *picture*" hint="Look">\n  <img src="/pic.png" alt="Pic" />\n</Frame>',
    html: /class="ds-frame".*Look.*<em>picture<\/em>/s,
  },
  'GitHub.Repo': {
    mdx: '<GitHub.Repo repo="acme/docs" variant="flat" />',
    html: /class="ds-github-repo[^"]*"[^>]*href="https:\/\/github\.com\/acme\/docs"|href="https:\/\/github\.com\/acme\/docs"[^>]*class="ds-github-repo/,
  },
  Graph: {
    mdx: '<Graph type="bar" title="Sales by region" xKey="region" yKey="sales">\n  {[\n    { region: "North", sales: 4200 },\n    { region: "South", sales: 3800 }\n  ]}\n</Graph>',
    html: /<figure class="ds-graph ds-graph-bar"><figcaption class="ds-graph-title">Sales by region<\/figcaption><svg[^>]*>.*North.*<rect x="[\d.]+" y="[\d.]+".*<table class="ds-sr-only">.*4200/s,
  },
  Icon: {
    mdx: 'An <Icon icon="flag" size={24} color="#ff0000" /> icon.',
    html: /<svg[^>]*class="ds-icon[^"]*"[^>]*style="width:24px;height:24px;color:#ff0000"/,
  },
  Latex: {
    mdx: '<Latex>a^2 + b^2 = c^2</Latex>',
    html: /class="ds-math ds-math-(?:inline|display)"><span class="katex/,
  },
  MDX: {
    mdx: 'export const on = true;\n\n{on ? (\n  <MDX>\n    ## Shown section\n  </MDX>\n) : null}',
    html: /<h2[^>]*>Shown section/,
  },
  Mention: {
    mdx: 'See <Mention page="/index" /> and ask <Mention user="ada@example.com" />.',
    html: /<a class="ds-mention" href="index\.html">Mention<\/a>.*<span class="ds-mention">@ada<\/span>/s,
  },
  Mermaid: { mdx: '<Mermaid chart="graph TD; A-->B" />', html: /class="ds-mermaid"/ },
  Panel: { mdx: '<Panel>\n  Side notes.\n</Panel>\n\nBody.', html: /<aside class="ds-panel">/ },
  Popup: {
    mdx: 'An <Popup><PopupTrigger>API key</PopupTrigger><PopupContent>A secret **token**.</PopupContent></Popup> is needed.',
    html: /<span class="ds-popup"><button type="button" class="ds-popup-trigger" popovertarget="([^"]+)" aria-haspopup="dialog">API key<\/button><span class="ds-popup-content" popover="auto" id="\1">A secret <strong>token<\/strong>/,
  },
  PopupTrigger: {
    mdx: '<Popup>\n  <PopupTrigger>\n    <Badge>Key</Badge>\n  </PopupTrigger>\n  <PopupContent>\n    Details.\n  </PopupContent>\n</Popup>',
    html: /<div class="ds-popup"><button[^>]*class="ds-popup-trigger"[^>]*>.*ds-badge/s,
  },
  PopupContent: {
    mdx: '<Popup>\n  <PopupTrigger>Open</PopupTrigger>\n  <PopupContent>\n    - one\n    - two\n  </PopupContent>\n</Popup>',
    html: /<div class="ds-popup-content" popover="auto" id="[^"]+">.*<li>one<\/li>/s,
  },
  Prompt: {
    mdx: '<Prompt description="Summarize">Summarize this page.</Prompt>',
    html: /class="ds-prompt".*ds-prompt-copy.*Summarize this page\./s,
  },
  RainbowText: {
    mdx: 'Fast <RainbowText>deployment</RainbowText> today.',
    html: /<span class="ds-rainbow-text">deployment<\/span>/,
  },
  Steps: {
    mdx: '<Steps>\n  <Step title="Install">npm i</Step>\n  <Step title="Run">npm start</Step>\n</Steps>',
    html: /class="ds-steps".*Install.*Run/s,
  },
  Step: {
    mdx: '<Steps>\n  <Step title="Only" icon="check" stepNumber={3} titleSize="h3">Text.</Step>\n</Steps>',
    html: /class="ds-step".*Only/s,
  },
  Tabs: {
    mdx: '<Tabs>\n  <Tab title="One">1</Tab>\n  <Tab title="Two">2</Tab>\n</Tabs>',
    html: /class="ds-tablist".*One.*Two/s,
  },
  Tab: {
    mdx: '<Tabs>\n  <Tab title="Icon tab" icon="leaf">Leaf.</Tab>\n</Tabs>',
    html: /class="ds-tabpanel".*Leaf\./s,
  },
  Terminal: {
    mdx: '<Terminal title="Setup" theme="matrix" showLineNumbers maxHeight="20rem">\n$ npm install\nadded 3 packages\n</Terminal>',
    html: /<div class="ds-terminal ds-terminal-matrix">.*Setup.*<div class="ds-code ds-code-lines" data-language="terminal"><pre tabindex="0" style="max-height:20rem"><code><span class="line ds-terminal-command">\$ npm install<\/span>\n<span class="line">added 3 packages<\/span>/s,
  },
  Tile: {
    mdx: '<Tile href="/index" title="Home" description="Start">Preview</Tile>',
    html: /<a class="ds-tile" href="index\.html">.*Home/s,
  },
  Timeline: {
    mdx: '<Timeline>\n  <Timeline.Item title="New feature" date="2025-03-01" icon="sparkles" color="blue">\n    Added collaboration.\n  </Timeline.Item>\n  <Timeline.Item title="Fix" date="2025-02-01">Fixed.</Timeline.Item>\n</Timeline>',
    html: /<ol class="ds-timeline"><li class="ds-timeline-item ds-timeline-blue">.*New feature.*2025-03-01.*Added collaboration\..*<li class="ds-timeline-item ds-timeline-gray">/s,
  },
  'Timeline.Item': {
    mdx: '<Timeline>\n  <Timeline.Item title="Only" color="purple">x</Timeline.Item>\n</Timeline>',
    html: /ds-timeline-purple/,
  },
  Tooltip: {
    mdx: '<Tooltip tip="Application Programming Interface" cta="Read" href="/index">API</Tooltip> docs.',
    html: /class="ds-tooltip".*role="tooltip".*Application Programming Interface/s,
  },
  Tree: {
    mdx: '<Tree>\n  <Tree.Folder name="app" defaultOpen>\n    <Tree.File name="page.tsx" />\n  </Tree.Folder>\n</Tree>',
    html: /class="ds-tree".*app.*page\.tsx/s,
  },
  'Tree.Folder': {
    mdx: '<Tree>\n  <Tree.Folder name="lib" openable={false} />\n</Tree>',
    html: /ds-tree-folder.*lib/s,
  },
  'Tree.File': {
    mdx: '<Tree>\n  <Tree.File name="README.md" />\n</Tree>',
    html: /ds-tree-file.*README\.md/s,
  },
  Update: {
    mdx: '<Update label="2024-10-11" description="v0.1" tags={["Feature"]}>\n  Released.\n</Update>',
    html: /class="ds-update".*2024-10-11.*Released\./s,
  },
  Variation: {
    mdx: '<Variation is="cloud">Cloud steps.</Variation>\n\n<Variation is={["self-hosted"]}>\n  Own servers.\n</Variation>',
    html: /<span class="ds-variation" data-variation="cloud" data-variation-options="[^"]*">Cloud steps\..*<div class="ds-variation" data-variation="self-hosted" data-variation-options="[^"]*" hidden>/s,
  },
  View: {
    mdx: '<View title="JavaScript" icon="js">JS text.</View>\n\n<View title="Python">Py text.</View>',
    html: /<section class="ds-view" data-view="JavaScript">/,
  },
  Visibility: {
    mdx: '<Visibility for="humans">For people.</Visibility>\n\n<Visibility for="agents">For agents.</Visibility>',
    html: /For people\.(?![\s\S]*For agents)/,
  },
};

const slug = (name: string) => name.toLowerCase().replace(/\./g, '-');

describe('the format’s component reference', () => {
  it('has a fixture for every component the reference documents', () => {
    const missing = Object.keys(REFERENCE_COMPONENTS).filter((name) => !FIXTURES[name]);
    expect(missing).toEqual([]);
    expect(Object.keys(REFERENCE_COMPONENTS).filter((name) => !knownComponents.has(name))).toEqual([]);
  });

  it('renders each as the platform does, with no unknown component and no warning', async () => {
    const names = Object.keys(FIXTURES);
    const site = await exportFixture({
      'docs.json': {
        name: 'Reference',
        variations: {
          options: [
            { id: 'cloud', label: 'Cloud' },
            { id: 'self-hosted', label: 'Self-hosted' },
          ],
        },
        navigation: { groups: [{ group: 'Components', pages: ['index', ...names.map(slug)] }] },
      },
      'index.mdx': page('Mention', 'The index.'),
      'pic.png': 'png',
      ...Object.fromEntries(
        names.map((name) => [`${slug(name)}.mdx`, page(name, FIXTURES[name]?.mdx ?? '')]),
      ),
    });
    const content = (name: string) =>
      /<div class="ds-content">([\s\S]*?)<\/div><\/article>/.exec(site.file(`${slug(name)}.html`))?.[1] ?? '';
    const unmatched = names.filter(
      (name) =>
        !FIXTURES[name]?.html.test(name === 'Panel' ? site.file(`${slug(name)}.html`) : content(name)),
    );
    expect(unmatched).toEqual([]);
    expect(site.warnings).toEqual([]);
  });
});
