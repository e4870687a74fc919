import { enableCompileCache } from 'node:module';

// A render thread loads the whole renderer before its first page; with Node's compile cache it
// reuses the code an earlier export compiled (see cli/main.ts).
enableCompileCache();
const { default: renderBatch } = await import('./render-worker.ts');

export default renderBatch;
