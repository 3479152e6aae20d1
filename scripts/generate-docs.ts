/**
 * Writes the generated references of docs/reference/ (`npm run docs:generate`); test/docs checks they
 * are up to date.
 */
import { writeFile } from 'node:fs/promises';
import { GENERATED_PAGES } from './docs/generated-pages.ts';

for (const page of GENERATED_PAGES) {
  await writeFile(new URL(`../${page.path}`, import.meta.url), page.render());
  console.log(`wrote ${page.path}`);
}
