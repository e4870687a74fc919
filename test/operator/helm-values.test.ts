import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { withStaticExportValues } from '../../src/operator/targets/helm-values.ts';

const values = {
  enabled: true,
  bundleUrl: 'https://s3.example.com/b.tar.gz?X-Amz-Signature=abc',
  version: 'v1',
};

describe('withStaticExportValues', () => {
  it('changes only the staticExport section: comments, order and other keys stay', () => {
    const original = [
      '# Docs deployment',
      'replicas: 2 # HA',
      'staticExport:',
      '  enabled: false',
      '  # the link is written by docsnap',
      '  bundleUrl: ""',
      '  extra: kept',
      'image:',
      '  tag: "1.4"',
      '',
    ].join('\n');
    const updated = withStaticExportValues(original, values);
    expect(updated).toContain('# Docs deployment\nreplicas: 2 # HA\n');
    expect(updated).toContain('  # the link is written by docsnap\n');
    expect(updated).toContain('image:\n  tag: "1.4"\n');
    expect(parse(updated)).toEqual({
      replicas: 2,
      staticExport: { enabled: true, bundleUrl: values.bundleUrl, version: 'v1', extra: 'kept' },
      image: { tag: '1.4' },
    });
    expect(withStaticExportValues(updated, values)).toBe(updated); // unchanged values: same text
  });

  it('starts a document when there is none', () => {
    expect(parse(withStaticExportValues(undefined, values))).toEqual({ staticExport: values });
    expect(parse(withStaticExportValues('', values))).toEqual({ staticExport: values });
  });

  it('refuses YAML it cannot edit safely, saying why', () => {
    expect(() => withStaticExportValues('a: [1, 2', values)).toThrow(/not valid YAML/);
    expect(() => withStaticExportValues('- a\n- b\n', values)).toThrow(/mapping at the top level/);
    expect(() => withStaticExportValues('staticExport: yes\n', values)).toThrow(
      /staticExport .* not a mapping/,
    );
  });
});
