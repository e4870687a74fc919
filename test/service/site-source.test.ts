import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkoutSite, redactUrl } from '../../src/service/site-source.ts';
import { EXAMPLE_SITE, tempDir } from '../export/fixtures.ts';

/** A real git repository holding the example site on branch main, with a second commit on a tag. */
function gitRepository(): string {
  const repo = tempDir('docsnap-git-');
  cpSync(EXAMPLE_SITE, repo, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo });
  git('init', '--quiet', '--initial-branch', 'main');
  git('add', '.');
  git('commit', '--quiet', '-m', 'docs');
  git('tag', 'v1');
  execFileSync('sh', ['-c', 'echo changed > CHANGELOG.txt'], { cwd: repo });
  git('add', '.');
  git('commit', '--quiet', '-m', 'more');
  return repo;
}

const site = (url: string, ref: string) => ({
  domain: 'docs.example.com',
  organization: 'acme',
  source: { git: { url, ref } },
  deployment: 'cloud' as const,
  features: {},
});

describe('site sources', () => {
  const repo = gitRepository();

  it('fetches one ref of a git repository: a branch or a tag', async () => {
    const branch = await checkoutSite(site(`file://${repo}`, 'main'), tempDir());
    expect(existsSync(join(branch, 'docs.json'))).toBe(true);
    expect(readFileSync(join(branch, 'CHANGELOG.txt'), 'utf8')).toBe('changed\n');
    const tag = await checkoutSite(site(`file://${repo}`, 'v1'), tempDir());
    expect(existsSync(join(tag, 'docs.json'))).toBe(true);
    expect(existsSync(join(tag, 'CHANGELOG.txt'))).toBe(false);
  });

  it('checks out a pinned revision of the ref when asked', async () => {
    const tagged = execFileSync('git', ['rev-parse', 'v1^{commit}'], { cwd: repo, encoding: 'utf8' }).trim();
    const dir = await checkoutSite(site(`file://${repo}`, 'main'), tempDir(), undefined, {
      revision: tagged,
    });
    expect(existsSync(join(dir, 'docs.json'))).toBe(true);
    expect(existsSync(join(dir, 'CHANGELOG.txt'))).toBe(false);
  });

  it("fails with git's own words for a missing ref, without credentials of the URL", async () => {
    await expect(checkoutSite(site(`file://${repo}`, 'no-such-branch'), tempDir())).rejects.toThrow(
      /git fetch of file:\/\/.* \(no-such-branch\) failed: .*no-such-branch/,
    );
    const error = await checkoutSite(
      site('https://user:s3cret@127.0.0.1:9/docs.git', 'main'),
      tempDir(),
    ).catch((e: Error) => e);
    expect((error as Error).message).not.toContain('s3cret');
    expect(redactUrl('https://user:token@git.example.com/x.git')).toBe('https://git.example.com/x.git');
  });

  it('uses a configured path as it is', async () => {
    const path = EXAMPLE_SITE;
    expect(await checkoutSite({ ...site('', ''), source: { path } }, tempDir())).toBe(path);
  });
});
