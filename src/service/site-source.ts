import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { SiteConfig } from '../contract/api-config.ts';

const run = promisify(execFile);

/**
 * The docs repository of a site, as a directory: a configured path as is, a git repository
 * fetched (shallow, the one ref) into `workDir`. Git never prompts: a source that needs
 * credentials it does not have fails with git's message.
 */
export async function checkoutSite(site: SiteConfig, workDir: string, signal?: AbortSignal): Promise<string> {
  if ('path' in site.source) return site.source.path;
  const { url, ref } = site.source.git;
  const dir = join(workDir, 'source');
  await mkdir(dir, { recursive: true });
  const git = async (...args: string[]) => {
    try {
      await run('git', args, {
        cwd: dir,
        signal,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'true' },
        maxBuffer: 16 * 1024 * 1024,
      });
    } catch (error) {
      const stderr = String((error as { stderr?: string }).stderr ?? '').trim();
      // git's own words, without any credentials a URL may carry.
      throw new Error(
        `git ${args[0]} of ${redactUrl(url)} (${ref}) failed: ${redactUrl(stderr) || (error as Error).message}`,
      );
    }
  };
  await git('init', '--quiet');
  await git('fetch', '--quiet', '--depth', '1', '--', url, ref);
  await git('checkout', '--quiet', '--detach', 'FETCH_HEAD');
  return dir;
}

/** https://user:token@host/… → https://host/… */
export function redactUrl(text: string): string {
  return text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi, '$1');
}
