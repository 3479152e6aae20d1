#!/usr/bin/env node
// Entry point of the `faithscreen` CLI: runs the TypeScript sources through tsx (no build step).
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
