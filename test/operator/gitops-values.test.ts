import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { isApiNotServed, isNotFound } from '../../src/operator/runtime/kube-errors.ts';
import {
  applicationWithValues,
  helmReleaseWithValues,
  selectSource,
  withStaticExportObject,
} from '../../src/operator/targets/gitops-values.ts';

const values = {
  enabled: true,
  bundleUrl: 'https://s3.example.com/b.tar.gz?X-Amz-Signature=abc',
  version: 'v1',
};

type Application = { apiVersion: string; kind: string; metadata: object; spec: Record<string, unknown> };
const application = (spec: Record<string, unknown>): Application => ({
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'Application',
  metadata: { name: 'docs', namespace: 'web', resourceVersion: '42' },
  spec: { project: 'default', destination: { namespace: 'web' }, ...spec },
});

const chart = (extra: Record<string, unknown> = {}) => ({
  repoURL: 'https://charts.example.com',
  chart: 'docs-site',
  targetRevision: '1.2.0',
  ...extra,
});

describe('withStaticExportObject', () => {
  it('sets the three keys and keeps every other key, in staticExport and beside it', () => {
    const current = { replicas: 2, staticExport: { enabled: false, path: '/docs' }, image: { tag: '1.4' } };
    expect(withStaticExportObject(current, values, 'x')).toEqual({
      replicas: 2,
      staticExport: { enabled: true, path: '/docs', bundleUrl: values.bundleUrl, version: 'v1' },
      image: { tag: '1.4' },
    });
    expect(current.staticExport).toEqual({ enabled: false, path: '/docs' }); // not mutated
  });

  it('starts from nothing when the values are absent or null', () => {
    expect(withStaticExportObject(undefined, values, 'x')).toEqual({ staticExport: values });
    expect(withStaticExportObject(null, values, 'x')).toEqual({ staticExport: values });
    expect(withStaticExportObject({ staticExport: null }, values, 'x')).toEqual({ staticExport: values });
  });

  it('refuses values or a staticExport that is not an object, naming the field', () => {
    expect(() => withStaticExportObject('replicas: 2', values, 'HelmRelease a spec.values')).toThrow(
      'HelmRelease a spec.values is not an object',
    );
    expect(() => withStaticExportObject([1], values, 'v')).toThrow('v is not an object');
    expect(() => withStaticExportObject({ staticExport: 'on' }, values, 'v')).toThrow(
      'v.staticExport is not an object',
    );
  });
});

describe('selectSource', () => {
  const multi = {
    sources: [
      { repoURL: 'https://git.example.com/values.git', targetRevision: 'main', ref: 'values' },
      chart({ name: 'docs', helm: { valueFiles: ['$values/docs.yaml'] } }),
      chart({ name: 'search', chart: 'search', repoURL: 'https://charts.example.com' }),
      { repoURL: 'https://git.example.com/manifests.git', path: 'extra' },
    ],
  };

  it('takes spec.source of a single-source Application', () => {
    expect(selectSource('docs', { source: chart() }, undefined)).toEqual({ field: 'spec.source' });
  });

  it('applies a selector to spec.source too, as index 0', () => {
    expect(selectSource('docs', { source: chart() }, { chart: 'docs-site', index: 0 })).toEqual({
      field: 'spec.source',
    });
    expect(() => selectSource('docs', { source: chart() }, { chart: 'other' })).toThrow(
      'Application docs: no source matches chart="other" (sources: spec.source chart=docs-site repoURL=https://charts.example.com)',
    );
  });

  it('uses spec.sources once it is set, as Argo CD does', () => {
    const spec = { source: chart({ chart: 'ignored' }), sources: [chart()] };
    expect(selectSource('docs', spec, undefined)).toEqual({ field: 'spec.sources[0]', index: 0 });
  });

  it('picks the one source that matches every given field', () => {
    expect(selectSource('docs', multi, { name: 'search' })).toEqual({ field: 'spec.sources[2]', index: 2 });
    expect(selectSource('docs', multi, { chart: 'docs-site' })).toEqual({
      field: 'spec.sources[1]',
      index: 1,
    });
    expect(selectSource('docs', multi, { index: 1 })).toEqual({ field: 'spec.sources[1]', index: 1 });
    expect(selectSource('docs', multi, { repoURL: 'https://charts.example.com', chart: 'search' })).toEqual({
      field: 'spec.sources[2]',
      index: 2,
    });
  });

  it('refuses a selector that matches several sources, or none, naming the Application and what matched', () => {
    expect(() => selectSource('docs', multi, { repoURL: 'https://charts.example.com' })).toThrow(
      /^Application docs: 2 sources match repoURL="https:\/\/charts.example.com" \(spec.sources\[1\] name=docs .*; spec.sources\[2\] name=search .*\); give more of index, name, chart or repoURL/,
    );
    expect(() => selectSource('docs', multi, { name: 'docs', chart: 'search' })).toThrow(
      /^Application docs: no source matches name="docs", chart="search" \(sources: spec.sources\[0\] ref=values/,
    );
    expect(() => selectSource('docs', multi, { index: 7 })).toThrow(/no source matches index=7/);
  });

  it('without a selector takes the only Helm source of a multi-source Application', () => {
    const spec = { sources: [multi.sources[0], multi.sources[1], multi.sources[3]] };
    expect(selectSource('docs', spec, undefined)).toEqual({ field: 'spec.sources[1]', index: 1 });
    expect(selectSource('docs', spec, {})).toEqual({ field: 'spec.sources[1]', index: 1 });
  });

  it('without a selector asks for one when there are several Helm sources, or none', () => {
    expect(() => selectSource('docs', multi, undefined)).toThrow(
      /^Application docs has 4 sources, 2 of them Helm sources \(.*\); set argoCDApplication.source \(index, name, chart or repoURL\) to choose one$/,
    );
    expect(() => selectSource('docs', { sources: [multi.sources[3]] }, undefined)).toThrow(
      /has 1 sources, 0 of them Helm sources/,
    );
  });

  it('explains an Application with no source at all', () => {
    expect(() => selectSource('docs', { sources: [] }, undefined)).toThrow(
      'Application docs has neither spec.source nor spec.sources',
    );
  });
});

describe('applicationWithValues', () => {
  it('writes only helm.valuesObject.staticExport of spec.source; values, parameters and the rest stay', () => {
    const helm = {
      releaseName: 'docs',
      values: 'staticExport:\n  enabled: false\n',
      parameters: [{ name: 'image.tag', value: '1.4' }],
      valuesObject: { replicas: 3 },
    };
    const app = application({ source: chart({ helm }), syncPolicy: { automated: { selfHeal: true } } });
    const edit = applicationWithValues(app, undefined, values);
    expect(edit).toMatchObject({ key: 'spec.source.helm.valuesObject', changed: true });
    const expected = structuredClone(app);
    expected.spec.source = chart({ helm: { ...helm, valuesObject: { replicas: 3, staticExport: values } } });
    expect(edit.object).toEqual(expected);
    expect(app.spec.source).toEqual(chart({ helm })); // the object read is not mutated

    const again = applicationWithValues(edit.object, undefined, values);
    expect(again.changed).toBe(false);
    expect(again.object).toEqual(edit.object);
  });

  it('refuses to add a valuesObject beside a helm.values string: Argo CD would then ignore the string', () => {
    const app = application({ source: chart({ helm: { values: 'replicas: 2\n' } }) });
    expect(() => applicationWithValues(app, undefined, values)).toThrow(
      /^Application docs spec.source.helm has values but no valuesObject; Argo CD ignores helm.values once helm.valuesObject is set/,
    );
    // A string that sets nothing loses nothing.
    for (const empty of ['', '  \n', '# no values yet\n', '{}'])
      expect(
        applicationWithValues(application({ source: chart({ helm: { values: empty } }) }), undefined, values)
          .changed,
      ).toBe(true);
  });

  it('adds helm to a source that has none', () => {
    const edit = applicationWithValues(application({ source: chart() }), undefined, values);
    expect((edit.object.spec as { source: unknown }).source).toEqual(
      chart({ helm: { valuesObject: { staticExport: values } } }),
    );
  });

  it('writes the selected source of a multi-source Application and no other', () => {
    const sources = [chart({ name: 'a', helm: { valuesObject: { x: 1 } } }), chart({ name: 'b' })];
    const app = application({ sources });
    const edit = applicationWithValues(app, { name: 'b' }, values);
    expect(edit.key).toBe('spec.sources[1].helm.valuesObject');
    expect((edit.object.spec as { sources: unknown }).sources).toEqual([
      sources[0],
      chart({ name: 'b', helm: { valuesObject: { staticExport: values } } }),
    ]);
  });

  it('refuses a source that is not Helm: Kustomize, directory, plugin, or values files only', () => {
    for (const kind of ['kustomize', 'directory', 'plugin']) {
      const app = application({
        source: { repoURL: 'https://git.example.com/x.git', path: 'x', [kind]: {} },
      });
      expect(() => applicationWithValues(app, undefined, values)).toThrow(
        `Application docs spec.source is a ${kind} source, not a Helm source`,
      );
    }
    const refOnly = application({ sources: [{ repoURL: 'https://git.example.com/v.git', ref: 'values' }] });
    expect(() => applicationWithValues(refOnly, { index: 0 }, values)).toThrow(
      'Application docs spec.sources[0] only provides values files (ref values); it renders no chart',
    );
  });

  it('names the field when helm or valuesObject has the wrong shape', () => {
    expect(() =>
      applicationWithValues(application({ source: chart({ helm: 'x' }) }), undefined, values),
    ).toThrow('Application docs spec.source.helm is not an object');
    expect(() =>
      applicationWithValues(
        application({ source: chart({ helm: { valuesObject: { staticExport: true } } }) }),
        undefined,
        values,
      ),
    ).toThrow('Application docs spec.source.helm.valuesObject.staticExport is not an object');
  });
});

describe('helmReleaseWithValues', () => {
  const release = {
    apiVersion: 'helm.toolkit.fluxcd.io/v2',
    kind: 'HelmRelease',
    metadata: { name: 'docs', namespace: 'web' },
    spec: {
      interval: '10m',
      chart: { spec: { chart: 'docs-site', sourceRef: { kind: 'HelmRepository', name: 'charts' } } },
      values: { replicas: 2, staticExport: { path: '/docs' } },
      valuesFrom: [{ kind: 'Secret', name: 'shared' }],
    },
  };

  it('writes spec.values.staticExport and keeps the other values and fields', () => {
    const edit = helmReleaseWithValues(release, values);
    expect(edit).toMatchObject({ key: 'spec.values', changed: true });
    expect(edit.object).toEqual({
      ...release,
      spec: { ...release.spec, values: { replicas: 2, staticExport: { path: '/docs', ...values } } },
    });
    expect(helmReleaseWithValues(edit.object, values).changed).toBe(false);
  });

  it('starts spec.values when there is none', () => {
    const { values: _, ...spec } = release.spec;
    const edit = helmReleaseWithValues({ ...release, spec }, values);
    expect((edit.object.spec as { values: unknown }).values).toEqual({ staticExport: values });
  });
});

describe('isApiNotServed', () => {
  const notFound = (details: Record<string, unknown>) =>
    new ApiException(
      404,
      'not found',
      JSON.stringify({ kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404, details }),
      {},
    );

  it('tells a missing object (its name in the Status details) from an API the server does not serve', () => {
    const missing = notFound({ name: 'docs', group: 'argoproj.io', kind: 'applications' });
    expect(isNotFound(missing)).toBe(true);
    expect(isApiNotServed(missing)).toBe(false);
    expect(isApiNotServed(notFound({}))).toBe(true);
    expect(isApiNotServed(new ApiException(404, 'not found', '404 page not found', {}))).toBe(true);
    expect(isApiNotServed(new ApiException(403, 'forbidden', '{}', {}))).toBe(false);
  });
});
