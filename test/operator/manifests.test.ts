import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MANIFESTS } from '../../tools/gen-manifests.ts';

describe('generated manifests', () => {
  it.each(MANIFESTS)(
    '%s matches the code it is generated from (run `npm run manifests`)',
    async (file, generate) => {
      expect(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')).toBe(await generate());
    },
  );
});
