/**
 * Runs dependency-cruiser over every source folder of source-folders.json, so the folders checked
 * are the ones the rules name (`npm run lint:imports`).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const { layers } = JSON.parse(readFileSync(new URL('../source-folders.json', import.meta.url), 'utf8'));
const folders = layers.flat();
const depcruise = fileURLToPath(new URL('../node_modules/dependency-cruiser/bin/dependency-cruise.mjs', import.meta.url));
const args = [depcruise, '--config', '.dependency-cruiser.cjs', ...folders];
const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
if (result.error) throw result.error;
process.exit(result.status ?? 1);
