#!/usr/bin/env node
import { enableCompileCache } from 'node:module';

// Node keeps the compiled code of every module (and the TypeScript it stripped) on disk, so the
// next command starts without compiling the renderer again: about a second of CPU per export.
enableCompileCache();
await import('./run.ts');
