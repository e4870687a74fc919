import { join } from 'node:path';
import type { SiteConfig } from '../contract/api-config.ts';
import { checkoutGit, type GitCheckoutOptions } from './git-source.ts';

export type { GitCheckoutOptions, GitCredentials, GitFailure } from './git-source.ts';
export { checkoutGit, GitSourceError, redactUrl, resolveGitRevision } from './git-source.ts';

/**
 * The docs repository of a site, as a directory: a configured path as is, a git repository
 * fetched (shallow, the one ref or `options.revision`) into `workDir`. Git never prompts: a
 * source that needs credentials it was not given fails with a clear message.
 */
export async function checkoutSite(
  site: SiteConfig,
  workDir: string,
  signal?: AbortSignal,
  options: Omit<GitCheckoutOptions, 'signal'> = {},
): Promise<string> {
  if ('path' in site.source) return site.source.path;
  const { url, ref } = site.source.git;
  const { dir } = await checkoutGit(url, ref, join(workDir, 'source'), { ...options, signal });
  return dir;
}
