import { createHash } from 'node:crypto';

/**
 * The sha256 of the archive behind a bundle link, read as a stream, within 5 minutes and until
 * `signal` aborts (leadership lost). Errors never quote the link: it grants access to the bundle.
 */
export async function bundleDigest(bundleUrl: string, signal?: AbortSignal): Promise<string> {
  let response: Response;
  try {
    const deadline = AbortSignal.timeout(300_000);
    response = await fetch(bundleUrl, { signal: signal ? AbortSignal.any([signal, deadline]) : deadline });
  } catch (error) {
    throw new Error(`downloading the bundle failed: ${(error as Error).cause ?? (error as Error).name}`);
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new Error(`downloading the bundle failed: HTTP ${response.status}`);
  }
  const hash = createHash('sha256');
  for await (const chunk of response.body) hash.update(chunk);
  return `sha256:${hash.digest('hex')}`;
}
