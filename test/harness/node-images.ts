import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './helm.ts';

const run = promisify(execFile);

/** The project's image as pods name it (charts: image.repository localhost/docsnap, pullPolicy Never). */
export const DOCSNAP_IMAGE = { repository: 'localhost/docsnap', tag: '0.1.0' };
/** The sandbox ("pause") image: no registry to pull one from, so the image's base, sleeping. */
const PAUSE_IMAGE = 'localhost/docsnap-pause:1';
const BASE_IMAGE = 'docker.io/library/node:24-bookworm-slim';

/**
 * Builds the project's image (tools/image/build.sh, cached layers make a rebuild quick) and the
 * pause image, and writes both as oci-archive files under `work` for RealNode to import.
 */
export async function nodeImages(work: string): Promise<{ archives: string[]; pause: string }> {
  const { stdout } = await run('bash', [join(repoRoot, 'tools/image/build.sh')], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const image = /^IMAGE=(.*)$/m.exec(stdout)?.[1];
  if (!image) throw new Error('tools/image/build.sh printed no IMAGE=');
  const { stdout: container } = await run('buildah', ['from', '--pull-never', BASE_IMAGE]);
  await run('buildah', [
    'config',
    '--entrypoint',
    '["/usr/bin/sleep","infinity"]',
    '--cmd',
    '[]',
    container.trim(),
  ]);
  await run('buildah', ['commit', '--quiet', container.trim(), PAUSE_IMAGE]);
  await run('buildah', ['rm', container.trim()]);
  return {
    archives: [
      await ociArchive(image, `${DOCSNAP_IMAGE.repository}:${DOCSNAP_IMAGE.tag}`, join(work, 'docsnap.tar')),
      await ociArchive(PAUSE_IMAGE, PAUSE_IMAGE, join(work, 'pause.tar')),
    ],
    pause: PAUSE_IMAGE,
  };
}

async function ociArchive(image: string, name: string, file: string): Promise<string> {
  await run('buildah', ['push', '--quiet', image, `oci-archive:${file}:${name}`]);
  return file;
}
